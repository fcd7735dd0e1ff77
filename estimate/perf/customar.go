package perf

import (
	"sort"

	"github.com/vlaunch/vlaunch/vllm"
)

// UseCustomARCurve prices a TP all-reduce inside one host by the measured
// latency curve of vLLM's custom all-reduce at the message's size and the
// group's GPU count (customARCurves), instead of the floor plus link-rate
// line (KernelFigures.AllReduceS, AllReduceLink) that the curve's own end
// points gave. Issue #28, session 40.
//
// Why: the line takes the curve's floor (its smallest message) and its bus
// bandwidth at 1 GiB and joins them; between the two the kernels are
// neither: on 8 H100s the measured time is 10.8 µs at 256 KiB, 15.0 µs at
// 1 MiB and 19.4 µs at 2 MiB against the line's 5.6, 8.7 and 12.8 µs; on
// 8 B200s the custom all-reduce's 256–512 KiB are 26 µs against 8.
//
// What the curve measures (read in session 41, customARTables): vLLM's
// whole dispatch, not the custom kernel alone. The step on 8 H100s between
// 128 and 256 KiB (session 40 read it as the kernel's one-shot/two-shot
// switch) is CUSTOM_ALL_REDUCE_MAX_SIZES' hand-off to torch symmetric
// memory's multimem at 256 KiB (vllm.Release.TPAllReduce); vLLM PR
// #42324's symm_mem_multimem figures on H100s (world size 8 inferred: 11,
// 14, 18 and 27 µs at 0.5, 1, 2 and 4 MiB) agree with the 0.19.0/0.24.0
// tables' 11.9–12.0, 14.8–15.0, 19.4 and 30.6–30.8 within 1–4 µs
// (docs/calibration-analysis.md, "TP all-reduce at decode sizes").
var UseCustomARCurve = true

// customARSizes are the message sizes (bytes, BF16) of customARCurves'
// points: 8 KiB to 16 MiB by doubling.
var customARSizes = [...]float64{8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10,
	512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20}

// customARCurves are the newest of customARTables per system: what a
// deployment whose release is not known is priced with (as before
// UseTPARPerRelease).
var customARCurves = newestARCurves()

// arTable is one aiconfigurator table of vLLM's all-reduce: the release it
// was measured with and its curve per GPU count at customARSizes (µs).
type arTable struct {
	release string
	curves  map[int][len(customARSizes)]float64
}

