package perf

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// UseMeasuredMoEStream streams a decode step's routed-expert weights at
// the rate a measured fused-MoE table shows for the kernel the serving
// engine runs (expertStreamRate), instead of at Efficiency.HBM ×
// Efficiency.ExpertHBM of the GPU's peak (fitted on Hopper's Triton and
// vLLM's FP8 kernels). Issue #28: SGLang's flashinfer_trtllm NVFP4 MoE on
// B300 streams its experts at ~0.9 of the peak where the fitted rate is
// 0.67, and DeepSeek-R1 NVFP4's decode TPOT came out 31–48% slow at 16–32
// sequences.
var UseMeasuredMoEStream = true

// UseMeasuredMoEStreamUnpinned extends UseMeasuredMoEStream to vLLM's
// BF16, FP8 and NVFP4 experts at the rate of the kernel vLLM 0.24.0
// selected when aiconfigurator timed them (the table's most frequent
// kernel_source for the dtype). Off: vlaunch holds no release fact for
// which kernel a vLLM release runs those experts with (vllm.Release has
// MoE backend facts for MXFP4 only: MXFP4MoEBackend,
// PackedMXFP4MoEBackend), so the rate would be applied to releases whose
// kernel is unknown.
var UseMeasuredMoEStreamUnpinned = false

// UseMeasuredMoEStreamVLLMMXFP4 extends UseMeasuredMoEStream to vLLM's
// MXFP4 (gpt-oss) experts where the release's own kernel choice is the one
// the table timed (0.55–0.57 of the HBM peak on H200 and Blackwell, below
// the fitted 0.67). Off (session 32): the one published figure it reaches,
// the held-out llm-d GKE P/D run's decode TPOT (gpt-oss-120b, decode TP 4
// on H200, vLLM 0.24.0), is already predicted 2.3× slow and moves further
// away (+133% → +161%), and no colocated calibration row exercises it: the
// kernel table alone does not tell whether the slow slices it times are
// what a TP-sharded serving step streams.
var UseMeasuredMoEStreamVLLMMXFP4 = false

// moeStreamJSON is tools/aicdata/moe_stream.json (aicdata moestream:
// aiconfigurator 095f58a51c4c's balanced moe_perf rows, per system,
// engine, MoE dtype and kernel_source, one point per model shape and
// layout with moe_tp × moe_ep ≤ 8: the slope (Δ local experts hit ×
// expert bytes at the dtype's stored bits) / Δ latency between the two
// largest token counts with T·k ≤ E, and the entry's median; the rule is
// moestream.go's doc comment there). perf reads the points near the
// deployment's expert slice (rateFor). TestMoEStreamFileCopy keeps the
// copy equal.
//
//go:embed moe_stream.json
var moeStreamJSON []byte

// moeStreamEntry is one rate of moe_stream.json.
type moeStreamEntry struct {
	System    string  `json:"system"`
	Engine    string  `json:"engine"`
	Version   string  `json:"version"`
	Dtype     string  `json:"dtype"`
	Kernel    string  `json:"kernel"`
	BytesPerS float64 `json:"bytes_per_s"`
	Min       float64 `json:"min"`
	Max       float64 `json:"max"`
	Used      int     `json:"used"`
	Shapes    int     `json:"shapes"`
	Points    []struct {
		Shape       string  `json:"shape"`
		TP          int     `json:"moe_tp"`
		EP          int     `json:"moe_ep"`
		ExpertBytes float64 `json:"expert_bytes"`
		BytesPerS   float64 `json:"bytes_per_s"`
	} `json:"points"`
}

var moeStreams = func() []moeStreamEntry {
	var f struct {
		Entries []moeStreamEntry `json:"entries"`
	}
	if err := json.Unmarshal(moeStreamJSON, &f); err != nil {
		panic(fmt.Sprintf("moe_stream.json: %v", err))
	}
	return f.Entries
}()

