package launch

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// kthenaRoles expands a kthena ModelServing (volcano-sh/kthena): each role
// (prefill, decode, ...) is a deployment of its own, with an entry pod
// (worker index 0) and workerReplicas workers; the controller gives every
// container GROUP_SIZE (workerReplicas + 1), ENTRY_ADDRESS (the entry pod's
// host name) and WORKER_INDEX (pkg/model-serving-controller/utils
// createCommonEnvVars).
func kthenaRoles(doc *yaml.Node) []podRole {
	roles := get(doc, "spec", "template", "roles")
	if roles == nil || roles.Kind != yaml.SequenceNode {
		return nil
	}
	var out []podRole
	for i, r := range roles.Content {
		name := scalar(r, "name")
		if name == "" {
			name = "role" + strconv.Itoa(i)
		}
		workers, err := strconv.Atoi(scalar(r, "workerReplicas"))
		if err != nil || workers < 0 || workers >= maxGroupSize {
			workers = -1
		}
		entry := podRole{spec: get(r, "entryTemplate", "spec"), role: "leader", group: name, indexes: []int{0}, strict: true}
		entry.op = &operatorPod{env: kthenaEnv(workers, 0)}
		out = append(out, entry)
		if workers == 0 {
			continue
		}
		if workers < 0 { // unknown count: one worker of unknown index
			w := podRole{spec: get(r, "workerTemplate", "spec"), role: "worker", group: name, indexes: []int{-1}, strict: true}
			w.op = &operatorPod{env: kthenaEnv(-1, -1)}
			out = append(out, w)
			continue
		}
		for idx := 1; idx <= workers; idx++ {
			w := podRole{spec: get(r, "workerTemplate", "spec"), role: "worker", group: name, indexes: []int{idx}, strict: true}
			w.op = &operatorPod{env: kthenaEnv(workers, idx)}
			out = append(out, w)
		}
	}
	return out
}

// kthenaEnv is what kthena injects for a pod with worker index idx of a
// role with the given worker count (-1 = unknown).
func kthenaEnv(workers, idx int) []EnvVar {
	size := unknownValue("$GROUP_SIZE", Pos{}, "GROUP_SIZE")
	if workers >= 0 {
		size = knownValue(strconv.Itoa(workers+1), Pos{})
	}
	index := unknownValue("$WORKER_INDEX", Pos{}, "WORKER_INDEX")
	if idx >= 0 {
		index = knownValue(strconv.Itoa(idx), Pos{})
	}
	return []EnvVar{
		{Name: "GROUP_SIZE", Value: size, Source: "kthena"},
		{Name: "ENTRY_ADDRESS", Value: unknownValue("$ENTRY_ADDRESS", Pos{}, "ENTRY_ADDRESS"), Source: "kthena"},
		{Name: "WORKER_INDEX", Value: index, Source: "kthena"},
	}
}
