package logs

import (
	"bytes"
	"regexp"
	"strings"
)

// What a traceback was doing when it reached DeepGEMM (proc.dgFrames).
const (
	// dgWarmup: vLLM's kernel warm-up after the KV cache is sized
	// (gpu_worker.py compile_or_warm_up_model → kernel_warmup.py
	// kernel_warmup → deep_gemm_warmup.py deep_gemm_warmup, vllm#41849 on
	// 0.20.1, vllm#47130 on 0.24.0, vllm#29360).
	dgWarmup uint8 = 1 << iota
	// dgSparse: the sparse-attention indexer's FP8 MQA logits
	// (vllm/utils/deep_gemm.py fp8_paged_mqa_logits, fp8_mqa_logits,
	// get_paged_mqa_logits_metadata; vllm-project/recipes#183).
	dgSparse
	// dgWeights: weight post-processing of an FP8 block-scaled checkpoint
	// (process_weights_after_loading → fp8_utils.py
	// deepgemm_post_process_fp8_weight_block, vllm#47436, vllm#51884).
	dgWeights
)

// dgFrameFuncs are the functions whose traceback frame (File "…", line N,
// in NAME) or source line (NAME(…)) sets a dgFrames bit.
var dgFrameFuncs = []struct {
	name string
	bit  uint8
}{
	{"kernel_warmup", dgWarmup}, {"deep_gemm_warmup", dgWarmup},
	{"fp8_paged_mqa_logits", dgSparse}, {"fp8_mqa_logits", dgSparse}, {"get_paged_mqa_logits_metadata", dgSparse},
	{"process_weights_after_loading", dgWeights}, {"deepgemm_post_process_fp8_weight_block", dgWeights},
}

// dgAssert is DeepGEMM's host assertion when it has no recipe or scale
// layout for the GPU: "RuntimeError: Assertion error
// (/workspace/.deps/deepgemm-src/csrc/apis/../jit_kernels/impls/../heuristics/../../utils/layout.hpp:76):
// Unknown recipe" (vllm#47130, vllm#47169, deepseek-ai/DeepGEMM#324 on
// 0.24.0 and SM120), "… (…/csrc/apis/layout.hpp:59): Unknown SF
// transformation" (vllm#47436 on 0.24.0, vllm#51884 at layout.hpp:60), and
// the older form "Failed: Assertion error csrc/utils/layout.hpp:57 'Unknown
// recipe'" (vllm#21533's CI, July 2025).
var dgAssert = regexp.MustCompile(`Assertion error \(?([^)\s]*?([\w.]+\.hpp:\d+))?\)?:? ?'?(Unknown recipe|Unknown SF transformation)`)

// deepGEMMRules name DeepGEMM's failures (LOG196): vLLM's placeholder
// when the deep_gemm package is missing or lacks a function, and
// DeepGEMM's assertion on a GPU it has no kernels for. The traceback
// frames before the exception say which path needed DeepGEMM, and so
// which fix applies.
func deepGEMMRules() []rule {
	frames := r(anchorsOf(), "", func(c *ctx, _ [][]byte) {
		msg := bytes.TrimSpace(c.l.msg)
		frame := hasPrefix(msg, `File "`)
		if !frame && !c.l.indent {
			return
		}
		for _, f := range dgFrameFuncs {
			if frame && bytes.HasSuffix(msg, []byte(", in "+f.name)) ||
				!frame && bytes.Contains(msg, []byte(f.name+"(")) && !bytes.HasPrefix(msg, []byte("def ")) {
				c.p.dgFrames |= f.bit
			}
		}
	})
	// vllm/utils/deep_gemm.py _missing(): "DeepGEMM backend is not
	// available or outdated. Please install or update the `deep_gemm` to
	// a newer version to enable FP8 kernels." (779d1fc and the releases
	// of the fixtures); before the sparse-attention wrappers (≈0.10):
	// "DeepGEMM backend is not available. Please install the `deep_gemm`
	// package to enable FP8 kernels." A worker's "RuntimeError: Worker
	// failed with error '…'" repeats it (vllm#29943).
	missing := r(one("DeepGEMM backend is not available"), "", func(c *ctx, _ [][]byte) {
		if c.l.indent || hasPrefix(c.l.msg, `"`) {
			return
		}
		c.noted = true
		msg, fix := dgMissing(c.p.dgFrames)
		c.fail(CodeDeepGEMM, msg, fix)
	})
	assert := r([]string{"Unknown recipe", "Unknown SF transformation"}, dgAssert.String(), func(c *ctx, m [][]byte) {
		if c.l.indent {
			return
		}
		c.noted = true
		at := ""
		if len(m[2]) > 0 {
			at = " (" + string(m[2]) + ")"
		}
		msg, fix := dgUnsupported(c.p.dgFrames, string(m[3])+at)
		c.fail(CodeDeepGEMM, msg, fix)
	})
	return []rule{frames, missing, assert, dgJITRule()}
}