// moeStreamFor is the entry of system, engine, table dtype and kernel
// (nil: none).
func moeStreamFor(system, engine, dtype, kernel string) *moeStreamEntry {
	for i := range moeStreams {
		e := &moeStreams[i]
		if e.System == system && e.Engine == engine && e.Dtype == dtype && e.Kernel == kernel {
			return e
		}
	}
	return nil
}

// moeStreamMajority is the entry of the kernel the table timed most for
// system, engine and dtype (nil: none).
func moeStreamMajority(system, engine, dtype string) *moeStreamEntry {
	var best *moeStreamEntry
	for i := range moeStreams {
		e := &moeStreams[i]
		if e.System == system && e.Engine == engine && e.Dtype == dtype && (best == nil || e.Used > best.Used) {
			best = e
		}
	}
	return best
}

// sglangNVFP4Kernel is the SGLang MoE runner the rate of SGLang's NVFP4
// experts is read from: FlashInfer's TRT-LLM NVFP4 MoE, which the
// aiconfigurator SGLang 0.5.14 tables time for every NVFP4 shape on the
// SM100 parts (b200_sxm, b300_sxm, gb200: kernel_source
// sglang_flashinfer_trtllm_moe). The collector sets the runner itself
// (collector/cases/base_ops/moe.yaml sglang_moe_backends, nvfp4: {100:
// flashinfer_trtllm, 103: flashinfer_trtllm, 120: flashinfer_cutlass}), so
// the table does not say what SGLang's auto choice is; that SGLang NVFP4
// deployments on SM100 run flashinfer_trtllm is the assumption the hand
// rate this file replaces (B300 only) made, kept and not re-verified
// here. On SM120 the table times flashinfer_cutlass; no rate there.
const sglangNVFP4Kernel = "sglang_flashinfer_trtllm_moe"

// vllmMXFP4Kernels are the vLLM 0.24.0 kernel_source names of gpt-oss's
// MXFP4 kernels, by the kernel vlaunch's release facts name
// (vllm.Release.MXFP4MoEBackend). aiconfigurator's vLLM collector
// (collector/vllm/collect_moe.py @095f58a5) builds every quantization
// mode through FusedMoE "so vLLM owns routing, TP/EP sharding, weight
// post-processing, and backend selection exactly as it does for model
// execution" and records vllm_<method>_<backend>_<experts>: here
// GptOssMxfp4MoE with the TRITON backend (OAITritonMxfp4Experts-
// Monolithic) on H100/H200 and FLASHINFER_TRTLLM_MXFP4_BF16 on B200/
// B300/GB200. So the vLLM tables time vLLM 0.24.0's own choice per dtype
// and GPU (fp8_block: Triton or FlashInfer-CUTLASS on Hopper, TRT-LLM on
// Blackwell; bf16: Triton on Hopper, TRT-LLM on Blackwell; nvfp4: TRT-LLM
// on Blackwell; the table's kernel_source per row), but vlaunch knows
// which kernel another release picks only for MXFP4; the other dtypes
// wait behind UseMeasuredMoEStreamUnpinned.
var vllmMXFP4Kernels = map[vllm.MXFP4MoEKernel]string{
	vllm.MXFP4MoETriton:           "vllm_gptossmxfp4moe_triton_oaitritonmxfp4expertsmonolithic",
	vllm.MXFP4MoEFlashInferTRTLLM: "vllm_gptossmxfp4moe_flashinfer_trtllm_mxfp4_bf16_trtllmmxfp4expertsmonolithic",
}

// moeStreamDtype is the table dtype the step model's weights dtype
// reads: FP8 is the fp8_block rows (vLLM's Fp8 MoE method, as MoECurves.
// FP8), MXFP4 gpt-oss's w4a16_mxfp4 rows.
var moeStreamDtype = map[string]string{"": "bfloat16", "bf16": "bfloat16", "fp16": "bfloat16", "fp8": "fp8_block", "nvfp4": "nvfp4", "mxfp4": "w4a16_mxfp4"}

