package launch

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A SkyPilot task YAML (docs.skypilot.co, "YAML spec") runs its `run:`
// script on every node of the cluster (num_nodes of them) with the task's
// `envs:` and SkyPilot's own variables: SKYPILOT_NODE_RANK (0 on the head
// node), SKYPILOT_NODE_IPS (one address per line, the head first),
// SKYPILOT_NUM_NODES and SKYPILOT_NUM_GPUS_PER_NODE; with
// `resources.image_id: docker:IMAGE` the script runs in that image.

// skypilotTask reports whether doc is a SkyPilot task: a top-level `run`
// script next to the task's own keys.
func skypilotTask(doc *yaml.Node) bool {
	run := get(doc, "run")
	if run == nil || run.Kind != yaml.ScalarNode || scalar(doc, "kind") != "" {
		return false
	}
	return get(doc, "resources") != nil || get(doc, "num_nodes") != nil || get(doc, "envs") != nil || get(doc, "setup") != nil
}

// skypilot walks a task's run script once, with the rank unknown: the
// branches on SKYPILOT_NODE_RANK are the nodes' roles (Arms), each node its
// own host.
func (fe *frontEnd) skypilot(src *source, doc *yaml.Node) {
	nodes := 1
	if n, err := strconv.Atoi(scalar(doc, "num_nodes")); err == nil && n > 0 {
		nodes = n
	}
	gpus := skypilotGPUs(scalar(doc, "resources", "accelerators"))
	env := []EnvVar{
		{Name: "SKYPILOT_NODE_RANK", Value: unknownValue("$SKYPILOT_NODE_RANK", Pos{}, "SKYPILOT_NODE_RANK"), Source: "skypilot"},
		{Name: "SKYPILOT_NODE_IPS", Value: unknownValue("$SKYPILOT_NODE_IPS", Pos{}, "SKYPILOT_NODE_IPS"), Source: "skypilot"},
		{Name: "SKYPILOT_NUM_NODES", Value: knownValue(strconv.Itoa(nodes), Pos{}), Source: "skypilot"},
	}
	if gpus > 0 {
		env = append(env, EnvVar{Name: "SKYPILOT_NUM_GPUS_PER_NODE", Value: knownValue(strconv.Itoa(gpus), Pos{}), Source: "skypilot"})
	}
	if m := get(doc, "envs"); m != nil && m.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			val := unknownValue("$"+k.Value, Pos{Line: k.Line, Col: k.Column}, k.Value) // null: given at launch (--env)
			if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
				val = scalarValue(src, v)
			}
			env = append(env, EnvVar{Name: k.Value, Value: val, Pos: Pos{Line: k.Line, Col: k.Column}, Source: "skypilot envs"})
		}
	}
	sc := containerScope(env)
	ctx := walkCtx{}
	if img, ok := strings.CutPrefix(scalar(doc, "resources", "image_id"), "docker:"); ok {
		c := &containerCtx{image: img, version: imageVersion(img), env: env, gpus: gpus, gpuSrc: "resources.accelerators", envOpen: true}
		// SkyPilot runs the task's container with the host's network and IPC
		// namespaces, as a VM's processes would see them.
		c.info = Container{Runtime: "docker", Pos: Pos{Line: doc.Line, Col: doc.Column}, HostNetwork: true, HostIPC: true, HasShm: true}
		ctx.container = c
	}
	w := &walker{fe: fe, src: src, sc: sc, ctx: ctx}
	w.subScript(scalarValue(src, get(doc, "run")), sc, ctx)
}

// skypilotGPUs reads the per-node count of `accelerators: H100:8` (1 when
// the count is left out; 0 when there is none or a set of choices).
func skypilotGPUs(acc string) int {
	if acc == "" || strings.ContainsAny(acc, "{[,") {
		return 0
	}
	_, n, ok := strings.Cut(acc, ":")
	if !ok {
		return 1
	}
	g, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil {
		return 0
	}
	return g
}
