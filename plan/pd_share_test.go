package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// TestPDSharedNode: on a one-node spec (8 × H100) plan now offers P/D
// candidates with both pools on the node. Each is what resolve makes of
// it — resolve's NodeShare splits the node: prefill from GPU 0 on its
// instances' GPUs, decode from the next GPU, within the node's 8 — and
// check's model prices it as same-node (Disaggregated.SameNode); the
// search tries several splits of the node; no P/D candidate fails Verify
// (validation and the generator's plan: what generate takes) over its
// split, every listed one passes it, and applied is one node's P/D
// deployment.
func TestPDSharedNode(t *testing.T) {
	d, path, src := pdSpec(t, "pd/pd-1node-h100")
	if why := pdNotTried(d); why != "" {
		t.Fatalf("one node of 8 GPUs: P/D not tried: %s", why)
	}
	all := pdBounded(t, d)
	_, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 {
		t.Fatal("no P/D candidate on one node")
	}
	splits := map[int]bool{}
	for _, e := range all {
		p := e.Settings.PD
		if strings.Join(p.Prefill.Nodes, ",") != "node0" || strings.Join(p.Decode.Nodes, ",") != "node0" {
			t.Fatalf("%s: pools not both on node0", e.Settings)
		}
		if !e.pd.sameNode {
			t.Errorf("%s: not priced as a same-node hand-off", e.Settings)
		}
		dep, err := Resolve(d, e.Settings)
		if err != nil {
			t.Fatalf("%s: resolve refuses a candidate plan offers: %v", e.Settings, err)
		}
		if !dep.PD.SameNode() {
			t.Errorf("%s: resolve does not see one node", e.Settings)
		}
		pre, dec := dep.PD.Roles[0].Deployment, dep.PD.Roles[1].Deployment
		g := p.Prefill.Instances * p.Prefill.TP * p.Prefill.PP * p.Prefill.DP
		h := p.Decode.Instances * p.Decode.TP * p.Decode.PP * p.Decode.DP
		ps, ds := pre.Shares[0], dec.Shares[0]
		if !ps.Shared || ps.FirstGPU != 0 || ps.GPUs != g || !ds.Shared || ds.FirstGPU != g || ds.GPUs != h || g+h > 8 {
			t.Errorf("%s: shares %+v, %+v; want prefill GPUs 0..%d, decode from %d, %d GPUs", e.Settings, ps, ds, g-1, g, h)
		}
		// Generate takes every pair but those vLLM 0.11.0's NIXL cannot
		// pair (a prefill TP above decode's, SPEC128, as on whole nodes:
		// plan's listing verifies and skips them); never one for the split.
		if err := Verify(path, src, own, e.Settings); err != nil && !strings.Contains(err.Error(), "[SPEC128]") {
			t.Errorf("%s: generate would refuse it: %v", e.Settings, err)
		}
		if e.GPUs != g+h {
			t.Errorf("%s: %d GPUs counted, the pools take %d", e.Settings, e.GPUs, g+h)
		}
		splits[g] = true
	}
	if len(splits) < 3 {
		t.Errorf("prefill GPU counts tried %v: want several splits of the node", splits)
	}
	r := Plan(d, Options{Seed: 1, File: path, Source: src, Top: 10})
	applied := 0
	for _, c := range r.Top {
		if c.Settings.PD == nil {
			continue
		}
		if err := Verify(path, src, r.OwnSettings, c.Settings); err != nil {
			t.Errorf("#%d listed, but generate refuses it: %v", c.Rank, err)
		}
		out, err := Apply(src, r.OwnSettings, c.Settings)
		if err != nil {
			t.Fatal(err)
		}
		dep, ds, err := validate.Bytes(path, out)
		if err != nil || ds.HasErrors() {
			t.Fatalf("#%d does not validate: %v %v\n%s", c.Rank, err, ds, out)
		}
		if dep.PD == nil || !dep.PD.SameNode() {
			t.Errorf("#%d: written spec is not one node's P/D", c.Rank)
		}
		applied++
	}
	if applied == 0 {
		t.Errorf("no P/D candidate in the top 10: %+v", r.Top)
	}
}

// TestPDSharedNodeSplitIsResolves: a pair whose pools do not fit on the
// node together (prefill TP 4, decode two TP 4 instances: 12 of 8 GPUs)
// is refused by resolve's split, and plan keeps no such pair.
func TestPDSharedNodeSplitIsResolves(t *testing.T) {
	d, _, _ := pdSpec(t, "pd/pd-1node-h100")
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	s := newPDSearch(d, base, own, nil)
	pool := func(inst, tp int) PoolSettings {
		return PoolSettings{Nodes: []string{"node0"}, Instances: inst, TP: tp, PP: 1, DP: 1}
	}
	if p, q, same := s.pair(own.dtype(), &PDSettings{Prefill: pool(1, 4), Decode: pool(1, 4)}); p.err != nil || q.err != nil || !same {
		t.Fatalf("1 × TP 4 + 1 × TP 4 on 8 GPUs: %v %v same node %v", p.err, q.err, same)
	}
	p, _, _ := s.pair(own.dtype(), &PDSettings{Prefill: pool(1, 4), Decode: pool(2, 4)})
	if p.err == nil || !strings.Contains(p.err.Error(), "do not fit") {
		t.Errorf("12 GPUs on 8: %v, want resolve's refusal", p.err)
	}
}

// TestPDSharedNodeNotTried: one node on Kubernetes (resolve refuses a node
// both pools name there, SPEC126) and one node of one GPU get no P/D
// candidates, and say why.
func TestPDSharedNodeNotTried(t *testing.T) {
	d, _, _ := pdSpec(t, "pd/pd-1node-h100")
	k := *d
	rt := k.Runtime
	rt.Kind = "kubernetes"
	k.Runtime = rt
	if got := pdNotTried(&k); !strings.Contains(got, "Kubernetes") {
		t.Errorf("kubernetes: %q", got)
	}
	d, _, _ = example(t, "qwen3-30b-a3b-1xh100")
	if got := pdNotTried(d); !strings.Contains(got, "one node of 1 GPU") {
		t.Errorf("one GPU: %q", got)
	}
}