// dgJITAssert is DeepGEMM's host assertion (DG_HOST_ASSERT) raised in its
// JIT, csrc/jit/: "RuntimeError: Assertion error
// (csrc/apis/../jit_kernels/impls/../../jit/kernel_runtime.hpp:45):
// exit_code == 0" (deepseek-ai/DeepGEMM#301, comment of 2026-04-11, vLLM
// 0.19.1rc1.dev44), and compiler.hpp's `false and "NVCC compilation
// failed"`. The path runs through "jit/" (not "jit_kernels/", whose
// layout.hpp assertions dgAssert reads). DeepEP's JIT has the same
// csrc/jit layout but its EP_HOST_ASSERT prints "Failed: Assertion error
// FILE:LINE 'cond'" (csrc/kernels/exception.hpp EPException), with no
// parenthesis: not matched here.
var dgJITAssert = regexp.MustCompile(`Assertion error \(([^()]*?\bjit/(?:[^()]*/)?(\w+\.hpp:\d+))\):?\s*(.*)$`)

// dgJITMessages are the JIT's own words for the same failures in
// DeepGEMM releases that explain them (csrc/jit/kernel_runtime.hpp and
// compiler.hpp at deepseek-ai/DeepGEMM@16202f69 and @06a6ae2e): cuobjdump
// missing, cuobjdump failing on a kernel ("Command `…/cuobjdump -symbols
// …/kernel.cubin` failed with exit code N"), a cache directory missing
// kernel.cu or kernel.cubin, NVCC failing.
var dgJITMessages = []string{"`cuobjdump` not found at", "cuobjdump -symbols", "Corrupted JIT cache directory", "NVCC compilation failed", "cuobjdump failed"}

// dgJITRule names DeepGEMM's JIT failures (LOG196): the kernel DeepGEMM
// compiles at first use could not be built or loaded.
func dgJITRule() rule {
	return r(append([]string{"Assertion error ("}, dgJITMessages...), "", func(c *ctx, _ [][]byte) {
		if c.l.indent {
			return
		}
		what := ""
		if m := dgJITAssert.FindSubmatch(c.l.msg); m != nil {
			what = strings.TrimSpace(string(m[3])) + " (" + string(m[2]) + ")"
		} else {
			for _, s := range dgJITMessages {
				if bytes.Contains(c.l.msg, []byte(s)) && (s != "cuobjdump -symbols" || bytes.Contains(c.l.msg, []byte("failed with exit code"))) {
					what = clip(strings.TrimSpace(string(c.l.msg)), 200)
					break
				}
			}
		}
		if what == "" {
			return
		}
		c.noted = true
		f := c.fail(CodeDeepGEMM, "DeepGEMM's JIT could not build or load a kernel: "+what+dgWhen(c), "")
		if f != nil {
			f.fix = dgJITFix(string(c.l.msg))
		}
	})
}

// dgWhen says when DeepGEMM's JIT failed, from the traceback's frames
// (dgFrames) or the start-up evidence seen so far (sawStartup).
func dgWhen(c *ctx) string {
	switch fr := c.p.dgFrames; {
	case fr&dgWeights != 0:
		return ", during start-up while post-processing the weights after loading them (load_model → process_weights_after_loading)"
	case fr&dgWarmup != 0:
		return ", during start-up in the kernel warm-up (kernel_warmup → deep_gemm_warmup)"
	case fr&dgSparse != 0:
		return ", in the sparse-attention indexer"
	}
	if c.r.startup != nil {
		return ", during start-up (" + c.r.startup.what + ")"
	}
	return ""
}

// dgJITFix is the fix for a JIT failure. DeepGEMM compiles a kernel at its
// first use into DG_JIT_CACHE_DIR (default $HOME/.deep_gemm,
// csrc/jit/compiler.hpp), and Compiler::build has no lock across
// processes: ranks that compile the same kernel into one shared cache race
// on its files, and a rank whose cuobjdump reads a cubin another rank is
// replacing fails with "exit_code == 0" (deepseek-ai/DeepGEMM#301, the fix
// proposed in #302; downstream vllm-project/vllm#39057, DeepSeek-V3.2 -dp 8
// on 8 × H200 with the cache on a network filesystem). The same assertion
// fails every start when the CUDA toolkit has nvcc but no cuobjdump (what
// newer DeepGEMM reports by name, kernel_runtime.hpp).
func dgJITFix(msg string) string {
	switch {
	case strings.Contains(msg, "not found at"):
		return "DeepGEMM's JIT needs cuobjdump from the CUDA toolkit to load the kernels it compiles: install it (cuda-cuobjdump / cuda-command-line-tools) or point CUDA_HOME at a full toolkit, or set VLLM_USE_DEEP_GEMM=0."
	case strings.Contains(msg, "Corrupted JIT cache directory"):
		return "A DeepGEMM JIT cache entry lacks kernel.cu or kernel.cubin (an interrupted or concurrent build): remove the directory the line names and restart; give each node its own cache (DG_JIT_CACHE_DIR on local disk) so that ranks do not race on it (deepseek-ai/DeepGEMM#301)."
	}
	return "DeepGEMM compiles each kernel at first use into DG_JIT_CACHE_DIR (default ~/.deep_gemm) with no lock across processes: ranks that share that cache — every rank of a node, or every node when it is on a network filesystem — race on the kernel's files and one fails (deepseek-ai/DeepGEMM#301; vllm#39057, DeepSeek-V3.2 -dp 8 on 8 × H200). Set DG_JIT_CACHE_DIR to a node-local directory and restart, or set VLLM_USE_DEEP_GEMM=0 to use other FP8 kernels; the race itself goes only with a lock in DeepGEMM (proposed in deepseek-ai/DeepGEMM#302). The same \"exit_code == 0\" on every start, with no other rank compiling, is cuobjdump missing from the CUDA toolkit (newer DeepGEMM names it)."
}