// customARTables are vLLM's TP all-reduce latencies in µs, CUDA-graph
// mode, per aiconfigurator system and the vLLM release measured, at
// customARSizes: ai-dynamo/aiconfigurator@095f58a5 aic-core/src/
// aiconfigurator_core/systems/data/<S>/comm/vllm/<v>/
// custom_allreduce_perf.parquet, rows kernel_source vLLM_custom_graph,
// message_size in elements × 2 bytes; releases ascending. The tables' 4 KiB
// points are left out (one is a 14.8 µs outlier on 8 A100s); below 8 KiB
// the first point holds. Reproduce: git show the file at that commit,
// `go run ./tools/aicdata csv FILE OUT.csv`, keep vLLM_custom_graph rows of
// 8 KiB–16 MiB.
//
// The collector (collector/network/collect_all_reduce.py
// benchmark_vllm_allreduce at 095f58a5) times vLLM's
// tensor_model_parallel_all_reduce inside graph_capture, so each table is
// the release's whole dispatch (vllm.Release.TPAllReduce), not the custom
// kernel alone: on 8 H100s the step between 128 and 256 KiB is
// CUSTOM_ALL_REDUCE_MAX_SIZES' 256 KiB hand-off to torch symmetric
// memory's multimem; on 8 B200s the custom all-reduce's two-shot runs to
// 1 MiB (25.8–26.1 µs at 256–512 KiB) and multimem takes 1 MiB at 17.2; on
// 8 B300s (10.3, 4 MiB) the same at 4 MiB. The 0.14.0 tables (torch 2.9.1)
// price symmetric memory higher than the 0.18.0/0.19.0 ones (torch 2.10,
// from vLLM 0.17.0; requirements/cuda.txt): on 8 H100s 14.7, 15.6, 17.3,
// 20.9 and 34.5 µs at 256 KiB–4 MiB against 10.7, 11.9, 14.8, 19.4 and
// 30.6; vLLM's dispatch for 9.0 did not change between them (read at the
// tags), so the kernel under it did.
var customARTables = map[string][]arTable{
	"h100_sxm": {
		{"0.14.0", map[int][len(customARSizes)]float64{
			2: {4.42, 4.44, 4.5, 4.59, 4.8, 5.13, 6.26, 8.39, 12.5, 20.3, 50, 78.5},
			4: {4.79, 4.88, 4.97, 5.31, 5.84, 7.1, 11.4, 12.8, 18.6, 30.5, 63.3, 101},
			8: {4.94, 5.17, 5.44, 6.31, 7.72, 14.7, 15.6, 17.3, 20.9, 34.5, 77.3, 122},
		}},
		{"0.19.0", map[int][len(customARSizes)]float64{
			2: {4.36, 4.41, 4.41, 4.52, 4.75, 5.16, 6.29, 8.3, 12.4, 20.2, 45.5, 82.3},
			4: {4.77, 4.86, 4.85, 5.23, 5.83, 7.12, 11.2, 12.6, 18.5, 30.4, 53.2, 98.7},
			8: {4.98, 5.2, 5.45, 6.35, 7.78, 10.7, 11.9, 14.8, 19.4, 30.6, 50.7, 92.4},
		}},
		{"0.24.0", map[int][len(customARSizes)]float64{
			2: {4.38, 4.49, 4.44, 4.52, 4.75, 5.18, 6.32, 8.34, 12.4, 20.2, 45, 81.4},
			4: {4.81, 4.83, 4.9, 5.23, 5.8, 7.18, 11.4, 12.8, 18.6, 30.2, 53.5, 98.8},
			8: {5.11, 5.31, 5.58, 6.41, 7.86, 10.8, 12, 15, 19.4, 30.8, 50.7, 92.4},
		}},
	},
	"h200_sxm": {
		{"0.14.0", map[int][len(customARSizes)]float64{
			2: {4.56, 4.51, 4.57, 4.73, 4.79, 5.1, 6.31, 8.32, 12.4, 20.4, 48.4, 76.8},
			4: {4.71, 4.79, 4.95, 5.34, 5.82, 6.96, 10.5, 12, 17.8, 29.9, 61.8, 98.4},
			8: {5.07, 5.3, 5.77, 6.6, 8.13, 19.3, 19.6, 43.9, 38.8, 52.1, 80.8, 121},
		}},
		{"0.18.0", map[int][len(customARSizes)]float64{
			2: {4.53, 4.56, 4.56, 4.71, 4.78, 5.1, 6.3, 8.38, 12.5, 20.4, 42.9, 76.2},
			4: {4.74, 4.84, 5.08, 5.34, 5.88, 7.01, 10.5, 12, 17.8, 29.9, 51.6, 93.2},
			8: {5.07, 5.26, 5.73, 6.58, 8.06, 10, 11.2, 14, 18.4, 28.6, 53.7, 87.2},
		}},
		{"0.19.0", map[int][len(customARSizes)]float64{
			2: {4.52, 4.52, 4.55, 4.73, 4.76, 5.13, 6.31, 8.31, 12.4, 20.4, 43, 76.4},
			4: {4.73, 4.78, 4.96, 5.4, 5.82, 7, 10.5, 12, 17.8, 29.7, 52, 93.7},
			8: {4.99, 5.23, 5.68, 6.47, 7.96, 9.88, 11.1, 14.1, 18.3, 28.7, 48.6, 87.2},
		}},
		{"0.24.0", map[int][len(customARSizes)]float64{
			2: {4.64, 4.55, 4.62, 4.82, 4.82, 5.19, 6.34, 8.43, 12.4, 20.5, 43, 76.6},
			4: {4.77, 4.82, 4.92, 5.39, 5.81, 6.99, 10.5, 12.1, 17.8, 29.8, 51.8, 93.8},
			8: {5.14, 5.15, 5.67, 6.56, 7.94, 10.1, 11.1, 14.1, 18.1, 28.4, 48.4, 87.2},
		}},
	},
	"b200_sxm": {
		{"0.19.0", map[int][len(customARSizes)]float64{
			2: {6.98, 7.27, 7.01, 7.06, 7.44, 7.77, 9.47, 13.1, 25.4, 34.6, 45.4, 57.6},
			4: {7.39, 7.57, 7.77, 7.79, 8.21, 8.66, 18.1, 19, 23.8, 29.8, 43.5, 67.8},
			8: {7.95, 8.22, 8.24, 8.65, 9.44, 26, 26, 16.7, 20.7, 26.6, 38.9, 62.4},
		}},
		{"0.24.0", map[int][len(customARSizes)]float64{
			2: {6.99, 7.1, 7.01, 7.08, 7.4, 7.66, 9.44, 13.1, 25.3, 33.7, 50.6, 57.4},
			4: {7.13, 7.36, 7.39, 7.4, 8.06, 8.63, 18, 18.4, 23.8, 30, 43.2, 68},
			8: {7.82, 8.07, 8.22, 8.64, 9.36, 25.8, 26.1, 17.2, 20.7, 26.3, 39.2, 63.2},
		}},
	},
	"b300_sxm": {
		{"0.19.0", map[int][len(customARSizes)]float64{
			2: {7.01, 7.01, 6.87, 7.02, 7.48, 7.63, 9.49, 13.1, 19.7, 39, 45.5, 57.2},
			4: {7.04, 7.26, 7.01, 7.29, 8.08, 8.71, 17.8, 18.9, 27.5, 29, 41.1, 66.8},
			8: {7.48, 7.81, 8.19, 8.23, 9.41, 26.2, 26.4, 27.3, 29.2, 25.4, 38.2, 62.4},
		}},
		{"0.24.0", map[int][len(customARSizes)]float64{
			2: {7, 7.02, 6.91, 7.01, 7.58, 7.81, 9.59, 13.1, 19.7, 32.6, 45.6, 57},
			4: {7.07, 7.24, 7.14, 7.31, 8.07, 8.67, 17.8, 18.9, 27.4, 29.5, 41.9, 67.3},
			8: {7.41, 7.8, 8.18, 8.51, 9.38, 26, 26.2, 27.1, 29.1, 26.2, 38.4, 62.9},
		}},
	},
	"gb200": {
		{"0.14.0", map[int][len(customARSizes)]float64{
			2: {7.21, 7.27, 7.04, 7, 7.43, 7.95, 9.93, 13.5, 18.9, 38, 43.9, 55.7},
			4: {7.8, 7.89, 7.65, 7.75, 8.07, 8.77, 18.6, 21, 24.7, 37.8, 51.8, 80},
		}},
		{"0.19.0", map[int][len(customARSizes)]float64{
			2: {4.75, 4.57, 4.55, 4.58, 5.89, 6.68, 7.85, 9.72, 15, 24.5, 62.4, 110},
			4: {5.34, 5.36, 5.59, 5.48, 5.96, 6.87, 11.1, 12.5, 17.6, 25.4, 50.4, 77.6},
		}},
		{"0.24.0", map[int][len(customARSizes)]float64{
			2: {5.37, 5.37, 5.43, 5.44, 5.83, 6.6, 7.98, 10.1, 15.2, 24.7, 62.2, 115},
			4: {5.39, 5.4, 5.51, 5.63, 5.95, 6.96, 11.1, 12.5, 17.6, 25.5, 50.6, 77.6},
		}},
	},
	"a100_sxm": {
		{"0.14.0", map[int][len(customARSizes)]float64{
			2: {5.29, 5.34, 5.22, 5.5, 5.74, 6.57, 7.99, 10.7, 15.2, 25.2, 89.7, 126},
			4: {5.53, 6, 6, 6.57, 7.78, 9.91, 14.5, 18.3, 26, 41.5, 118, 182},
			8: {6.32, 6.54, 6.91, 8.43, 11.4, 17.1, 18.9, 21.7, 27.9, 45.4, 129, 214},
		}},
	},
}

