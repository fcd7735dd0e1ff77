package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestV1OptInAt07: VLLM_USE_V1=1 in vllm.env on 0.7.x runs the V1 engine
// (vllm.Release.EngineEraWithEnv), so the memory model charges V1's
// profile-run terms there as it does from 0.8.0: Mixtral-8x7B at TP 2 with
// 8,192 batched tokens sizes the fused-MoE caches for its batch, 8,192 ×
// top-k 2 × (3 × 7,168 + 4,096) × 2 B = 0.78125 GiB, and holds the compiled
// pieces' inputs; V0 (0.7.3 without the variable, or 0.8.0 with
// VLLM_USE_V1=0) charges neither.
func TestV1OptInAt07(t *testing.T) {
	m, err := catalog.LookupModel("mistralai/Mixtral-8x7B-v0.1")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("h100-sxm")
	build := func(version string, env map[string]string) *input.Input {
		in := &input.Input{Model: m, GPU: g, VLLMVersion: version, Layout: input.Layout{TP: 2, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 2}}
		util, batched, seqs := 0.9, 8192, 256
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 8192,
			MaxNumBatchedTokens: &batched, MaxNumSeqs: &seqs}); ds.HasErrors() {
			t.Fatal(ds)
		}
		in.Env = env
		return in
	}
	const workspace = 8192.0 * 2 * (3*7168 + 4096) * 2 / GiB
	for _, c := range []struct {
		name    string
		version string
		env     map[string]string
		v1      bool
	}{
		{"0.7.3 V0 default", "0.7.3", nil, false},
		{"0.7.3 VLLM_USE_V1=1", "0.7.3", map[string]string{"VLLM_USE_V1": "1"}, true},
		{"0.8.0 V1 default", "0.8.0", nil, true},
		{"0.8.0 VLLM_USE_V1=0", "0.8.0", map[string]string{"VLLM_USE_V1": "0"}, false},
	} {
		in := build(c.version, c.env)
		r := Estimate(in)
		got := r.Stages[0].Activation.MoEWorkspaceGiB
		pieces, _ := pieceInputs(in)
		switch {
		case c.v1 && math.Abs(got-workspace) > 1e-9:
			t.Errorf("%s: MoE workspace %.6f GiB, want %.6f", c.name, got, workspace)
		case c.v1 && pieces <= 0:
			t.Errorf("%s: no compiled pieces' inputs under V1", c.name)
		case !c.v1 && (got != 0 || pieces != 0):
			t.Errorf("%s: V0 charged V1 terms: workspace %.6f GiB, pieces %.6f", c.name, got, pieces)
		}
	}
}
