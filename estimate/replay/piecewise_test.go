package replay

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/published"
)

// TestSGLangPiecewise pins when an SGLang row replays piecewise CUDA graphs
// for prefill (sglangPiecewise) and up to how many tokens
// (sglangPiecewiseTokens). Each case is a row's flags and what v0.5.12's
// server_args.py (main at 6c0633b0, 2026-05-13) makes of them: on from
// 0.5.10 (PR #16331) through 0.5.12, off under each condition
// _handle_piecewise_cuda_graph and _handle_moe_kernel_config name; 2,048
// tokens for an MLA model (the MLA default), the chunked-prefill size
// otherwise, an explicit --piecewise-cuda-graph-max-tokens over both.
func TestSGLangPiecewise(t *testing.T) {
	gpu := func(id string) *catalog.GPU {
		g, err := catalog.LookupGPU(id)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	b200, h200, mi300x := gpu("b200"), gpu("h200"), gpu("mi300x")
	row := func(name, version, model, flags string) published.Row {
		var r published.Row
		r.Engine.Name, r.Engine.Version, r.Engine.Flags, r.Model.Catalog = name, version, flags, model
		return r
	}
	// The two InferenceX DeepSeek-R1 v0.5.12 launch lines (issue #28),
	// cut to the flags that matter: dsr1_fp8_b200.sh and dsr1_fp4_b300.sh.
	const fp8B200 = "--tensor-parallel-size=8 --attention-backend trtllm_mla --ep-size 1 --moe-runner-backend flashinfer_trtllm --quantization fp8"
	const fp4B300 = "--tensor-parallel-size 4 --ep-size 4 --quantization modelopt_fp4 --enable-symm-mem --attention-backend trtllm_mla --moe-runner-backend flashinfer_trtllm"
	dp := row("sglang", "0.5.12", "deepseek-r1", "")
	dp.Layout.DPAttention.V = true
	pp := row("sglang", "0.5.12", "llama-3.1-8b", "")
	pp.Layout.PP = published.N(2)
	for _, c := range []struct {
		name string
		r    published.Row
		g    *catalog.GPU
		want bool
	}{
		{"plain 0.5.12", row("sglang", "0.5.12", "llama-3.1-8b", "--tp 8 --stream-interval 10"), h200, true},
		{"first release", row("sglang", "0.5.10", "llama-3.1-8b", ""), h200, true},
		{"post release", row("sglang", "v0.5.12.post1", "llama-3.1-8b", ""), h200, true},
		{"no GPU known", row("sglang", "0.5.11", "llama-3.1-8b", ""), nil, true},
		{"before #16331", row("sglang", "0.5.9", "llama-3.1-8b", ""), h200, false},
		{"old", row("sglang", "0.4.10", "llama-3.1-8b", ""), h200, false},
		{"after the refactor", row("sglang", "0.5.13", "llama-3.1-8b", ""), h200, false},
		{"no version", row("sglang", "", "llama-3.1-8b", ""), h200, false},
		{"disabled", row("sglang", "0.5.12", "llama-3.1-8b", "--disable-piecewise-cuda-graph"), h200, false},
		{"DP attention flag", row("sglang", "0.5.12", "deepseek-r1", "--enable-dp-attention --dp 8"), h200, false},
		{"DP attention layout", dp, h200, false},
		{"pipeline parallel", pp, h200, false},
		{"torch.compile", row("sglang", "0.5.12", "llama-3.1-8b", "--enable-torch-compile"), h200, false},
		{"a2a deepep", row("sglang", "0.5.12", "deepseek-r1", "--moe-a2a-backend deepep"), h200, false},
		{"a2a none", row("sglang", "0.5.12", "deepseek-r1", "--moe-a2a-backend=none"), h200, true},
		{"PD prefill", row("sglang", "0.5.12", "llama-3.1-8b", "--disaggregation-mode prefill"), h200, false},
		{"PD null", row("sglang", "0.5.12", "llama-3.1-8b", "--disaggregation-mode=null"), h200, true},
		{"symmetric memory", row("sglang", "0.5.12", "llama-3.1-8b", "--enable-symm-mem"), h200, false},
		{"LoRA", row("sglang", "0.5.12", "llama-3.1-8b", "--enable-lora"), h200, false},
		{"hierarchical cache", row("sglang", "0.5.12", "llama-3.1-8b", "--enable-hierarchical-cache"), h200, false},
		{"CPU offload", row("sglang", "0.5.12", "llama-3.1-8b", "--cpu-offload-gb 20"), h200, false},
		{"context parallel", row("sglang", "0.5.12", "llama-3.1-8b", "--attn-cp-size 2"), h200, false},
		{"GGUF", row("sglang", "0.5.12", "llama-3.1-8b", "--load-format gguf"), h200, false},
		{"EPLB", row("sglang", "0.5.12", "deepseek-r1", "--enable-eplb"), h200, false},
		{"AMD", row("sglang", "0.5.12", "deepseek-r1", ""), mi300x, false},
		{"trtllm MoE runner", row("sglang", "0.5.12", "deepseek-r1", "--moe-runner-backend flashinfer_trtllm"), b200, false},
		{"mxfp4 MoE runner", row("sglang", "0.5.12", "deepseek-r1", "--moe-runner-backend=flashinfer_mxfp4"), h200, false},
		{"cutlass MoE runner", row("sglang", "0.5.12", "deepseek-r1", "--moe-runner-backend flashinfer_cutlass"), b200, true},
		{"DeepSeek V3 auto runner on SM100", row("sglang", "0.5.12", "deepseek-r1", "--quantization fp8"), b200, false},
		{"DeepSeek V3 auto runner on Hopper", row("sglang", "0.5.12", "deepseek-r1", "--quantization fp8"), h200, true},
		{"DeepSeek V3 SM100 with a2a none", row("sglang", "0.5.12", "deepseek-r1", "--moe-a2a-backend none"), b200, false},
		{"enforced over the runner", row("sglang", "0.5.12", "deepseek-r1", "--moe-runner-backend flashinfer_trtllm --enforce-piecewise-cuda-graph"), b200, true},
		{"B200 FP8 InferenceX", row("sglang", "0.5.12", "deepseek-r1", fp8B200), b200, false},
		{"B200 FP8 InferenceX, runner auto", row("sglang", "0.5.12", "deepseek-r1", strings.Replace(fp8B200, "flashinfer_trtllm", "auto", 1)), b200, false},
		{"B200 FP8 InferenceX, cutlass runner", row("sglang", "0.5.12", "deepseek-r1", strings.Replace(fp8B200, "flashinfer_trtllm", "flashinfer_cutlass", 1)), b200, true},
		{"B300 NVFP4 InferenceX", row("sglang", "0.5.12", "deepseek-r1", fp4B300), gpu("b300"), false},
		{"B300 NVFP4 InferenceX, cutlass runner", row("sglang", "0.5.12", "deepseek-r1", strings.Replace(fp4B300, "flashinfer_trtllm", "flashinfer_cutlass", 1)), gpu("b300"), false},
		{"disabled architecture", row("sglang", "0.5.12", "qwen3-next-80b-a3b", ""), h200, false},
		{"gpt-oss keeps graphs under the mxfp4 runner", row("sglang", "0.5.12", "gpt-oss-120b", "--moe-runner-backend flashinfer_mxfp4"), b200, true},
		{"vllm", row("vllm", "0.11.0", "llama-3.1-8b", ""), h200, false},
		{"nim", row("nim", "1.10.0", "llama-3.1-8b", ""), h200, false},
	} {
		if got := sglangPiecewise(c.r, c.g); got != c.want {
			t.Errorf("%s: %s %q %q: piecewise %v, want %v", c.name, c.r.Engine.Name, c.r.Engine.Version, c.r.Engine.Flags, got, c.want)
		}
	}
	on := engine{piecewise: true, batchTok: 16384}
	for _, c := range []struct {
		flags string
		e     engine
		mla   bool
		want  int
	}{
		{"", on, true, 2048},
		{"", on, false, 16384},
		{"--piecewise-cuda-graph-max-tokens 4096", on, true, 4096},
		{"", engine{batchTok: 16384}, true, 0},
	} {
		if got := sglangPiecewiseTokens(row("sglang", "0.5.12", "llama-3.1-8b", c.flags), c.e, c.mla); got != c.want {
			t.Errorf("%q mla=%v piecewise=%v: %d tokens, want %d", c.flags, c.mla, c.e.piecewise, got, c.want)
		}
	}
}

// TestSGLangPiecewisePublishedRows reads every published SGLang row: none
// ran piecewise CUDA graphs by v0.5.12's rules (issue #28: the InferenceX
// DeepSeek-R1 rows on B200 and B300 both launch with --moe-runner-backend
// flashinfer_trtllm), so UseSGLangPiecewiseGraphs moves no row; and the
// InferenceX rows are the only ones a release with the graphs by default
// could reach, so dropping their MoE runner flag (and, on B300,
// --enable-symm-mem) turns them on — the test sees the conditions bite.
func TestSGLangPiecewisePublishedRows(t *testing.T) {
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	var ix int
	for _, r := range set.Rows {
		if r.Engine.Name != "sglang" {
			continue
		}
		g, _ := catalog.LookupGPU(r.Hardware.GPU)
		if sglangPiecewise(r, g) {
			t.Errorf("%s (%s %q): piecewise graphs on", r.ID, r.Engine.Version, r.Engine.Flags)
		}
		if !strings.HasPrefix(r.ID, "ixpr3363-") && !strings.HasPrefix(r.ID, "ixpr3183-") {
			continue
		}
		ix++
		bare := r
		bare.Engine.Flags = strings.NewReplacer("--moe-runner-backend flashinfer_trtllm", "--moe-runner-backend flashinfer_cutlass", "--enable-symm-mem", "").Replace(r.Engine.Flags)
		if bare.Engine.Flags == r.Engine.Flags {
			t.Errorf("%s: no MoE runner flag to take out of %q", r.ID, r.Engine.Flags)
		}
		if !sglangPiecewise(bare, g) {
			t.Errorf("%s: piecewise graphs still off without the MoE runner and symmetric memory flags (%q)", r.ID, bare.Engine.Flags)
		}
	}
	if ix < 20 {
		t.Errorf("%d InferenceX v0.5.12 DeepSeek-R1 rows, want the B200 and B300 sweeps (20 or more)", ix)
	}
}
