package vllm

// Flags the QA pass qa44a found in real launch scripts (lint said VL005
// "not in vlaunch's flag table for any release"), each read in
// vllm/engine/arg_utils.py at every release tag from v0.14.0 to v0.24.0.
const (
	// srcFlashInferAutotune: KernelConfig.enable_flashinfer_autotune
	// (vllm/config/kernel.py, bool, default None) and
	// kernel_group.add_argument("--enable-flashinfer-autotune") appear at
	// v0.16.0 (89a77b1084) and are absent at v0.15.1 (1892993bc1), the
	// release before it; still there at v0.24.0 (ee0da84ab9). A bool
	// config field is an argparse BooleanOptionalAction, so
	// --no-enable-flashinfer-autotune exists too.
	srcFlashInferAutotune = srcKzTags + ": kernel_group.add_argument(\"--enable-flashinfer-autotune\") present at v0.16.0 89a77b1084 (vllm/config/kernel.py enable_flashinfer_autotune: bool = Field(default=None)), " +
		"absent at v0.15.1 1892993bc1, present at every tag v0.16.0-v0.24.0 (ee0da84ab9)"
	// srcCPUDistTimeout: ParallelConfig.cpu_distributed_timeout_seconds
	// (vllm/config/parallel.py, int | None, default None: PyTorch's 1800 s
	// gloo timeout) and parallel_group.add_argument(
	// "--cpu-distributed-timeout-seconds") appear at v0.22.0 (0b3ba88f16),
	// absent at v0.21.0 (ad7125a431), the release before it.
	srcCPUDistTimeout = srcKzTags + ": parallel_group.add_argument(\"--cpu-distributed-timeout-seconds\") present at v0.22.0 0b3ba88f16 (vllm/config/parallel.py cpu_distributed_timeout_seconds: int | None = None), " +
		"absent at v0.21.0 ad7125a431, present at v0.22.1, v0.23.0 and v0.24.0 ee0da84ab9"
)

// lintfix44Flags are the flags of qa44a's F6.
var lintfix44Flags = []Flag{
	{Name: "enable-flashinfer-autotune", Kind: Bool, Span: Span{Since: v0160}, Verified: true,
		Doc: "run FlashInfer autotuning during kernel warm-up (unset: vLLM decides)", Source: srcFlashInferAutotune},
	{Name: "cpu-distributed-timeout-seconds", Kind: Int, Span: Span{Since: v0220}, Verified: true,
		Doc: "timeout in seconds of the CPU (gloo) communication groups (unset: PyTorch's default, 1800 s for gloo)", Source: srcCPUDistTimeout},
}

func init() { flagTable = append(flagTable, lintfix44Flags...) }
