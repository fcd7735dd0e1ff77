package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// TestBoundarySplits: the boundary splits of a multi-node spec, counted by
// hand. On 3 nodes of 8 GPUs the boundary is any of the 3 nodes and the
// prefill pool takes 1 to 7 of its GPUs: 3 × 7 = 21 splits, the prefill
// pool on the nodes before the boundary plus its share, the decode pool on
// the rest of the boundary plus the nodes after it. Nodes of 8, 8 and 4
// GPUs: 7 + 7 + 3 = 17. None on one node (sharedCandidates splits it), on
// Kubernetes (SPEC126 refuses a node both pools name), past
// maxBoundaryNodes, or with UseBoundaryNode off.
func TestBoundarySplits(t *testing.T) {
	d, _, _ := pdSpec(t, "pd/pd-boundary-3x8h100")
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	s := newPDSearch(d, base, own, nil)
	nodes := d.Spec.Hardware.Nodes
	type row struct {
		b, g     int
		pre, dec []int
	}
	var want []row
	for g := 1; g <= 7; g++ {
		want = append(want, row{0, g, []int{g}, []int{8 - g, 8, 8}})
	}
	for g := 1; g <= 7; g++ {
		want = append(want, row{1, g, []int{8, g}, []int{8 - g, 8}})
	}
	for g := 1; g <= 7; g++ {
		want = append(want, row{2, g, []int{8, 8, g}, []int{8 - g}})
	}
	got := s.boundaries(nodes)
	if len(got) != 21 || len(want) != 21 {
		t.Fatalf("%d boundary splits of 3 × 8 GPUs, want 21: %v", len(got), got)
	}
	for i, w := range want {
		sp := got[i]
		pre, dec := sp.hosts(nodes, spec.RolePrefill), sp.hosts(nodes, spec.RoleDecode)
		if sp.b != w.b || sp.g != w.g || !equalInts(pre, w.pre) || !equalInts(dec, w.dec) {
			t.Errorf("split %d: node %d, %d GPUs to prefill, hosts %v | %v; want node %d, %d, %v | %v", i, sp.b, sp.g, pre, dec, w.b, w.g, w.pre, w.dec)
		}
		if sum(pre)+sum(dec) != 24 {
			t.Errorf("split %d: %v + %v do not take the 24 GPUs", i, pre, dec)
		}
	}

	uneven := append([]spec.Node(nil), nodes...)
	uneven[2].GPUs = 4
	if n := len(s.boundaries(uneven)); n != 17 {
		t.Errorf("nodes of 8, 8, 4 GPUs: %d splits, want 7 + 7 + 3 = 17", n)
	}
	if n := len(s.boundaries(nodes[:1])); n != 0 {
		t.Errorf("one node: %d boundary splits, want none (sharedCandidates)", n)
	}
	many := make([]spec.Node, maxBoundaryNodes+1)
	for i := range many {
		many[i] = nodes[0]
	}
	if n := len(s.boundaries(many)); n != 0 {
		t.Errorf("%d nodes: %d boundary splits, want none past maxBoundaryNodes", len(many), n)
	}
	if n := len(s.boundaries(many[:maxBoundaryNodes])); n != maxBoundaryNodes*7 {
		t.Errorf("%d nodes: %d boundary splits, want %d", maxBoundaryNodes, n, maxBoundaryNodes*7)
	}
	kube := *s.src
	kube.Runtime.Kind = "kubernetes"
	k := *s
	k.src = &kube
	if n := len(k.boundaries(nodes)); n != 0 {
		t.Errorf("kubernetes: %d boundary splits, want none", n)
	}
	old := UseBoundaryNode
	UseBoundaryNode = false
	defer func() { UseBoundaryNode = old }()
	if n := len(s.boundaries(nodes)); n != 0 {
		t.Errorf("UseBoundaryNode off: %d boundary splits", n)
	}
}

