package perf

import "math"

// UseNCCLTables switches the measured NCCL latencies (NCCLFigures) on for
// the NCCL collectives inside one host: the MoE gather exchange
// (allgather_reducescatter's all-gather and reduce-scatter, the naive
// backend's broadcasts and all-reduce) and a TP all-reduce that vLLM's
// custom all-reduce does not serve. Off, or on a GPU without tables, they
// keep the first-principles link model (LinkTime with per-hop latency and
// CollectiveS). Read when a step is priced.
//
// On since 2026-12-06, without a refit: the replay rows it reaches (TP 1
// gathers inside one B200 host: vllm-issue23752 c8/c9, sglang-pr9359)
// move by under 2% (TPOT 16.9 → 17.2 ms against 41 measured; the 8-GPU
// all-gather + reduce-scatter floors, 16 + 16 µs, are close to the link
// model's 7 hops × 2 µs + CollectiveS per phase); calibration 140 / 160,
// holdout 85 / 208 and the anchors unchanged; a one-dimensional refit of
// collective_s moves the criterion 0.2713 → 0.2712 (not adopted).
var UseNCCLTables = true

// UseNaiveA2A prices vLLM's naive all-to-all backend as what it runs
// (vllm.Kernels.NaiveBroadcast: 2 × DP broadcasts and one all-reduce of the
// gathered buffer per MoE layer) instead of as allgather_reducescatter.
// Read when a step is priced. On since 2026-12-06: no replay row runs it
// (rows without a release replay on the newest, whose default is
// allgather_reducescatter); on vllm-issue23752's DeepSeek-R1 DP 8 + EP 8
// on B200, replayed as 0.10.1 (naive by default), TPOT c8 / c9 would be
// 33.1 / 32.8 ms against 41 / 45 measured (−19 / −27%), against 17.2 / 16.8
// as allgather_reducescatter — but that deployment ran neither: its file
// sets VLLM_ALL2ALL_BACKEND=deepep_low_latency (read in ep45, recorded in
// published/throughput.yaml), which replays at 20.6 / 20.3 ms (ep45).
var UseNaiveA2A = true

// NCCLPoint is one NCCL collective's measured latency on GPUs GPUs of one
// node, nccl-tests' out-of-place time of half-precision buffers: MinUs at
// the smallest message, then at 16 KiB, 1 MiB and 16 MiB, and the bus
// bandwidth BusGBps reached at the largest message (nccl-tests' busbw:
// size / time × 2(n−1)/n for all-reduce, × (n−1)/n for the others). The
// size is nccl-tests' -b/-e size: the message of an all-reduce, the whole
// gathered output of an all-gather, the whole input of a reduce-scatter.
type NCCLPoint struct {
	GPUs                            int
	MinUs, At16KUs, At1MUs, At16MUs float64
	BusGBps                         float64
}

// NCCLFigures are one GPU's measured NCCL collectives by GPU count
// (ascending). Read by tools/aicdata derive from aiconfigurator's
// nccl-tests tables (repository ai-dynamo/aiconfigurator, commit
// 095f58a51c4c, aic-core/src/aiconfigurator_core/systems/data/<system>/
// comm/nccl/<v>/nccl_perf.parquet: NCCL 2.29.2, 2.27.3 on A100;
// collector/network/collect_nccl.py runs all_reduce_perf, all_gather_perf,
// reduce_scatter_perf and alltoall_perf with -t <gpus> threads, eager
// launches, no CUDA graphs), derived.json → systems.<system>.nccl; the
// figures are as tools/aicdata/README.md prints them ("All-reduce", "Other
// NCCL collectives"), and TestMeasuredKernelsAreTheDerivedFigures holds
// them equal. There is no broadcast table.
type NCCLFigures struct {
	AllReduce, AllGather, ReduceScatter []NCCLPoint
}

// ncclOp names a collective of NCCLFigures.
type ncclOp int

const (
	ncclAllReduce ncclOp = iota
	ncclAllGather
	ncclReduceScatter
)

