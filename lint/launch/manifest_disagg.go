package launch

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// disaggregatedSetRoles expands a DisaggregatedSet (kubernetes-sigs/lws,
// disaggregatedset.x-k8s.io; llm-d's pd-disaggregation and wide-ep-lws
// guides): each entry of spec.roles (prefill, decode, ...) becomes a
// LeaderWorkerSet of its own, so each is a deployment of its own whose pods
// get the LWS_* variables, expanded over leaderWorkerTemplate.size like a
// LeaderWorkerSet. The role's LeaderWorkerSet spec is roles[].spec in
// v1 and the role entry itself in v1alpha1. The set runs spec.slices
// (default 1) copies of the whole topology, each with the role's replicas
// (default 1) groups. The controller may add to the pods what the file
// does not show, so their environment is not taken as complete.
func disaggregatedSetRoles(doc *yaml.Node) []podRole {
	roles := get(doc, "spec", "roles")
	if roles == nil || roles.Kind != yaml.SequenceNode {
		return nil
	}
	slices := countOr(scalar(doc, "spec", "slices"), 1)
	var out []podRole
	for i, r := range roles.Content {
		name := scalar(r, "name")
		if name == "" {
			name = "role" + strconv.Itoa(i)
		}
		spec := get(r, "spec")
		if get(spec, "leaderWorkerTemplate") == nil {
			spec = r // v1alpha1: the role holds the LeaderWorkerSet fields
		}
		copies := 0
		if reps := countOr(scalar(spec, "replicas"), 1); reps > 0 && slices > 0 {
			copies = reps * slices
		}
		for _, p := range lwsSpecRoles(spec) {
			p.group, p.strict, p.copies = name, false, copies
			out = append(out, p)
		}
	}
	return out
}

// countOr reads a non-negative count, def when absent and -1 when not a
// literal number.
func countOr(v string, def int) int {
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
