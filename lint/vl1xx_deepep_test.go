package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// vl136 lints one script for a release ("" unstated) and returns its
// VL136 findings.
func vl136(t *testing.T, version, script string) diag.Diagnostics {
	t.Helper()
	ds, err := Lint([]Input{{Name: "serve.sh", Data: []byte(script)}}, Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Code == codes.VLDeepEPLLTokens {
			out = append(out, d)
		}
	}
	return out
}

// TestDeepEPLLTokensLint: DeepEP low-latency from vLLM 0.20.0 takes at
// most NVSHMEM_QP_DEPTH/2 − 1 tokens per rank (511 with DeepEP's default
// 1024): 512 and 2048 are errors at the flag, 511 is not, an exported
// deeper queue lifts the limit, the variable selecting the backend counts
// as the flag does, and 0.19.1 (the capacity was VLLM_MOE_DP_CHUNK_SIZE),
// the high-throughput kernels, no expert parallel and an unset limit are
// not judged.
func TestDeepEPLLTokensLint(t *testing.T) {
	const serve = "vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --enable-expert-parallel "
	for _, c := range []struct {
		name, version, script, want string
	}{
		{"2048", "0.20.0", serve + "--all2all-backend deepep_low_latency --max-num-batched-tokens 2048\n", "2048 tokens need a depth of 4098, the depth is 1024"},
		{"512", "0.20.0", serve + "--all2all-backend deepep_low_latency --max-num-batched-tokens 512\n", "at most 511 tokens fit"},
		{"511", "0.20.0", serve + "--all2all-backend deepep_low_latency --max-num-batched-tokens 511\n", ""},
		{"deep queue", "0.20.0", "export NVSHMEM_QP_DEPTH=4098\n" + serve + "--all2all-backend deepep_low_latency --max-num-batched-tokens 2048\n", ""},
		{"shallow queue", "0.20.0", "export NVSHMEM_QP_DEPTH=2048\n" + serve + "--all2all-backend deepep_low_latency --max-num-batched-tokens 1024\n", "the depth is 2048"},
		{"0.19.1", "0.19.1", serve + "--all2all-backend deepep_low_latency --max-num-batched-tokens 2048\n", ""},
		{"high throughput", "0.20.0", serve + "--all2all-backend deepep_high_throughput --max-num-batched-tokens 2048\n", ""},
		{"no EP", "0.20.0", "vllm serve deepseek-ai/DeepSeek-V3 -dp 16 -dpl 8 --all2all-backend deepep_low_latency --max-num-batched-tokens 2048\n", ""},
		{"unset", "0.20.0", serve + "--all2all-backend deepep_low_latency\n", ""},
	} {
		got := vl136(t, c.version, c.script)
		if c.want == "" {
			if len(got) != 0 {
				t.Errorf("%s: unexpected %v", c.name, got)
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != diag.Error || !strings.Contains(got[0].Message, c.want) ||
			!strings.Contains(got[0].Hint, "NVSHMEM_QP_DEPTH=") || got[0].Col <= strings.Index(serveLine(c.script), "--max-num-batched-tokens") {
			t.Errorf("%s: got %v, want one error at the flag's value containing %q", c.name, got, c.want)
		}
	}
}

// serveLine is a script's last line, the vllm serve command.
func serveLine(script string) string {
	lines := strings.Split(strings.TrimSuffix(script, "\n"), "\n")
	return lines[len(lines)-1]
}