// fusedARCurves are TensorRT-LLM's all-reduce latencies in µs (CUDA graph,
// strategy AUTO with the autotuner off, so its Lamport one-/two-shot
// kernels: collect_all_reduce.py benchmark_trtllm_allreduce), per system
// and GPU count at customARSizes: aiconfigurator@095f58a5 systems/data/<S>/
// comm/trtllm/1.3.0rc20/custom_allreduce_perf.parquet. They price the
// all-reduce of FlashInfer's fused all-reduce + RMSNorm
// (vllm.TPARFlashInferFused): FlashInfer's trtllm_allreduce_fusion is the
// port of TRT-LLM's allReduceFusion kernels (assumed equal in time; the
// RMSNorm epilogue reads and writes tokens × hidden × 2 B a few times, well
// under 1 µs at decode sizes, left out). No table measures FlashInfer's
// fused op inside vLLM.
var fusedARCurves = map[string]map[int][len(customARSizes)]float64{
	"h100_sxm": {
		2: {2.8, 2.85, 2.92, 3.06, 3.29, 3.76, 4.52, 6.1, 9.41, 17.1, 37.5, 78.5},
		4: {3.14, 3.27, 3.44, 3.68, 4.26, 5.48, 7.92, 12.9, 26.1, 39.7, 63.8, 101},
		8: {3.54, 3.56, 3.84, 4.59, 6.2, 10.2, 17.6, 26, 35.5, 51.9, 79.4, 122},
	},
	"h200_sxm": {
		2: {2.8, 2.83, 2.84, 2.95, 3.14, 3.59, 4.34, 5.99, 9.17, 16.6, 34.4, 70.5},
		4: {3.18, 3.21, 3.32, 3.61, 4.18, 5.43, 7.73, 12.8, 21.9, 35.9, 57.8, 99.8},
		8: {3.5, 3.49, 3.9, 4.58, 6.39, 10.1, 17.8, 25.7, 30.5, 47.5, 76.7, 121},
	},
	"b200_sxm": {
		2: {4.78, 5.22, 5.19, 5.15, 5.14, 4.99, 5.38, 6.42, 8.02, 11.9, 20.8, 44.3},
		4: {5.07, 5.52, 5.43, 5.39, 5.36, 5.79, 7.15, 9.66, 14.6, 26.8, 47.1, 72.7},
		8: {5.64, 5.93, 6.09, 5.99, 6.34, 7.93, 10.9, 17.8, 30.4, 39.4, 55.4, 84.8},
	},
	"b300_sxm": {
		2: {4.71, 5.09, 5.07, 4.98, 5.01, 5.02, 5.39, 6.21, 7.84, 11.5, 20.9, 43.3},
		4: {4.62, 5.1, 5.34, 5.38, 5.39, 5.82, 7.07, 9.51, 14.4, 26.2, 47.2, 72.3},
		8: {5.39, 5.78, 5.82, 5.84, 6.29, 7.62, 10.7, 17.4, 29.8, 39.3, 55.5, 83.2},
	},
	"gb200": {
		2: {4.01, 4.54, 4.53, 4.56, 4.55, 4.62, 5.19, 6, 7.87, 11.6, 20.8, 43.9},
		4: {4.9, 4.95, 5.01, 4.99, 5.13, 5.69, 7.01, 9.47, 14.6, 26.8, 49.4, 74.8},
	},
}