func anchorsOf() []string {
	out := make([]string, 0, len(dgFrameFuncs))
	for _, f := range dgFrameFuncs {
		out = append(out, f.name)
	}
	return out
}

// dgMissing words the missing-package failure by the path that needed it.
// Sparse attention wins over the warm-up (its indexer has no other
// kernel), weight post-processing over the warm-up (the FP8 checkpoint
// selected a DeepGEMM kernel).
func dgMissing(frames uint8) (string, string) {
	const what = "DeepGEMM (the deep_gemm package) is not installed or too old for this vLLM"
	switch {
	case frames&dgSparse != 0:
		return what + ", and the sparse-attention indexer needs it (fp8_paged_mqa_logits / fp8_mqa_logits)",
			"Sparse-attention models (DeepSeek-V3.2, GLM-5, DeepSeek-V4) compute their indexer's top-k with DeepGEMM's FP8 MQA-logits kernels: install DeepGEMM rather than skipping it (vllm-project/recipes#183)."
	case frames&dgWeights != 0:
		return what + ", and the FP8 checkpoint's DeepGEMM kernel needs it while post-processing the weights",
			"The FP8 block-scaled checkpoint selected a DeepGEMM kernel: install DeepGEMM, or set VLLM_USE_DEEP_GEMM=0 so that vLLM picks another block-scaled FP8 kernel."
	case frames&dgWarmup != 0:
		return what + ", and the kernel warm-up (kernel_warmup → deep_gemm_warmup) called it",
			"The warm-up asks DeepGEMM for its layout before it checks for FP8 layers, so even a BF16 model fails without deep_gemm (vllm#41849 on 0.20.1; the fix, vllm#41851, was still open): when the model has no FP8 block-quantized layers set VLLM_DEEP_GEMM_WARMUP=skip (0.11.2 on; before PR #25619, VLLM_SKIP_DEEP_GEMM_WARMUP=1) or VLLM_USE_DEEP_GEMM=0; otherwise install DeepGEMM."
	}
	return what, ""
}

// dgUnsupported words DeepGEMM's assertion on a GPU it has no recipe or
// scale layout for.
func dgUnsupported(frames uint8, assertion string) (string, string) {
	msg := "DeepGEMM has no kernel recipe for this GPU: " + assertion
	switch {
	case frames&dgWeights != 0:
		msg += ", while post-processing the FP8 weights"
	case frames&dgWarmup != 0:
		msg += ", in its FP8 warm-up"
	case frames&dgSparse != 0:
		msg += ", in the sparse-attention indexer"
	}
	return msg, "vLLM routed FP8 GEMMs to a DeepGEMM build without support for this GPU's architecture (0.24.0 on SM120 Blackwell — RTX PRO 6000, RTX 5090 — with its DeepGEMM pin: vllm#47130, vllm#47436): set VLLM_USE_DEEP_GEMM=0 to use the CUTLASS/Triton FP8 kernels, or use a release whose DeepGEMM supports the GPU."
}

// dgWarmupOOMFix is the fix an out-of-memory error gets when its
// traceback runs through DeepGEMM's warm-up (vllm#29360,
// Qwen3-Coder-480B-FP8 on 8×H20): the warm-up runs its GEMMs up to
// max_num_batched_tokens rows (vllm#24693) in the memory the KV cache left
// ("DeepGEMM warmup currently runs after KV-cache allocation", vllm#57258,
// open, which would move it before the memory profile).
const dgWarmupOOMFix = "DeepGEMM's warm-up runs its FP8 GEMMs for up to --max-num-batched-tokens tokens in the memory the KV cache left (vllm#24693): lower --max-num-batched-tokens or --gpu-memory-utilization."
