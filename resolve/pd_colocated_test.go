package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// qa43 F12: DeepSeek-R1 wide-EP P/D on 4 × 8 H200 (prefill DP 16 with
// deepep_high_throughput and gpu_memory_utilization 0.75, decode DP 16 with
// deepep_low_latency, max_num_seqs 128 and its own env). The colocated
// comparison ran the decode pool's engine: low-latency kernels, whose
// batched-DP budget is 256 tokens, on every prompt. It runs the spec's
// top-level settings (enable_eplb, 32 redundant experts), the overrides
// both pools share (none here), and the prefill pool's backend in place of
// the decode pool's decode-only one; it says so.
func TestColocatedRunsTheTopLevelEngine(t *testing.T) {
	d := mustResolve(t, example(t, "deepseek-r1-pd-wideep-32xh200.yaml"))
	c, err := d.Colocated()
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Engine.All2All.Value; got != vllm.BackendDeepEPHighThroughput {
		t.Errorf("colocated all2all %q, want the prefill pool's %s", got, vllm.BackendDeepEPHighThroughput)
	}
	if n := c.Engine.MaxNumSeqs.Value; n == 128 {
		t.Errorf("colocated max_num_seqs %d: the decode pool's override", n)
	}
	if c.Spec.VLLM.GPUMemoryUtilization != nil && *c.Spec.VLLM.GPUMemoryUtilization == 0.75 {
		t.Error("colocated gpu_memory_utilization 0.75: the prefill pool's override")
	}
	if _, ok := c.Spec.VLLM.Env["VLLM_MOE_DP_CHUNK_SIZE"]; ok {
		t.Error("colocated env carries the decode pool's VLLM_MOE_DP_CHUNK_SIZE")
	}
	if !c.Spec.VLLM.EnableEPLB || c.Spec.VLLM.NumRedundantExperts != 32 {
		t.Errorf("colocated lost the top-level EPLB settings: %+v", c.Spec.VLLM)
	}
	if c.Layout.DP != 32 || !c.Layout.EP {
		t.Errorf("colocated layout %+v, want DP 32 with EP (the decode pool's scaled to every GPU)", c.Layout)
	}
	if note := d.ColocatedBackendNote(); note == "" {
		t.Error("no note says the backend is the prefill pool's")
	}
}

// An override both pools set alike is the deployment's choice, and the
// colocated engine keeps it; a backend the top level names is kept.
func TestColocatedKeepsSharedOverrides(t *testing.T) {
	s := example(t, "deepseek-r1-pd-wideep-32xh200.yaml")
	kv, seqs := "fp8", 64
	s.Disaggregation.Prefill.VLLM.KVCacheDType, s.Disaggregation.Decode.VLLM.KVCacheDType = &kv, &kv
	s.Disaggregation.Prefill.VLLM.MaxNumSeqs, s.Disaggregation.Decode.VLLM.MaxNumSeqs = &seqs, &seqs
	s.VLLM.All2AllBackend = vllm.BackendAllgatherReducescatter
	d := mustResolve(t, s)
	c, err := d.Colocated()
	if err != nil {
		t.Fatal(err)
	}
	if c.Spec.VLLM.KVCacheDType != "fp8" || c.Engine.MaxNumSeqs.Value != 64 {
		t.Errorf("shared overrides lost: kv %q, max_num_seqs %d", c.Spec.VLLM.KVCacheDType, c.Engine.MaxNumSeqs.Value)
	}
	if got := c.Engine.All2All.Value; got != vllm.BackendAllgatherReducescatter {
		t.Errorf("colocated all2all %q, want the top level's %s", got, vllm.BackendAllgatherReducescatter)
	}
	if note := d.ColocatedBackendNote(); note != "" {
		t.Errorf("note %q with a top-level backend", note)
	}
}
