package validate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// deepEPLLFindings are the findings of checkDeepEPLLTokens (the only ones
// naming NVSHMEM_QP_DEPTH in their message).
func deepEPLLFindings(ds diag.Diagnostics) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range ds {
		if strings.Contains(d.Message, "NVSHMEM_QP_DEPTH") {
			out = append(out, d)
		}
	}
	return out
}

// deepEPLLSpec is the base spec on release version with the vllm block's
// backend line (none when ""), max_num_batched_tokens (unset when 0) and
// extra env lines.
func deepEPLLSpec(t *testing.T, version, backend, tokens, env string) string {
	vl := `version: "` + version + `"`
	if backend != "" {
		vl += "\n  all2all_backend: " + backend
	}
	if tokens != "" {
		vl += "\n  max_num_batched_tokens: " + tokens
	}
	src := edit(t, readBase(t), `version: "0.11.0"`, vl, "image: vllm/vllm-openai:v0.11.0", "image: vllm/vllm-openai:v"+version)
	if env != "" {
		src = edit(t, src, "    NCCL_DEBUG: INFO", "    NCCL_DEBUG: INFO\n    "+env)
	}
	return src
}

// TestDeepEPLLTokens: from vLLM 0.20.0 DeepEP low-latency asserts
// NVSHMEM_QP_DEPTH ≥ 2·(max_num_batched_tokens + 1), 1024 by default, so
// 511 tokens pass and 512 fail; a deeper queue in vllm.env lifts the
// limit; 0.19.1 (the capacity was VLLM_MOE_DP_CHUNK_SIZE), the
// high-throughput kernels and vLLM's own default (256) pass.
func TestDeepEPLLTokens(t *testing.T) {
	for _, c := range []struct {
		name, version, backend, tokens, env string
		want                                string // substring of the one error; "" none
	}{
		{"2048 on 0.20.0", "0.20.0", "deepep_low_latency", "2048", "", "2048 tokens need a depth of 4098, the depth is 1024"},
		{"512 on 0.20.0", "0.20.0", "deepep_low_latency", "512", "", "at most 511 tokens fit"},
		{"511 on 0.20.0", "0.20.0", "deepep_low_latency", "511", "", ""},
		{"deep queue", "0.20.0", "deepep_low_latency", "2048", "NVSHMEM_QP_DEPTH: \"4098\"", ""},
		{"queue one short", "0.20.0", "deepep_low_latency", "2048", "NVSHMEM_QP_DEPTH: \"4096\"", "the depth is 4096"},
		{"0.19.1 chunks", "0.19.1", "deepep_low_latency", "2048", "", ""},
		{"high throughput", "0.20.0", "deepep_high_throughput", "2048", "", ""},
		{"release default 256", "0.20.0", "deepep_low_latency", "", "", ""},
	} {
		ds := mustBytes(t, "spec.yaml", deepEPLLSpec(t, c.version, c.backend, c.tokens, c.env))
		got := deepEPLLFindings(ds)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: unexpected %s", c.name, render(got))
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != diag.Error || !strings.Contains(got[0].Message, c.want) ||
			got[0].Path != "vllm.max_num_batched_tokens" || !strings.Contains(got[0].Hint, "NVSHMEM_QP_DEPTH=") {
			t.Errorf("%s: got %s, want one error at vllm.max_num_batched_tokens containing %q", c.name, render(got), c.want)
		}
	}
}

// TestDeepEPLLTokensAuto: `auto` resolving to deepep_low_latency is
// refused as the named backend is, and the message says `auto` chose it.
func TestDeepEPLLTokensAuto(t *testing.T) {
	src := deepEPLLSpec(t, "0.20.0", "auto", "2048", "")
	src = edit(t, src, "inter_node: {kind: infiniband, bandwidth_gbit_per_s: 100}", "inter_node: {kind: infiniband, bandwidth_gbit_per_s: 100, gpu_direct_rdma: true}")
	dep, ds, err := Bytes("spec.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := deepEPLLFindings(ds)
	if dep.Engine.All2All.Value != "deepep_low_latency" {
		t.Fatalf("auto resolved to %q (%s), want deepep_low_latency for this test; findings %s", dep.Engine.All2All.Value, dep.Engine.All2All.Why, render(ds))
	}
	if len(got) != 1 || !strings.Contains(got[0].Message, "all2all_backend auto, which resolves to deepep_low_latency") {
		t.Errorf("got %s, want one error naming auto's choice", render(got))
	}
}