// moeStreamSliceWindow is how far, in log2 of bytes, a table point's
// expert slice may lie from the deployment's for its slope to count
// (×2 either side), and moeStreamMinPoints the fewest points a window
// needs (fewer: the entry's median over every shape).
const (
	moeStreamSliceWindow = 1.0
	moeStreamMinPoints   = 3
)

// rateFor is the entry's rate for an expert slice of slice bytes: the
// median of its points whose slices lie within ×2 of it. The tables show
// small slices streaming slower (a fixed cost per expert the bytes do not
// amortise): b300_sxm SGLang NVFP4 runs 1 MiB slices at 4.4e12 B/s, 4 MiB
// at 6.6e12 and 16–32 MiB at 7.1e12 (point medians by power-of-two bin);
// H200's vLLM fp8_block Triton 3.3e12 at 1–2 MiB, 4.3e12 from 8 MiB.
func (e *moeStreamEntry) rateFor(slice float64) float64 {
	if slice <= 0 {
		return e.BytesPerS
	}
	var rs []float64
	for _, p := range e.Points {
		if p.ExpertBytes > 0 && math.Abs(math.Log2(p.ExpertBytes/slice)) <= moeStreamSliceWindow {
			rs = append(rs, p.BytesPerS)
		}
	}
	if len(rs) < moeStreamMinPoints {
		return e.BytesPerS
	}
	sort.Float64s(rs)
	n := len(rs)
	if n%2 == 1 {
		return rs[n/2]
	}
	return (rs[n/2-1] + rs[n/2]) / 2
}

// expertSlice is the bytes of one expert on a GPU: the whole expert under
// EP, its 1/EPSize share of the intermediate width when TP shards it.
func (sm *StepModel) expertSlice() float64 {
	if !sm.S.EP && sm.S.EPSize() > 1 {
		return sm.expertBytes / float64(sm.S.EPSize())
	}
	return sm.expertBytes
}

// expertStreamRate is the measured streaming rate for this deployment's
// experts (0: none, the fitted rate applies), at the table points whose
// expert slice is near this deployment's (rateFor). Only where the table
// timed the kernel the deployment runs:
//   - SGLang, NVFP4 experts: the SGLang table's flashinfer_trtllm rate
//     (sglangNVFP4Kernel) where the system's table has it;
//   - vLLM, MXFP4 (gpt-oss) experts, only with
//     UseMeasuredMoEStreamVLLMMXFP4: the rate of the kernel
//     MoECurves.MXFP4Kernel names, which ForRelease keeps only where the
//     release's own choice on this GPU (vllm.Release.MXFP4MoEBackend) is
//     that kernel (moeCurve is nil otherwise);
//   - vLLM, BF16, FP8 and NVFP4 experts: only with
//     UseMeasuredMoEStreamUnpinned (no release fact pins their kernel).
//
// Always with the measured fused-MoE curve in use (moeCurve: not
// DeepGEMM's experts under a point-to-point all-to-all).
func (sm *StepModel) expertStreamRate() float64 {
	e := sm.S.expertStream()
	if e == nil {
		return 0
	}
	return e.rateFor(sm.expertSlice())
}

// expertStream is the table entry expertStreamRate reads (nil: none).
func (s *StepSetup) expertStream() *moeStreamEntry {
	if !UseMeasuredMoEStream || s.moeCurve() == nil {
		return nil
	}
	sys := s.Eff.Kernels.System
	switch {
	case s.SGLang:
		if s.WeightDType == "nvfp4" {
			return moeStreamFor(sys, "sglang", "nvfp4", sglangNVFP4Kernel)
		}
	case s.WeightDType == "mxfp4" && UseMeasuredMoEStreamVLLMMXFP4:
		if k, ok := vllmMXFP4Kernels[s.Eff.Kernels.MoE.MXFP4Kernel]; ok {
			return moeStreamFor(sys, "vllm", "w4a16_mxfp4", k)
		}
	case UseMeasuredMoEStreamUnpinned:
		if d, ok := moeStreamDtype[s.WeightDType]; ok && !strings.Contains(d, "mxfp4") {
			return moeStreamMajority(sys, "vllm", d)
		}
	}
	return nil
}