// busFactor converts a collective's nccl-tests size into the bytes each
// GPU moves over its link: 2(n−1)/n for an all-reduce, (n−1)/n for the
// gathers.
func (o ncclOp) busFactor(n int) float64 {
	f := float64(n-1) / float64(n)
	if o == ncclAllReduce {
		return 2 * f
	}
	return f
}

func (f *NCCLFigures) points(o ncclOp) []NCCLPoint {
	switch o {
	case ncclAllGather:
		return f.AllGather
	case ncclReduceScatter:
		return f.ReduceScatter
	}
	return f.AllReduce
}

// at is the measured latency in seconds of a collective of size bytes on
// the point's GPUs: linear in bytes between the measured sizes (0 → the
// floor, 16 KiB, 1 MiB, 16 MiB; each knot at least the one before, since
// the tables are not quite monotone at small sizes), then the 16 MiB
// latency plus the further bus bytes at the largest message's bandwidth.
func (p NCCLPoint) at(o ncclOp, bytes float64) float64 {
	xs := [4]float64{0, 16 << 10, 1 << 20, 16 << 20}
	ys := [4]float64{p.MinUs, p.At16KUs, p.At1MUs, p.At16MUs}
	for i := 1; i < len(ys); i++ {
		ys[i] = max(ys[i], ys[i-1])
	}
	bytes = max(0, bytes)
	if bytes >= xs[3] {
		return ys[3]*1e-6 + (bytes-xs[3])*o.busFactor(p.GPUs)/(p.BusGBps*1e9)
	}
	for i := 1; i < len(xs); i++ {
		if bytes <= xs[i] {
			f := (bytes - xs[i-1]) / (xs[i] - xs[i-1])
			return (ys[i-1]*(1-f) + ys[i]*f) * 1e-6
		}
	}
	return ys[3] * 1e-6
}

// time is the measured latency of collective o of size bytes over n GPUs
// of one node: the table's row for n, or between the two rows around it
// linear in log2 n; false where n is beyond the rows (a GB200 tray holds
// 4) or the figures are absent.
func (f *NCCLFigures) time(o ncclOp, n int, bytes float64) (float64, bool) {
	if f == nil || n < 2 {
		return 0, false
	}
	pts := f.points(o)
	for i, p := range pts {
		if p.GPUs == n {
			return p.at(o, bytes), true
		}
		if p.GPUs > n && i > 0 {
			a, b := pts[i-1], p
			w := math.Log2(float64(n)/float64(a.GPUs)) / math.Log2(float64(b.GPUs)/float64(a.GPUs))
			return a.at(o, bytes)*(1-w) + b.at(o, bytes)*w, true
		}
	}
	return 0, false
}

// ncclTime is collective o of size bytes over n GPUs inside one host,
// from the GPU's measured tables when UseNCCLTables is on and they cover
// n GPUs.
func (s *StepSetup) ncclTime(o ncclOp, n int, bytes float64) (float64, bool) {
	if !UseNCCLTables || n > s.HW.hostGPUs() {
		return 0, false
	}
	return s.Eff.Kernels.NCCL.time(o, n, bytes)
}

// ncclFirstPrinciples is a collective inside one node by the link model:
// the bytes each GPU sends (bus bytes) over NVLink at Link, plus one
// collective's fixed cost (two link latencies and CollectiveS), as a TP
// all-reduce without measured figures is priced.
func (s *StepSetup) ncclFirstPrinciples(busBytes float64) float64 {
	return LinkTime(busBytes, s.HW.IntraBytesPerS, s.Eff.Link, 1, 2*s.HW.IntraLatencyS+s.Eff.CollectiveS)
}