// TestShareLayouts: a pool on 8 GPUs of one node and 4 of the boundary
// (12 GPUs) runs instances of 4, 2 or 1 GPUs (sizes dividing both), each
// inside a node. gpt-oss-120b (MoE, 64 heads) by hand, TP a power of two,
// DP inside an instance only with EP, EP only over more than one rank:
// 4 GPUs — TP 1 · DP 4 EP, TP 2 · DP 2 EP, TP 4, TP 4 EP (3 instances);
// 2 GPUs — TP 1 · DP 2 EP, TP 2, TP 2 EP (6); 1 GPU — TP 1 (12): 8,
// largest instances first, then TP ascending (layouts.Enumerate's order).
func TestShareLayouts(t *testing.T) {
	m, err := catalog.LookupModel("gpt-oss-120b")
	if err != nil {
		t.Fatal(err)
	}
	type lay struct {
		tp, dp, replicas int
		ep               bool
	}
	want := []lay{{1, 4, 3, true}, {2, 2, 3, true}, {4, 1, 3, false}, {4, 1, 3, true}, {1, 2, 6, true}, {2, 1, 6, false}, {2, 1, 6, true}, {1, 1, 12, false}}
	got := shareLayouts([]int{8, 4}, m)
	if len(got) != len(want) {
		t.Fatalf("%d layouts, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		l := got[i]
		if l.TP != w.tp || l.DP != w.dp || l.PP != 1 || l.EP != w.ep || l.ReplicaCount() != w.replicas || l.MultiNode() {
			t.Errorf("layout %d: TP %d DP %d PP %d EP %v × %d (multi-node %v), want TP %d DP %d EP %v × %d", i, l.TP, l.DP, l.PP, l.EP, l.ReplicaCount(), l.MultiNode(), w.tp, w.dp, w.ep, w.replicas)
		}
	}
	// 8 and 3 GPUs: only 1-GPU instances divide both.
	if got := shareLayouts([]int{8, 3}, m); len(got) != 1 || got[0].ReplicaCount() != 11 {
		t.Errorf("8 + 3 GPUs: %+v, want 11 × TP 1", got)
	}
}

// TestPDBoundaryNode: on 3 × 8 H100 plan's P/D candidates include pools
// sharing one boundary node. Each such candidate is what resolve makes of
// it (NodeShare: prefill first on the boundary), shares exactly one node,
// takes every GPU of the 24, is priced as check prices it (not same-node:
// the router pairs any prefill instance with any decode one, hand-offs
// cross nodes, resolve.Disaggregated.SameNode), and generate takes it;
// and a boundary split's applied spec validates as the same split.
func TestPDBoundaryNode(t *testing.T) {
	d, path, src := pdSpec(t, "pd/pd-boundary-3x8h100")
	_, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	bounds := map[string]bool{}
	n := 0
	var first *Settings
	for _, e := range pdBounded(t, d) {
		p := e.Settings.PD
		shared := sharedNames(p)
		if len(shared) == 0 {
			continue
		}
		n++
		if len(shared) != 1 {
			t.Fatalf("%s: shares %v, want one boundary node", e.Settings, shared)
		}
		dep, err := Resolve(d, e.Settings)
		if err != nil {
			t.Fatalf("%s: resolve refuses a candidate plan offers: %v", e.Settings, err)
		}
		if e.pd.sameNode != dep.PD.SameNode() || e.pd.sameNode {
			t.Errorf("%s: plan prices same-node %v, check %v; want the NICs", e.Settings, e.pd.sameNode, dep.PD.SameNode())
		}
		g := p.Prefill.Instances * p.Prefill.TP * p.Prefill.PP * p.Prefill.DP
		h := p.Decode.Instances * p.Decode.TP * p.Decode.PP * p.Decode.DP
		if g+h != 24 || e.GPUs != 24 {
			t.Errorf("%s: %d + %d GPUs (counted %d), want all 24", e.Settings, g, h, e.GPUs)
		}
		pre, dec := dep.PD.Roles[0].Deployment, dep.PD.Roles[1].Deployment
		ps, ds := pre.Shares[len(pre.Shares)-1], dec.Shares[0]
		full := 8 * (len(p.Prefill.Nodes) - 1)
		if !ps.Shared || ps.FirstGPU != 0 || ps.GPUs != g-full || !ds.Shared || ds.FirstGPU != g-full || ds.GPUs != 8-(g-full) {
			t.Errorf("%s: boundary shares %+v | %+v; want prefill GPUs 0..%d, decode the rest", e.Settings, ps, ds, g-full-1)
		}
		if err := Verify(path, src, own, e.Settings); err != nil && !strings.Contains(err.Error(), "[SPEC128]") {
			t.Errorf("%s: generate would refuse it: %v", e.Settings, err)
		}
		bounds[shared[0]] = true
		if first == nil {
			first = &e.Settings
		}
	}
	if n == 0 || len(bounds) < 2 {
		t.Fatalf("%d boundary candidates, on nodes %v: want several, at more than one boundary", n, bounds)
	}
	// A boundary split applied validates as the same split. (The plan's
	// best is no longer one: with FP8 KV tried, whole-node 4P+1D splits
	// rank first.)
	out, err := Apply(src, own, *first)
	if err != nil {
		t.Fatal(err)
	}
	dep, ds, err := validate.Bytes(path, out)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%s does not validate: %v %v\n%s", first, err, ds, out)
	}
	if got := resolve.SharedNodes(dep.Spec); len(got) != 1 {
		t.Errorf("written spec shares %v, want one node", got)
	}
}

func sharedNames(p *PDSettings) []string {
	var out []string
	for _, n := range p.Prefill.Nodes {
		if containsName(p.Decode.Nodes, n) {
			out = append(out, n)
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}
