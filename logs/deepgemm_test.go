package logs

import (
	"strings"
	"testing"
)

// The DeepGEMM failures (LOG196). Each case is a line shape a source
// posted (the comment names it; the frames around it are in the format of
// the real fixtures, the deployment made up); the code and kind vlaunch
// must give it, and words its message and fix must carry, which say which
// path needed DeepGEMM. Before LOG196 every case was LOG191 (an exception
// vlaunch does not recognise), LOG193 or nothing.
func TestDeepGEMMFailures(t *testing.T) {
	const w = "(Worker_TP0 pid=8761) ERROR 12-23 19:34:21 [multiproc_executor.py:824] "
	const missing = "RuntimeError: DeepGEMM backend is not available or outdated. Please install or update the `deep_gemm` to a newer version to enable FP8 kernels.\n"
	cases := []struct{ name, log, want, msg, fix string }{
		// vllm-project/recipes#183: the sparse-attention indexer.
		{"sparse", w + `  File "/v/vllm/utils/deep_gemm.py", line 299, in fp8_paged_mqa_logits` + "\n" + w + "    return _missing()\n" + w + missing,
			"LOG196:other", "sparse-attention indexer needs it", "install DeepGEMM rather than skipping it"},
		{"sparse non-paged", w + `  File "/v/vllm/utils/deep_gemm.py", line 260, in fp8_mqa_logits` + "\n" + w + missing,
			"LOG196:other", "sparse-attention indexer", "install DeepGEMM"},
		// vllm#41849 (0.20.1) and vllm#29360's frame shapes: the warm-up,
		// told by its frames or by its source lines alone.
		{"warmup frames", w + `  File "/v/vllm/model_executor/warmup/kernel_warmup.py", line 37, in kernel_warmup` + "\n" + w + `  File "/v/vllm/utils/deep_gemm.py", line 266, in get_mk_alignment_for_contiguous_layout` + "\n" + w + missing,
			"LOG196:other", "kernel warm-up (kernel_warmup → deep_gemm_warmup)", "VLLM_DEEP_GEMM_WARMUP=skip"},
		{"warmup source lines", w + "    kernel_warmup(self)\n" + w + "    deep_gemm_warmup(model, max_tokens)\n" + w + missing,
			"LOG196:other", "kernel warm-up", "VLLM_DEEP_GEMM_WARMUP=skip"},
		// The sparse indexer wins over the warm-up that ran it.
		{"sparse in warmup", w + `  File "/v/vllm/model_executor/warmup/kernel_warmup.py", line 37, in kernel_warmup` + "\n" + w + `  File "/v/vllm/utils/deep_gemm.py", line 299, in fp8_paged_mqa_logits` + "\n" + w + missing,
			"LOG196:other", "sparse-attention indexer", "install DeepGEMM"},
		// Weight post-processing of an FP8 block-scaled checkpoint.
		{"weights missing", w + `  File "/v/vllm/model_executor/model_loader/utils.py", line 118, in process_weights_after_loading` + "\n" + w + missing,
			"LOG196:other", "while post-processing the weights", "VLLM_USE_DEEP_GEMM=0"},
		// NVIDIA/NeMo-Retriever#2292: the exception alone, no frames.
		{"no context", missing, "LOG196:other", "not installed or too old for this vLLM", "tools/install_deepgemm.sh"},
		// vllm/utils/deep_gemm.py before the sparse wrappers (00620f9).
		{"old message", "RuntimeError: DeepGEMM backend is not available. Please install the `deep_gemm` package to enable FP8 kernels.\n",
			"LOG196:other", "not installed", "VLLM_USE_DEEP_GEMM=0"},
		// vllm#29943's title: the engine repeating the worker's error.
		{"worker failed with", "RuntimeError: Worker failed with error 'DeepGEMM backend is not available or outdated.', please check the stack trace above for the root cause\n",
			"LOG196:other", "not installed", "install"},
		// vllm#47130 / vllm#47169 / deepseek-ai/DeepGEMM#324 (0.24.0, SM120):
		// the FP8 warm-up's assertion.
		{"unknown recipe warmup", w + `  File "/v/vllm/model_executor/warmup/deep_gemm_warmup.py", line 406, in deep_gemm_warmup` + "\n" + w + "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:76): Unknown recipe\n",
			"LOG196:other", "Unknown recipe (layout.hpp:76), in its FP8 warm-up", "VLLM_USE_DEEP_GEMM=0"},
		// vllm#47436 (0.24.0) and vllm#51884 (layout.hpp:60): weight
		// post-processing's assertion.
		{"sf transformation weights", w + `  File "/v/vllm/model_executor/layers/quantization/kernels/linear/scaled_mm/deep_gemm.py", line 96, in process_weights_after_loading` + "\n" + w + "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n",
			"LOG196:other", "Unknown SF transformation (layout.hpp:59), while post-processing the FP8 weights", "SM120"},
		// vllm#21533's CI (July 2025): DeepGEMM's older assertion form.
		{"old assertion form", "RuntimeError: Failed: Assertion error csrc/utils/layout.hpp:57 'Unknown recipe'\n",
			"LOG196:other", "Unknown recipe (layout.hpp:57)", "VLLM_USE_DEEP_GEMM=0"},
		// vllm#29360 (Qwen3-Coder-480B-FP8 on 8×H20): out of memory in the
		// warm-up stays LOG101, with the warm-up named.
		{"warmup oom", w + "    kernel_warmup(self)\n" + w + "    deep_gemm_warmup(model, max_tokens)\n" + w + "torch.OutOfMemoryError: CUDA out of memory.\n",
			"LOG101:oom_loading", "during the kernel warm-up", "--max-num-batched-tokens"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantFailure(t, c.log, c.want, c.msg, c.fix) })
	}
}

