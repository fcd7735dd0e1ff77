package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"gopkg.in/yaml.v3"
)

// checkLayout checks tensor x pipeline x data (x replicas) against the
// GPUs the nodes have, and that each tensor x pipeline group (one engine)
// fits the nodes.
func checkLayout(c *checker) {
	par := c.d.Parallelism
	if par.Auto || !c.ok(p("parallelism"), p("hardware", "nodes")) {
		return
	}
	tp, pp, dp, r := par.Tensor, par.Pipeline, par.Data, par.ReplicaCount()
	total := c.d.TotalGPUs()
	if tp < 1 || pp < 1 || dp < 1 || total < 1 {
		return
	}
	switch {
	case c.sharesNode && tp*pp*dp*r <= total:
		// Part of a shared node is the other pool's: resolve's NodeShare
		// checks that the pools' GPUs fit it (SPEC126).
	case r > 1 && tp*pp*dp*r != total:
		c.errorf(CodeLayout, p("parallelism", "data"), c.layoutHint(tp, pp, r, total),
			"%s x tensor x pipeline x data = %d x %d x %d x %d = %d GPUs, but the nodes have %d GPUs", c.replicasKey(), r, tp, pp, dp, r*tp*pp*dp, total)
	case tp*pp*dp*r != total:
		c.errorf(CodeLayout, p("parallelism", "data"), c.layoutHint(tp, pp, r, total),
			"tensor x pipeline x data = %d x %d x %d = %d GPUs, but the nodes have %d GPUs", tp, pp, dp, tp*pp*dp, total)
	}
	before := len(c.ds)
	checkNodeFit(c, tp*pp)
	if len(c.ds) == before && tp*pp*dp*r == total && !c.sharesNode {
		checkPlacement(c)
	}
}

// checkPlacement reports a layout the nodes cannot hold the way vlaunch
// places it (resolve.PlacementProblem, the rule generate's GEN002 applies),
// e.g. replicas that do not fit whole on nodes of unlike GPU counts: the
// arithmetic above passes, and validate must not accept what generate
// refuses.
func checkPlacement(c *checker) {
	fe := resolve.PlacementProblem(c.d)
	if fe == nil && c.relOK {
		fe = resolve.SpanningDPProblem(c.d, c.rel)
	}
	if fe == nil {
		return
	}
	c.errorf(CodeLayout, fieldPath(fe.Path), fe.Hint, "%s", fe.Msg)
}

// fieldPath splits a dotted path with indices ("hardware.nodes[0].gpus")
// into its parts.
func fieldPath(s string) []string {
	s = strings.NewReplacer("[", ".", "]", "").Replace(s)
	return strings.Split(s, ".")
}

// replicasKey is the spec's name for the number of engines: a colocated
// spec's parallelism.replicas, a P/D pool's instances.
func (c *checker) replicasKey() string {
	if c.roleName != "" {
		return "instances"
	}
	return "replicas"
}

// layoutHint is SPEC102's hint: how to use every GPU, unless a key of the
// parallelism block is a likely typo of a layout key ("tensr: 2"): the
// product then read that key as its default, and "set data: 8" would point
// away from the fix (newuser40 finding 6), so the hint names the typo.
func (c *checker) layoutHint(tp, pp, r, total int) string {
	if typos, meant := c.layoutTypos(); len(typos) > 0 {
		return fmt.Sprintf("%s in parallelism is likely a typo of %s: fix that first (the product above took %s's default)",
			strings.Join(typos, ", "), strings.Join(meant, ", "), strings.Join(meant, ", "))
	}
	return layoutHint(tp, pp, r, total, c.replicasKey())
}

// layoutCountKeys are the keys the layout product reads, as a colocated
// spec or a P/D pool writes them.
var layoutCountKeys = []string{"tensor", "pipeline", "data", "replicas", "instances"}

// layoutTypos lists the keys of the parallelism block (the pool's, in a
// pool's checker) that are not layout keys but likely misspell one
// (quoted, as written), and the keys they likely mean.
func (c *checker) layoutTypos() (typos, meant []string) {
	n, ok := spec.NodeAt(c.d.Root, c.docPath(p("parallelism")), false)
	if !ok || n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if slices.Contains(layoutCountKeys, k) || k == "expert" {
			continue
		}
		if s := catalog.Suggest(k, layoutCountKeys); len(s) > 0 {
			typos, meant = append(typos, fmt.Sprintf("%q", k)), append(meant, s[0])
		}
	}
	return typos, meant
}

// layoutHint says how to use every GPU; rkey names the replica count as
// the spec writes it (replicasKey).
func layoutHint(tp, pp, r, total int, rkey string) string {
	if g := tp * pp * r; total%g == 0 {
		return fmt.Sprintf("set `data: %d` to use every GPU, or change the nodes' `gpus`", total/g)
	}
	if r > 1 {
		return fmt.Sprintf("%s x tensor x pipeline = %d does not divide the %d GPUs; change %s/tensor/pipeline or the nodes' `gpus`", rkey, tp*pp*r, total, rkey)
	}
	return fmt.Sprintf("tensor x pipeline = %d does not divide the %d GPUs; change tensor/pipeline or the nodes' `gpus`", tp*pp, total)
}

