package plan

import (
	"fmt"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/vlaunch/vlaunch/spec"
)

// applyPD writes a P/D candidate into the spec's root mapping: the
// disaggregation block (its pools replaced key by key, so a pool's other
// engine overrides, the connector, transport and router stay; created with
// NIXL and the vLLM router when absent), no top-level parallelism, and the
// weights, KV-cache dtype and ports where they change. What it writes is
// what Settings.toSpec evaluated (PDSettings.withPD).
func applyPD(root *yaml.Node, own, s Settings, notes *[]string) {
	remove(root, "parallelism")
	if s.Weights != own.Weights {
		setScalar(mapping(root, "model"), "weights", s.Weights, "!!str")
	}
	if s.KVCacheDType != own.KVCacheDType {
		setScalar(mapping(root, "vllm"), "kv_cache_dtype", s.KVCacheDType, "!!str")
	}
	p := s.PD
	if p.EnginePort > 0 {
		movePort(mapping(root, "vllm"), strconv.Itoa(p.EnginePort),
			fmt.Sprintf("the P/D router takes %d, the port clients used, and forwards to the engines", p.RouterPort), notes)
	}
	fresh := lookup(root, "disaggregation") == nil
	g := mapping(root, "disaggregation")
	if fresh {
		setScalar(g, "connector", pdConnector, "!!str")
	}
	setPool(mapping(g, spec.RolePrefill), p.Prefill)
	setPool(mapping(g, spec.RoleDecode), p.Decode)
	r := mapping(g, "router")
	if fresh {
		setScalar(r, "kind", spec.RouterKindVLLM, "!!str")
		r.Style = yaml.FlowStyle
	}
	kind := lookup(r, "kind")
	llmd := kind != nil && kind.Value == spec.RouterKindLLMD // runs on no node of the spec's (SPEC126)
	if node := lookup(r, "node"); !llmd && (node == nil || (!gpuLessNodes(root)[node.Value] && !containsName(p.Prefill.Nodes, node.Value) && !containsName(p.Decode.Nodes, node.Value))) {
		setScalar(r, "node", p.Prefill.Nodes[0], "!!str")
	}
	if p.RouterPort > 0 {
		setScalar(r, "port", strconv.Itoa(p.RouterPort), "!!int")
	}
}

// setPool writes one pool: instances, nodes and layout (flow style, as the
// P/D example writes them) and the engine overrides plan varies (removed
// when the candidate takes the top-level value).
func setPool(m *yaml.Node, p PoolSettings) {
	setScalar(m, "instances", strconv.Itoa(p.Instances), "!!int")
	nodes := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, n := range p.Nodes {
		nodes.Content = append(nodes.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: n})
	}
	if old := lookup(m, "nodes"); old != nil {
		nodes.HeadComment, nodes.LineComment = old.HeadComment, old.LineComment
		*old = *nodes
	} else {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "nodes"}, nodes)
	}
	fresh := lookup(m, "parallelism") == nil
	par := mapping(m, "parallelism")
	if fresh {
		par.Style = yaml.FlowStyle
	}
	setScalar(par, "tensor", strconv.Itoa(p.TP), "!!int")
	setScalar(par, "pipeline", strconv.Itoa(p.PP), "!!int")
	setScalar(par, "data", strconv.Itoa(p.DP), "!!int")
	setScalar(par, "expert", strconv.FormatBool(p.EP), "!!bool")
	v := lookup(m, "vllm")
	want := p.All2All != "" || p.MaxNumSeqs > 0 || p.MaxNumBatchedTokens > 0
	if v == nil && !want {
		return
	}
	if v == nil {
		v = mapping(m, "vllm")
		v.Style = yaml.FlowStyle
	} else {
		v = mapping(m, "vllm")
	}
	setOrRemove(v, "all2all_backend", p.All2All, "!!str")
	setOrRemove(v, "max_num_seqs", intWord(p.MaxNumSeqs), "!!int")
	setOrRemove(v, "max_num_batched_tokens", intWord(p.MaxNumBatchedTokens), "!!int")
	if len(v.Content) == 0 {
		remove(m, "vllm")
	}
}

func intWord(v int) string {
	if v <= 0 {
		return ""
	}
	return strconv.Itoa(v)
}

// setOrRemove sets key, or removes it for "".
func setOrRemove(m *yaml.Node, key, value, tag string) {
	if value == "" {
		remove(m, key)
		return
	}
	setScalar(m, key, value, tag)
}

// removePD drops the disaggregation block for a colocated candidate; the
// engines take over the router's port (spec.DefaultRouterPort when the
// block gives none), so clients keep talking to the port they used.
func removePD(root *yaml.Node, notes *[]string) {
	port := strconv.Itoa(spec.DefaultRouterPort)
	if p := lookup(lookup(lookup(root, "disaggregation"), "router"), "port"); p != nil && p.Kind == yaml.ScalarNode {
		port = p.Value
	}
	remove(root, "disaggregation")
	dropGPULessNodes(root, notes)
	movePort(mapping(root, "vllm"), port, port+" was the P/D router's port, the one clients use; the colocated engine now serves them there", notes)
}

// movePort sets vllm.port (v) to port and, when that moves it, says so in
// notes and on the port's line, with why. A spec without vllm.port runs
// its engines on spec.Defaults.Port.
func movePort(v *yaml.Node, port, why string, notes *[]string) {
	old := strconv.Itoa(spec.Defaults.Port)
	if n := lookup(v, "port"); n != nil && n.Kind == yaml.ScalarNode {
		old = n.Value
	}
	setScalar(v, "port", port, "!!int")
	if old == port {
		return
	}
	*notes = append(*notes, fmt.Sprintf("vllm.port %s → %s: %s", old, port, why))
	if n := lookup(v, "port"); n.LineComment == "" {
		n.LineComment = "# was " + old + "; " + why + " (vlaunch plan --apply)"
	}
}

// gpuLessNodes are the names of hardware.nodes entries with gpus: 0 (a P/D
// router's CPU-only host, the only node validate lets have none).
func gpuLessNodes(root *yaml.Node) map[string]bool {
	out := map[string]bool{}
	nodes := lookup(lookup(root, "hardware"), "nodes")
	if nodes == nil || nodes.Kind != yaml.SequenceNode {
		return out
	}
	for _, n := range nodes.Content {
		name, gpus := lookup(n, "name"), lookup(n, "gpus")
		if name != nil && gpus != nil && name.Kind == yaml.ScalarNode && gpus.Kind == yaml.ScalarNode && gpus.Value == "0" {
			out[name.Value] = true
		}
	}
	return out
}

// dropGPULessNodes removes the nodes without GPUs from hardware.nodes when
// a colocated candidate replaces the pools: the CPU-only host ran only the
// P/D router, which a colocated deployment does not have, and validate
// refuses a node with 0 GPUs anywhere else (SPEC005).
func dropGPULessNodes(root *yaml.Node, notes *[]string) {
	nodes := lookup(lookup(root, "hardware"), "nodes")
	drop := gpuLessNodes(root)
	if len(drop) == 0 {
		return
	}
	kept := nodes.Content[:0]
	for _, n := range nodes.Content {
		if name := lookup(n, "name"); name != nil && drop[name.Value] {
			*notes = append(*notes, fmt.Sprintf("hardware.nodes: %s removed: it had no GPU and ran only the P/D router, which a colocated deployment has not", name.Value))
			continue
		}
		kept = append(kept, n)
	}
	nodes.Content = kept
}