// TestDeepGEMMContextScope: the frames count only for the traceback they
// are in, and only as frames or source lines.
func TestDeepGEMMContextScope(t *testing.T) {
	const w = "(Worker_TP0 pid=1) ERROR 12-23 19:34:21 [multiproc_executor.py:824] "
	const missing = "RuntimeError: DeepGEMM backend is not available or outdated. Please install or update the `deep_gemm` to a newer version to enable FP8 kernels.\n"
	cases := []struct{ name, log, not string }{
		// A new traceback forgets the warm-up of the previous one.
		{"new traceback", w + "    deep_gemm_warmup(model, max_tokens)\n" + w + "Traceback (most recent call last):\n" + w + missing, "warm-up"},
		// A log message that names the warm-up is no frame.
		{"info line", "(Worker_TP0 pid=1) INFO 12-23 19:34:00 [kernel_warmup.py:60] Skipping deep_gemm_warmup(): DeepGEMM not installed\n" + w + missing, "warm-up"},
		// The definition line a traceback can quote is no call.
		{"def line", w + "    def deep_gemm_warmup(model, max_tokens):\n" + w + missing, "warm-up"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fs := failuresOf(t, c.log)
			if got := codesOf(fs); got != "LOG196:other" {
				t.Fatalf("failures %q, want LOG196:other", got)
			}
			if strings.Contains(fs[0].Message, c.not) {
				t.Errorf("message %q should not say %q", fs[0].Message, c.not)
			}
		})
	}
}

// TestDeepGEMMNotFromSource: the message as a traceback's source line
// quotes it (Python 3.11+ prints the raise's string literal) is not the
// failure: the exception line is, and a log cut before it names none.
func TestDeepGEMMNotFromSource(t *testing.T) {
	log := `(Worker_TP0 pid=1) ERROR 12-23 19:34:21 [multiproc_executor.py:824]     raise RuntimeError(
(Worker_TP0 pid=1) ERROR 12-23 19:34:21 [multiproc_executor.py:824]         "DeepGEMM backend is not available or outdated. Please install or "
(Worker_TP0 pid=1) ERROR 12-23 19:34:21 [multiproc_executor.py:824] "DeepGEMM backend is not available or outdated. Please install or "
(Worker_TP0 pid=1) ERROR 12-23 19:34:21 [multiproc_executor.py:824]   File "x", line 1, in Unknown recipe
`
	for _, f := range failuresOf(t, log) {
		if f.Code == CodeDeepGEMM {
			t.Errorf("unexpected %s from a source line: %s", f.Code, f.Text)
		}
	}
}

// TestDeepGEMMAheadOfEngineWrapper: the worker's DeepGEMM error is the
// root cause reported; the engine's exceptions after it are not (they
// were LOG191 next to nothing specific).
func TestDeepGEMMAheadOfEngineWrapper(t *testing.T) {
	log := `(Worker_TP1 pid=8761) ERROR 12-23 19:34:21 [multiproc_executor.py:824]   File "/v/vllm/utils/deep_gemm.py", line 299, in fp8_paged_mqa_logits
(Worker_TP1 pid=8761) ERROR 12-23 19:34:21 [multiproc_executor.py:824] RuntimeError: DeepGEMM backend is not available or outdated. Please install or update the ` + "`deep_gemm`" + ` to a newer version to enable FP8 kernels.
(EngineCore_DP0 pid=8626) ERROR 12-23 19:34:21 [core.py:866] EngineCore failed to start.
(EngineCore_DP0 pid=8626) ERROR 12-23 19:34:21 [core.py:866] Traceback (most recent call last):
(EngineCore_DP0 pid=8626) ERROR 12-23 19:34:21 [core.py:866] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.
RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
`
	fs := failuresOf(t, log)
	if got := codesOf(fs); got != "LOG196:other" {
		t.Fatalf("failures %q, want LOG196:other alone", got)
	}
	if fs[0].Rank != "Worker_TP1 pid=8761" || fs[0].Line != 2 {
		t.Errorf("want the worker's line 2, got %s line %d", fs[0].Rank, fs[0].Line)
	}
}
