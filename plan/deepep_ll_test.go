package plan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestPlanDropsDeepEPLLAboveQPDepth: newuser40's Qwen3.5-397B on 4×8 B200
// (vLLM 0.22.1, DP 32 + EP), asking for deepep_high_throughput. Plan listed
// deepep_low_latency candidates at max_num_batched_tokens 2048 and more,
// which DeepEP's queue-depth assert refuses (NVSHMEM_QP_DEPTH 1024 holds
// at most 511 tokens per rank). No resolved candidate may run
// deepep_low_latency — named or `auto`'s choice — above 511 tokens, the
// refusal is counted under its reason, and deepep_low_latency candidates at
// vLLM's default (256) remain.
func TestPlanDropsDeepEPLLAboveQPDepth(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "newuser40", "02-qwen3.5-397b-nvfp4-4x8b200-dpep.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// deepep_high_throughput keeps vLLM's 8192-token default, so plan
	// tries 2048, 4096 and 16384 tokens with every backend.
	src = []byte(strings.Replace(string(src), "all2all_backend: deepep_low_latency", "all2all_backend: deepep_high_throughput", 1))
	d, ds, err := validate.Bytes("spec.yaml", src)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	base, own, err := colocatedBase(d)
	if err != nil {
		t.Fatal(err)
	}
	var st Stats
	cands := distinct(base, own, NewSpace(base).Enumerate(base), &st)
	kept := 0
	for _, e := range cands {
		dep := e.in.Resolved()
		if dep.Engine.All2All.Value != vllm.BackendDeepEPLowLatency {
			continue
		}
		if tok := dep.Engine.MaxNumBatchedTokens.Value; tok > 511 && !e.Own {
			t.Errorf("candidate %s runs deepep_low_latency (%s) at %d tokens", e.Settings.String(), e.Settings.All2All, tok)
		}
		kept++
	}
	if kept == 0 {
		t.Error("no deepep_low_latency candidate left at all")
	}
	refused := 0
	for _, r := range st.Reasons {
		if strings.Contains(r.Why, "deepep_low_latency with max_num_batched_tokens above 511") {
			refused += r.Count
		}
	}
	if refused == 0 {
		t.Errorf("no candidate refused for DeepEP's queue depth: %+v", st.Reasons)
	}
}