// Measured NCCL figures by aiconfigurator system (µs, GB/s as
// tools/aicdata/README.md prints them; rows at 2, 4 and 8 GPUs, GB200's
// trays at 2 and 4). PCIe systems (L40S, RTX Pro 6000) are left out like
// their custom all-reduce: their multi-GPU tables are suspect (L40S's look
// like no P2P) and the link model costs them.
var (
	ncclH100 = NCCLFigures{
		AllReduce:     []NCCLPoint{{2, 5.85, 7.27, 14.7, 82.2, 318}, {4, 9.31, 12.5, 18.1, 99, 350}, {8, 15.6, 19, 25.4, 122, 445}},
		AllGather:     []NCCLPoint{{2, 5.14, 6.24, 11.3, 56, 258}, {4, 7.07, 8.51, 13.6, 66.2, 318}, {8, 10.1, 11.2, 17.1, 68.9, 335}},
		ReduceScatter: []NCCLPoint{{2, 5.14, 5.95, 10.7, 53.2, 249}, {4, 6.99, 7.91, 11.6, 59.3, 310}, {8, 10.2, 10.9, 14.6, 69.7, 336}},
	}
	ncclH200 = NCCLFigures{
		AllReduce:     []NCCLPoint{{2, 6.01, 7.27, 14.3, 76.2, 315}, {4, 9.44, 10.9, 18.1, 98.8, 348}, {8, 16, 18.3, 26.1, 122, 460}},
		AllGather:     []NCCLPoint{{2, 5.08, 6.11, 11.3, 54.1, 258}, {4, 7.13, 8.57, 13.5, 63.9, 317}, {8, 10.3, 12.3, 17, 66.9, 337}},
		ReduceScatter: []NCCLPoint{{2, 5.16, 6.01, 10.4, 50.6, 248}, {4, 7.11, 7.91, 11.7, 58, 311}, {8, 10.2, 13.3, 14.4, 69.5, 337}},
	}
	ncclB200 = NCCLFigures{
		AllReduce:     []NCCLPoint{{2, 10.2, 11, 14.2, 53.4, 534}, {4, 15, 16, 19, 95.8, 634}, {8, 25.1, 26.6, 30.1, 99.1, 704}},
		AllGather:     []NCCLPoint{{2, 8.7, 9.8, 12.7, 37.5, 438}, {4, 11.1, 13.6, 14.9, 57.9, 567}, {8, 16.1, 19.5, 18.7, 104, 617}},
		ReduceScatter: []NCCLPoint{{2, 8.56, 9.89, 12, 37.8, 412}, {4, 11.1, 12, 14.2, 54.7, 552}, {8, 16.1, 17.1, 20.4, 97, 613}},
	}
	ncclB300 = NCCLFigures{
		AllReduce:     []NCCLPoint{{2, 9.65, 11.1, 14.6, 52.3, 544}, {4, 14.3, 17.2, 18.9, 94.6, 638}, {8, 24.6, 26, 28.5, 97.6, 704}},
		AllGather:     []NCCLPoint{{2, 7.8, 8.33, 12, 36.9, 444}, {4, 10.5, 11.7, 14.7, 56.9, 572}, {8, 15.7, 16.7, 19.1, 100, 621}},
		ReduceScatter: []NCCLPoint{{2, 7.97, 9.42, 11.6, 36.6, 416}, {4, 10.7, 11.3, 13.7, 53.6, 558}, {8, 15.9, 16.7, 18.6, 95.4, 614}},
	}
	ncclGB200 = NCCLFigures{
		AllReduce:     []NCCLPoint{{2, 10.9, 11.6, 14.5, 53.9, 530}, {4, 15.6, 16.8, 19.7, 100, 628}},
		AllGather:     []NCCLPoint{{2, 9.36, 10.3, 12.9, 38.2, 437}, {4, 11.7, 12.7, 15.1, 59.2, 564}},
		ReduceScatter: []NCCLPoint{{2, 9.38, 9.9, 12.5, 37.7, 409}, {4, 11.8, 12.5, 14.6, 55.6, 549}},
	}
	ncclA100 = NCCLFigures{
		AllReduce:     []NCCLPoint{{2, 9.98, 12.8, 40.8, 128, 193}, {4, 13.9, 16.3, 29.8, 184, 217}, {8, 21.3, 22.6, 38.9, 217, 222}},
		AllGather:     []NCCLPoint{{2, 8.98, 11.4, 20, 93.4, 150}, {4, 10.8, 13.9, 22.5, 119, 192}, {8, 14.6, 15.8, 26.8, 135, 205}},
		ReduceScatter: []NCCLPoint{{2, 8.9, 11.2, 19.4, 82.3, 167}, {4, 10.7, 12.6, 21.1, 109, 203}, {8, 14.5, 15.1, 23.4, 123, 213}},
	}
)
