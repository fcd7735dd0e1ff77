package perf

import "sort"

// UseCustomARCurve prices a TP all-reduce inside one host by the measured
// latency curve of vLLM's custom all-reduce at the message's size and the
// group's GPU count (customARCurves), instead of the floor plus link-rate
// line (KernelFigures.AllReduceS, AllReduceLink) that the curve's own end
// points gave. Issue #28, session 40.
//
// Why: the line takes the curve's floor (its smallest message) and its bus
// bandwidth at 1 GiB and joins them; between the two the kernel is neither.
// vLLM's custom all-reduce runs one-shot below a size and two-shot above it
// (csrc/custom_all_reduce.cuh; the file was not read at a tag: the tables
// step between 128 and 256 KiB at 8 GPUs, 256 and 512 KiB at 4), and each
// two-shot call pays two barriers and two passes, so at decode sizes
// (16 KiB a token for a hidden size of 8192) the measured time is well above
// the line: on 8 H100s 10.8 µs at 256 KiB, 15.0 µs at 1 MiB and 19.4 µs at
// 2 MiB against the line's 5.6, 8.7 and 12.8 µs. On 8 B200s the two-shot
// step at 256–512 KiB is 26 µs against the line's 8.
//
// The curve is the same kernel in the same table the floor came from;
// where vLLM hands a size to another kernel (torch symmetric memory above
// CUSTOM_ALL_REDUCE_MAX_SIZES, 256 KiB on 8 Hopper GPUs and 1 MiB on 8
// B200s, vllm/distributed/device_communicators/all_reduce_utils.py) the
// figures cited for that kernel on H100s (vLLM PR #42324's
// benchmark_device_communicators.py run, symm_mem_multimem, world size 8
// inferred: 11, 14, 18 and 27 µs at 0.5, 1, 2 and 4 MiB) lie ~1–4 µs below the custom
// all-reduce's 12.0, 15.0, 19.4 and 30.8 µs, and well above the line: the
// curve stands for both (docs/calibration-analysis.md, "TP all-reduce at
// decode sizes").
var UseCustomARCurve = true

// customARSizes are the message sizes (bytes, BF16) of customARCurves'
// points: 8 KiB to 16 MiB by doubling.
var customARSizes = [...]float64{8 << 10, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10,
	512 << 10, 1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20}

// customARCurves are vLLM's custom all-reduce latencies in µs, CUDA-graph
// mode, per aiconfigurator system and GPU count, at customARSizes: ai-dynamo/
// aiconfigurator@095f58a5 aic-core/src/aiconfigurator_core/systems/data/<S>/
// comm/vllm/<v>/custom_allreduce_perf.parquet, rows kernel_source
// vLLM_custom_graph (v = 0.24.0; a100_sxm 0.14.0, the only release there),
// message_size in elements × 2 bytes. The tables' 4 KiB points are left out
// (one is a 14.8 µs outlier on 8 A100s); below 8 KiB the first point holds.
// Reproduce: git show the file at that commit, `go run ./tools/aicdata csv
// FILE OUT.csv`, keep vLLM_custom_graph rows of 8 KiB–16 MiB.
var customARCurves = map[string]map[int][len(customARSizes)]float64{
	"h100_sxm": {
		2: {4.38, 4.49, 4.44, 4.52, 4.75, 5.18, 6.32, 8.34, 12.4, 20.2, 45, 81.4},
		4: {4.81, 4.83, 4.9, 5.23, 5.8, 7.18, 11.4, 12.8, 18.6, 30.2, 53.5, 98.8},
		8: {5.11, 5.31, 5.58, 6.41, 7.86, 10.8, 12, 15, 19.4, 30.8, 50.7, 92.4},
	},
	"h200_sxm": {
		2: {4.64, 4.55, 4.62, 4.82, 4.82, 5.19, 6.34, 8.43, 12.4, 20.5, 43, 76.6},
		4: {4.77, 4.82, 4.92, 5.39, 5.81, 6.99, 10.5, 12.1, 17.8, 29.8, 51.8, 93.8},
		8: {5.14, 5.15, 5.67, 6.56, 7.94, 10.1, 11.1, 14.1, 18.1, 28.4, 48.4, 87.2},
	},
	"b200_sxm": {
		2: {6.99, 7.1, 7.01, 7.08, 7.4, 7.66, 9.44, 13.1, 25.3, 33.7, 50.6, 57.4},
		4: {7.13, 7.36, 7.39, 7.4, 8.06, 8.63, 18, 18.4, 23.8, 30, 43.2, 68},
		8: {7.82, 8.07, 8.22, 8.64, 9.36, 25.8, 26.1, 17.2, 20.7, 26.3, 39.2, 63.2},
	},
	"b300_sxm": {
		2: {7, 7.02, 6.91, 7.01, 7.58, 7.81, 9.59, 13.1, 19.7, 32.6, 45.6, 57},
		4: {7.07, 7.24, 7.14, 7.31, 8.07, 8.67, 17.8, 18.9, 27.4, 29.5, 41.9, 67.3},
		8: {7.41, 7.8, 8.18, 8.51, 9.38, 26, 26.2, 27.1, 29.1, 26.2, 38.4, 62.9},
	},
	"gb200": {
		2: {5.37, 5.37, 5.43, 5.44, 5.83, 6.6, 7.98, 10.1, 15.2, 24.7, 62.2, 115},
		4: {5.39, 5.4, 5.51, 5.63, 5.95, 6.96, 11.1, 12.5, 17.6, 25.5, 50.6, 77.6},
	},
	"a100_sxm": {
		2: {5.29, 5.34, 5.22, 5.5, 5.74, 6.57, 7.99, 10.7, 15.2, 25.2, 89.7, 126},
		4: {5.53, 6, 6, 6.57, 7.78, 9.91, 14.5, 18.3, 26, 41.5, 118, 182},
		8: {6.32, 6.54, 6.91, 8.43, 11.4, 17.1, 18.9, 21.7, 27.9, 45.4, 129, 214},
	},
}

// customARMaxBytes is the largest message vLLM's custom all-reduce takes
// (CustomAllreduce's max_size default, 8 MiB: vllm/distributed/
// device_communicators/custom_all_reduce.py); larger ones (a prefill's)
// go to symmetric memory or NCCL, which the floor-plus-link line keeps
// costing as before (StepModel.tpAllReduce), never below this size's cost.
const customARMaxBytes = 8 << 20

// customARTime is one custom all-reduce of msg bytes over n GPUs of the
// system, in seconds, kernel gap included: the curve of the fewest GPUs
// measured at or above n, linear between its points and flat below its
// first. false when the system or GPU count has no curve, or the message is
// above customARMaxBytes (the curve's last point, 16 MiB, is never read).
func customARTime(system string, n int, msg float64) (float64, bool) {
	curves, ok := customARCurves[system]
	if !ok || n < 2 || msg <= 0 || msg > customARMaxBytes {
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