// checkNodeFit: vLLM places each data-parallel rank's tensor x pipeline
// group on consecutive GPUs. A group that fits in a node must tile the node
// exactly; a group that spans nodes needs equal nodes it covers exactly.
func checkNodeFit(c *checker, group int) {
	nodes := c.d.Hardware.Nodes
	first := 0 // the first node with GPUs (a router's CPU-only host has none)
	for first < len(nodes)-1 && nodes[first].GPUs <= 0 {
		first++
	}
	for i, n := range nodes {
		switch {
		case n.GPUs <= 0:
		case group <= n.GPUs && n.GPUs%group != 0:
			c.errorf(CodeNodeFit, p("hardware", "nodes", i, "gpus"), "make every node's gpus a multiple of tensor x pipeline",
				"node %q has %d GPUs, not a multiple of tensor x pipeline = %d: %d GPUs would be left over", n.Name, n.GPUs, group, n.GPUs%group)
		case group > n.GPUs && group%n.GPUs != 0:
			c.errorf(CodeNodeFit, p("hardware", "nodes", i, "gpus"), "a group spanning nodes must cover whole nodes",
				"tensor x pipeline = %d spans nodes but is not a multiple of node %q's %d GPUs", group, n.Name, n.GPUs)
		case group > n.GPUs && n.GPUs != nodes[first].GPUs:
			c.errorf(CodeNodeFit, p("hardware", "nodes", i, "gpus"), "give every node the same number of GPUs",
				"tensor x pipeline = %d spans nodes, so all nodes need the same GPU count; node %q has %d, node %q has %d",
				group, n.Name, n.GPUs, nodes[first].Name, nodes[first].GPUs)
		}
	}
}

// checkTensorHeads: vLLM refuses a tensor size that does not split the
// model's query heads evenly, or its KV heads evenly or by replication
// (catalog.Model.TPSplitProblem, the one place the rule lives).
func checkTensorHeads(c *checker) {
	par := c.d.Parallelism
	if par.Auto || c.model == nil || !c.ok(p("parallelism")) {
		return
	}
	tp := par.Tensor
	problem := c.model.TPSplitProblem(tp)
	if problem == "" {
		return
	}
	c.errorf(CodeTPHeads, p("parallelism", "tensor"), "use a tensor size vLLM accepts for this model ("+joinInts(c.model.TPDivisors(64))+"), and pipeline or data parallelism for the rest",
		"tensor = %d cannot split %s's attention (%d query heads, %d KV heads): vLLM refuses to start (%q)",
		tp, modelLabel(c), c.model.NumHeads, c.model.NumKVHeads, problem)
}

// checkBlockSplit: vLLM refuses a layout whose tensor (or, for routed
// experts, TP × DP) split leaves a rank a shard of the checkpoint's
// block-quantized weights that is not whole blocks (resolve.Layout.
// BlockSplitProblem over catalog.Model.BlockSplitProblem, the one place the
// rule lives; a converted copy at model.path has no blocks).
func checkBlockSplit(c *checker) {
	par := c.d.Parallelism
	if par.Auto || c.model == nil || !c.ok(p("parallelism")) || c.model.TPSplitProblem(par.Tensor) != "" {
		return // SPEC123 already refuses a tensor size that cannot split the heads
	}
	t, err := resolve.ResolveDTypes(c.model, c.d.Model.Weights, "auto")
	if err != nil {
		return // the weights' own finding says why
	}
	l := resolve.Layout{TP: par.Tensor, DP: max(par.Data, 1), EP: par.Expert}
	problem := l.BlockSplitProblem(c.model, t.FromCheckpoint)
	if problem == "" {
		return
	}
	c.errorf(CodeBlockSplit, p("parallelism", "tensor"), blockSplitHint(c, l),
		"tensor = %d, data = %d, expert = %t splits %s's weights, quantized in %d × %d blocks, into partial blocks: vLLM refuses to start (%q)",
		l.TP, l.DP, l.EP, modelLabel(c), c.model.Quant.WeightBlockSize[0], c.model.Quant.WeightBlockSize[1], problem)
}

// blockSplitHint names what vLLM accepts instead of l for the checkpoint's
// blocks: expert parallelism when whole experts fix it, and the tensor
// sizes that split both the heads and the blocks with the spec's data and
// expert settings.
func blockSplitHint(c *checker, l resolve.Layout) string {
	var parts []string
	withEP := l
	withEP.EP = true
	if !l.EP && c.model.IsMoE() && withEP.BlockSplitProblem(c.model, true) == "" {
		parts = append(parts, "set `expert: true` (each rank then holds whole experts)")
	}
	var tps []int
	for _, tp := range c.model.TPDivisors(64) {
		alt := l
		alt.TP = tp
		if alt.BlockSplitProblem(c.model, true) == "" {
			tps = append(tps, tp)
		}
	}
	if len(tps) > 0 {
		parts = append(parts, fmt.Sprintf("use a tensor size that keeps whole blocks with data = %d, expert = %t (%s) and pipeline or data parallelism for the rest", l.DP, l.EP, joinInts(tps)))
	}
	if len(parts) == 0 {
		return "use fewer ranks per engine: pipeline parallelism or independent replicas"
	}
	return strings.Join(parts, ", or ")
}

// joinInts lists numbers for a hint.
func joinInts(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fmt.Sprint(n)
	}
	return strings.Join(out, ", ")
}

// checkExpert rejects expert parallelism for a model without routed experts.
func checkExpert(c *checker) {
	if !c.d.Parallelism.Expert || c.model == nil || c.model.IsMoE() {
		return
	}
	c.errorf(CodeExpert, p("parallelism", "expert"), "remove `expert: true`; dense layers are split with tensor or pipeline parallelism",
		"expert parallel needs a mixture-of-experts model; %s is dense (no routed experts)", modelLabel(c))
}

func modelLabel(c *checker) string {
	if c.model.ID != "" {
		return c.model.ID
	}
	return c.model.Architecture
}