// newestARCurves is each system's newest table of customARTables.
func newestARCurves() map[string]map[int][len(customARSizes)]float64 {
	out := make(map[string]map[int][len(customARSizes)]float64, len(customARTables))
	for sys, ts := range customARTables {
		out[sys] = ts[len(ts)-1].curves
	}
	return out
}

// customARReleases are customARTables' releases parsed once, by system and
// table index: customARCurvesAt runs at every simulated step, and parsing
// there (a regexp per table per step) was a third of a P/D calibration's
// CPU (ci42's profile). A release that does not parse is absent.
var customARReleases = parseARReleases()

func parseARReleases() map[string]map[int]vllm.Version {
	out := make(map[string]map[int]vllm.Version, len(customARTables))
	for sys, ts := range customARTables {
		out[sys] = make(map[int]vllm.Version, len(ts))
		for i, t := range ts {
			if v, err := vllm.ParseVersion(t.release); err == nil {
				out[sys][i] = v
			}
		}
	}
	return out
}

// customARCurvesAt is the system's table measured at the newest release at
// or before rel (the oldest when rel predates them all). known false: the
// newest table.
func customARCurvesAt(system string, rel vllm.Version, known bool) (map[int][len(customARSizes)]float64, string) {
	ts := customARTables[system]
	if len(ts) == 0 {
		return nil, ""
	}
	pick := ts[len(ts)-1]
	if known {
		pick = ts[0]
		for i, t := range ts {
			if v, ok := customARReleases[system][i]; ok && !rel.Less(v) {
				pick = t
			}
		}
	}
	return pick.curves, pick.release
}

// customARMaxBytes is the largest message vLLM's custom all-reduce takes
// (CustomAllreduce's max_size default, 8 MiB: vllm/distributed/
// device_communicators/custom_all_reduce.py); larger ones (a prefill's)
// go to symmetric memory or NCCL, which the floor-plus-link line keeps
// costing as before (StepModel.tpAllReduce), never below this size's cost.
const customARMaxBytes = 8 << 20

