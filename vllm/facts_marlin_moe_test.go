package vllm

import (
	"strings"
	"testing"
)

// Whether the routed experts run through fused_marlin_moe and whether its
// caches are per call for the whole batch. The base case is vllm#28228's
// Kimi-Linear-48B AWQ checkpoint (compressed-tensors INT4 W4A16, group 32)
// on RTX 3090s (SM 8.6) at TP 2: hidden 2,304 = 18 × 128, 1,024 / 2 = 512
// experts' width per GPU, a multiple of max(64, 32).
func TestMarlinMoE(t *testing.T) {
	kimi := MarlinMoEQuery{ExpertFormat: "int4", GroupSize: 32, HiddenSize: 2304, IntermediatePerGPU: 512, NVIDIA: true, SMMajor: 8}
	with := func(f func(*MarlinMoEQuery)) MarlinMoEQuery { q := kimi; f(&q); return q }
	for _, tc := range []struct {
		name        string
		version     string
		q           MarlinMoEQuery
		runs, whole Presence
	}{
		{"Kimi-Linear AWQ on RTX 3090 (vllm#28228)", "0.11.1", kimi, Present, Present},
		{"same at 0.10.1 (Marlin preferred in its docs)", "0.10.1", kimi, Present, Present},
		{"before 0.10.1 the default is not pinned", "0.9.2", kimi, Maybe, Maybe},
		{"an all-to-all backend: MarlinExperts, chunked", "0.11.1", with(func(q *MarlinMoEQuery) { q.All2All = true }), Present, Maybe},
		{"ROCm", "0.11.1", with(func(q *MarlinMoEQuery) { q.NVIDIA = false }), Absent, Absent},
		{"Volta/Turing: no Marlin", "0.11.1", with(func(q *MarlinMoEQuery) { q.SMMajor = 7 }), Absent, Absent},
		{"compute capability unknown", "0.11.1", with(func(q *MarlinMoEQuery) { q.SMMajor = 0 }), Maybe, Maybe},
		{"group 256: Triton WNA16", "0.11.1", with(func(q *MarlinMoEQuery) { q.GroupSize = 256 }), Absent, Absent},
		{"hidden 2,880 (gpt-oss): not a multiple of 128", "0.11.1", with(func(q *MarlinMoEQuery) { q.HiddenSize = 2880 }), Absent, Absent},
		{"width per GPU 96: not a multiple of 64", "0.11.1", with(func(q *MarlinMoEQuery) { q.IntermediatePerGPU = 96 }), Absent, Absent},
		{"group 128 needs width % 128", "0.11.1", with(func(q *MarlinMoEQuery) { q.GroupSize, q.IntermediatePerGPU = 128, 192 }), Absent, Absent},
		{"per channel", "0.11.1", with(func(q *MarlinMoEQuery) { q.GroupSize = -1 }), Present, Present},
		{"VLLM_WNA16_MOE_BACKEND=triton: first release not pinned", "0.11.1",
			with(func(q *MarlinMoEQuery) { q.Env = map[string]string{"VLLM_WNA16_MOE_BACKEND": "triton"} }), Maybe, Maybe},
		{"unquantized experts: Triton", "0.11.1", with(func(q *MarlinMoEQuery) { q.ExpertFormat = "" }), Absent, Absent},
		{"FP8 on SM 8.x: minor unknown", "0.11.1", with(func(q *MarlinMoEQuery) { q.ExpertFormat = "fp8" }), Maybe, Maybe},
		{"gpt-oss MXFP4 on H100, 0.11.0: Marlin", "0.11.0", MarlinMoEQuery{ExpertFormat: "mxfp4", GroupSize: 32, HiddenSize: 2880, IntermediatePerGPU: 2880, NVIDIA: true, SMMajor: 9}, Present, Present},
		{"gpt-oss MXFP4 on H100, 0.14.0: triton_kernels", "0.14.0", MarlinMoEQuery{ExpertFormat: "mxfp4", GroupSize: 32, HiddenSize: 2880, IntermediatePerGPU: 2880, NVIDIA: true, SMMajor: 9}, Absent, Absent},
		{"gpt-oss MXFP4 on H100, 0.12.0: unpinned", "0.12.0", MarlinMoEQuery{ExpertFormat: "mxfp4", GroupSize: 32, HiddenSize: 2880, IntermediatePerGPU: 2880, NVIDIA: true, SMMajor: 9}, Maybe, Maybe},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		p := r.MarlinMoE(tc.q)
		if p.Runs != tc.runs || p.WholeBatch != tc.whole {
			t.Errorf("%s (%s): runs %v, whole batch %v (%s); want %v, %v", tc.name, tc.version, p.Runs, p.WholeBatch, p.Why, tc.runs, tc.whole)
		}
		if !strings.Contains(p.Source, "fused_marlin_moe.py") || !strings.Contains(p.Source, "check_moe_marlin_supports_layer") {
			t.Errorf("%s: source %q does not cite the kernel and the selection", tc.name, p.Source)
		}
		if p.Runs != Absent && p.Why == "" {
			t.Errorf("%s: no reason given", tc.name)
		}
	}
}

// TestMarlinSumAfterCaches: from the v0.11.1 tag fused_marlin_moe allocates
// the summed output after _fused_marlin_moe has returned and freed
// intermediate_cache2; up to v0.11.0 all three coexist; from 0.20.0 not read.
func TestMarlinSumAfterCaches(t *testing.T) {
	q := MarlinMoEQuery{ExpertFormat: "int4", GroupSize: 32, HiddenSize: 2304, IntermediatePerGPU: 512, NVIDIA: true, SMMajor: 8}
	for v, want := range map[string]Presence{
		"0.10.1": Absent, "0.11.0": Absent, "0.11.1": Present, "0.14.1": Present, "0.19.1": Present, "0.20.0": Maybe, "0.31.0": Maybe,
	} {
		r, _, err := ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		p := r.MarlinMoE(q)
		if p.SumAfterCaches != want {
			t.Errorf("%s: summed output after the caches %v, want %v", v, p.SumAfterCaches, want)
		}
		if !strings.Contains(p.SumSource, "v0.11.1 (439368496)") || !strings.Contains(p.SumSource, "v0.11.0 (b8b302cde)") {
			t.Errorf("%s: source %q does not name the tags read", v, p.SumSource)
		}
	}
}