// customARTime is one all-reduce of msg bytes over n GPUs of the system
// by its newest table, in seconds, kernel gap included (curveTime).
func customARTime(system string, n int, msg float64) (float64, bool) {
	return curveTime(customARCurves[system], n, msg)
}

// curveTime is one all-reduce of msg bytes over n GPUs on curves, in
// seconds, kernel gap included: the curve of the fewest GPUs measured at or
// above n, linear between its points and flat below its first. false when
// there is no curve for n, or the message is above customARMaxBytes (the
// curve's last point, 16 MiB, is never read).
func curveTime(curves map[int][len(customARSizes)]float64, n int, msg float64) (float64, bool) {
	if len(curves) == 0 || n < 2 || msg <= 0 || msg > customARMaxBytes {
		return 0, false
	}
	counts := make([]int, 0, len(curves))
	for c := range curves {
		counts = append(counts, c)
	}
	sort.Ints(counts)
	i := sort.SearchInts(counts, n)
	if i == len(counts) {
		return 0, false
	}
	pts := curves[counts[i]]
	if msg <= customARSizes[0] {
		return pts[0] * 1e-6, true
	}
	j := sort.SearchFloat64s(customARSizes[:], msg) // customARSizes[j-1] < msg ≤ customARSizes[j]
	x0, x1 := customARSizes[j-1], customARSizes[j]
	f := (msg - x0) / (x1 - x0)
	return (pts[j-1] + f*(pts[j]-pts[j-1])) * 1e-6, true
}

// UseTPARPerRelease picks the TP all-reduce's kernel as the deployment's
// vLLM release does (vllm.Release.TPAllReduce) and prices it from the
// table measured nearest that release (customARCurvesAt), or from
// TensorRT-LLM's table where the release fuses the all-reduce with the
// next RMSNorm (fusedARCurves, from 0.17.0 on Hopper and Blackwell at the
// fusion's sizes; the norm's kernel then goes from the step's count).
// Issue #28, session 41. False: the newest table for every release, no
// fusion (session 40).
var UseTPARPerRelease = true

// tparChoice is the kernel the deployment's release picks for one TP
// all-reduce of msg bytes (Known false: none read).
func (sm *StepModel) tparChoice(msg float64) (vllm.TPARChoice, bool) {
	s := &sm.S
	if !UseTPARPerRelease || !s.TPAR.Known {
		return vllm.TPARChoice{}, false
	}
	return s.TPAR.Release.TPAllReduce(vllm.TPARQuery{
		TP: s.TP, NVIDIA: true, SM: s.TPAR.SM, NVSwitch: s.HW.IntraLink == "nvlink",
		Compiled: s.CUDAGraphs && !s.EnforceEager, Bytes: msg,
		MaxBatchedTokens: s.TPAR.MaxBatchedTokens, Hidden: int(sm.hidden),
	}), true
}

// fusedAR is one fused all-reduce + RMSNorm of msg bytes, kernel gap
// included, where the release fuses it and a table measures the system.
func (sm *StepModel) fusedAR(system string, msg float64) (float64, bool) {
	if m := sm.S.Model; m != nil && m.DSV4 != nil {
		// DeepSeek-V4's all-reduces feed its hyper-connections' mixing
		// (mHC), not an RMSNorm: the pass's all-reduce → RMSNorm pattern
		// has nothing to match there (assumed from the layer's structure,
		// mhc.go; the compiled graph was not read).
		return 0, false
	}
	c, ok := sm.tparChoice(msg)
	if !ok || c.Kernel != vllm.TPARFlashInferFused {
		return 0, false
	}
	return curveTime(fusedARCurves[system], sm.S.TP, msg)
}

// arCurves is the system's all-reduce table for the deployment's release
// (the newest one when the release is not known or UseTPARPerRelease is
// off).
func (sm *StepModel) arCurves(system string) map[int][len(customARSizes)]float64 {
	s := &sm.S
	// Before torch symmetric memory took the large messages (0.11.0) the
	// custom all-reduce ran them itself: no table measures that, and the
	// newest table stands in as before.
	perRelease := UseTPARPerRelease && s.TPAR.Known && s.TPAR.Release.TorchSymmMemAllReduce()
	c, _ := customARCurvesAt(system, s.TPAR.Release.Version, perRelease)
	return c
}
