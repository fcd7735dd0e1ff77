package main

import (
	"fmt"
	"math"
	"sort"
)

// Row types of the derived JSON. Fractions are of the systems YAML's
// datasheet figure; latencies are microseconds.

type GemmComputeRow struct {
	M         int     `json:"m"`
	MedFrac   float64 `json:"median_frac_peak"`
	MaxFrac   float64 `json:"max_frac_peak"`
	MedLatUs  float64 `json:"median_latency_us"`
	NumShapes int     `json:"shapes"`
}

type GemmMemRow struct {
	WeightMiB string  `json:"weight_MiB"`
	MedFrac   float64 `json:"median_frac_hbm"`
	MaxFrac   float64 `json:"max_frac_hbm"`
	MedLatUs  float64 `json:"median_latency_us"`
	MinLatUs  float64 `json:"min_latency_us"`
	N         int     `json:"rows"`
}

type GemmDtype struct {
	Kernels []string           `json:"kernel_sources"`
	Compute []GemmComputeRow   `json:"compute_NK_4096_16384"`
	Memory  []GemmMemRow       `json:"memory_m_le_16"`
	FitM1   map[string]float64 `json:"fit_m1_weight_ge_32MiB"`
	FloorUs float64            `json:"min_latency_us"`
	// Check scores two roofline recipes against every row of the table
	// (in-sample: the per-GPU recipe's figures come from this same table).
	Check map[string]map[string]float64 `json:"roofline_check,omitempty"`
}

// Current vlaunch defaults (estimate/perf/perf_constants.go on main at the
// time of writing), used as the "global" recipe in the roofline check.
const (
	globalGEMM   = 0.7116
	globalHBM    = 0.80
	globalGapSec = 2.5e-6
)

// roofCheck predicts each row as t0 + max(FLOPs/(ec·peak), bytes/(em·BW)),
// bytes = (M·K + N·K)·bytes_in + M·N·2, and returns the median and 90th
// percentile of |pred/meas − 1| and the median pred/meas, over all rows and
// over rows with M ≤ 64; rows with N or K below 1024 are left out.
func roofCheck(t *Table, rows []int, peak, bw, bpe, ec, em, t0 float64) map[string]float64 {
	var all, small, ratio []float64
	for _, i := range rows {
		m, n, k := t.Num(i, "m"), t.Num(i, "n"), t.Num(i, "k")
		if n < 1024 || k < 1024 {
			continue // model-sized layers only
		}
		meas := t.Num(i, "latency") * 1e-3
		bytes := (m*k+n*k)*bpe + m*n*2
		pred := t0 + math.Max(2*m*n*k/(ec*peak), bytes/(em*bw))
		e := math.Abs(pred/meas - 1)
		all = append(all, e)
		ratio = append(ratio, pred/meas)
		if m <= 64 {
			small = append(small, e)
		}
	}
	return map[string]float64{
		"median_abs_err": r(median(all), 3), "p90_abs_err": r(pctl(all, 0.9), 3), "median_pred_over_meas": r(median(ratio), 3),
		"m_le_64_median_abs_err": r(median(small), 3), "m_le_64_p90_abs_err": r(pctl(small, 0.9), 3),
		"ec": r(ec, 3), "em": r(em, 3), "t0_us": r(t0*1e6, 3), "rows": float64(len(all)),
	}
}

func pctl(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return nan
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[int(q*float64(len(s)-1))]
}

var gemmMs = []int{1, 8, 32, 128, 512, 2048, 8192}

// memBuckets are weight-size buckets in MiB: [lo, hi).
var memBuckets = [][2]float64{{0, 1}, {1, 4}, {4, 16}, {16, 64}, {64, 256}, {256, math.Inf(1)}}

func bucketName(b [2]float64) string {
	if math.IsInf(b[1], 1) {
		return fmt.Sprintf(">=%g", b[0])
	}
	return fmt.Sprintf("%g-%g", b[0], b[1])
}

func deriveGemm(path string, y SystemYAML) map[string]GemmDtype {
	t, err := Load(path)
	if err != nil {
		warn(err)
		return nil
	}
	out := map[string]GemmDtype{}
	for _, dt := range []string{"bfloat16", "fp8", "fp8_block"} {
		peak, bpe := y.BF16FLOPS, 2.0
		if dt != "bfloat16" {
			peak, bpe = y.FP8FLOPS, 1.0
		}
		var rows []int
		kern := map[string]bool{}
		for i := range t.Nums {
			if t.Str(i, "gemm_dtype") == dt {
				rows = append(rows, i)
				kern[t.Str(i, "kernel_source")] = true
			}
		}
		if len(rows) == 0 {
			continue
		}
		g := GemmDtype{FitM1: map[string]float64{}}
		for k := range kern {
			g.Kernels = append(g.Kernels, k)
		}
		sort.Strings(g.Kernels)
		var all []float64
		for _, i := range rows {
			all = append(all, t.Num(i, "latency")*1e3)
		}
		g.FloorUs = r(minf(all), 3)
		if peak > 0 {
			for _, m := range gemmMs {
				var fr, lat []float64
				for _, i := range rows {
					n, k := t.Num(i, "n"), t.Num(i, "k")
					if int(t.Num(i, "m")) != m || n < 4096 || n > 16384 || k < 4096 || k > 16384 {
						continue
					}
					l := t.Num(i, "latency") * 1e-3
					fr = append(fr, 2*float64(m)*n*k/l/peak)
					lat = append(lat, l*1e6)
				}
				if len(fr) > 0 {
					g.Compute = append(g.Compute, GemmComputeRow{m, r(median(fr), 3), r(maxf(fr), 3), r(median(lat), 3), len(fr)})
				}
			}
		}
		for _, b := range memBuckets {
			var fr, lat []float64
			for _, i := range rows {
				if t.Num(i, "m") > 16 {
					continue
				}
				w := t.Num(i, "n") * t.Num(i, "k") * bpe
				mib := w / (1 << 20)
				if mib < b[0] || mib >= b[1] {
					continue
				}
				l := t.Num(i, "latency") * 1e-3
				fr = append(fr, w/l/y.MemBW)
				lat = append(lat, l*1e6)
			}
			if len(fr) > 0 {
				g.Memory = append(g.Memory, GemmMemRow{bucketName(b), r(median(fr), 3), r(maxf(fr), 3), r(median(lat), 3), r(minf(lat), 3), len(fr)})
			}
		}
		// latency_us = a + bytes / (frac * mem_bw) over m == 1, weight >= 32 MiB
		// (the collector cycles 6 weight copies for bf16/fp8, so >= 192 MiB
		// streams per replay: beyond any L2 here).
		var xs, ys []float64
		for _, i := range rows {
			w := t.Num(i, "n") * t.Num(i, "k") * bpe
			if int(t.Num(i, "m")) != 1 || w < 32<<20 {
				continue
			}
			xs = append(xs, w)
			ys = append(ys, t.Num(i, "latency")*1e3)
		}
		if a, s := fitLine(xs, ys); !math.IsNaN(s) {
			g.FitM1["intercept_us"] = r(a, 3)
			g.FitM1["frac_hbm"] = r(1/(s*1e-6)/y.MemBW, 3)
			g.FitM1["rows"] = float64(len(xs))
		}
		if peak > 0 && dt != "fp8_block" {
			ec := nan
			for _, c := range g.Compute {
				if c.M == 2048 {
					ec = c.MedFrac
				}
			}
			g.Check = map[string]map[string]float64{
				"global_constants": roofCheck(t, rows, peak, y.MemBW, bpe, globalGEMM, globalHBM, globalGapSec),
				"per_gpu":          roofCheck(t, rows, peak, y.MemBW, bpe, ec, g.FitM1["frac_hbm"], g.FloorUs*1e-6),
			}
		}
		out[dt] = g
	}
	return out
}

type AttnDecodeRow struct {
	Batch int     `json:"batch"`
	Ctx   int     `json:"ctx"`
	Frac  float64 `json:"frac_hbm"`
	LatUs float64 `json:"latency_us"`
}

type AttnPrefillRow struct {
	Batch int     `json:"batch"`
	ISL   int     `json:"isl"`
	Frac  float64 `json:"frac_bf16_peak"`
	LatUs float64 `json:"latency_us"`
}

type AttnKernel struct {
	Decode        []AttnDecodeRow  `json:"decode_h32_kv8_d128,omitempty"`
	DecodeFP8KV   []AttnDecodeRow  `json:"decode_h32_kv8_d128_fp8kv,omitempty"`
	Prefill       []AttnPrefillRow `json:"prefill_h32_kv8_d128_causal,omitempty"`
	DecodeFloorUs float64          `json:"decode_min_latency_us,omitempty"`
	// DecodeFit is latency_us = a + c·batch + KV bytes/(frac·HBM) over the bf16-KV
	// rows of the shape above whose KV is at least 128 MiB (beyond L2).
	DecodeFit      map[string]float64 `json:"decode_fit_kv_ge_128MiB,omitempty"`
	PrefillFloorUs float64            `json:"prefill_min_latency_us,omitempty"`
}

var decBatches = []int{1, 8, 64, 256}
var decCtx = []int{1024, 4096, 16384, 65536}
var preISL = []int{128, 512, 1024, 2048, 4096, 8192, 16384}

func deriveAttention(dir string, y SystemYAML) (map[string]*AttnKernel, string) {
	gp, ver := latestFile(dir, "generation_attention_perf.parquet")
	cp, _ := latestFile(dir, "context_attention_perf.parquet")
	if gp == "" {
		return nil, ""
	}
	out := map[string]*AttnKernel{}
	get := func(k string) *AttnKernel {
		if out[k] == nil {
			out[k] = &AttnKernel{}
		}
		return out[k]
	}
	shape := func(t *Table, i int) bool {
		return t.Num(i, "num_heads") == 32 && t.Num(i, "num_key_value_heads") == 8 &&
			t.Num(i, "head_dim") == 128 && (t.Num(i, "window_size") == 0 || t.Col("window_size") < 0)
	}
	if t, err := Load(gp); err == nil {
		floors := map[string][]float64{}
		for i := range t.Nums {
			floors[t.Str(i, "kernel_source")] = append(floors[t.Str(i, "kernel_source")], t.Num(i, "latency")*1e3)
		}
		for k, f := range floors {
			get(k).DecodeFloorUs = r(minf(f), 3)
		}
		fb, fx, fy := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
		for i := range t.Nums {
			if !shape(t, i) || t.Str(i, "kv_cache_dtype") != "bfloat16" {
				continue
			}
			bytes := t.Num(i, "batch_size") * (t.Num(i, "step") + 1) * 8 * 128 * 2 * 2
			if bytes < 128<<20 {
				continue
			}
			k := t.Str(i, "kernel_source")
			fb[k] = append(fb[k], t.Num(i, "batch_size"))
			fx[k] = append(fx[k], bytes)
			fy[k] = append(fy[k], t.Num(i, "latency")*1e3)
		}
		for k := range fx {
			if a, c, s := fit3(fb[k], fx[k], fy[k]); !math.IsNaN(s) {
				get(k).DecodeFit = map[string]float64{"intercept_us": r(a, 3), "per_seq_us": r(c, 3), "frac_hbm": r(1/(s*1e-6)/y.MemBW, 3), "rows": float64(len(fx[k]))}
			}
		}
		for _, kvdt := range []string{"bfloat16", "fp8"} {
			bpe := 2.0
			if kvdt == "fp8" {
				bpe = 1
			}
			for i := range t.Nums {
				if !shape(t, i) || t.Str(i, "kv_cache_dtype") != kvdt {
					continue
				}
				b, ctx := int(t.Num(i, "batch_size")), int(t.Num(i, "step"))+1
				if !contains(decBatches, b) || !contains(decCtx, ctx) {
					continue
				}
				l := t.Num(i, "latency") * 1e-3
				bytes := float64(b) * float64(ctx) * 8 * 128 * 2 * bpe
				row := AttnDecodeRow{b, ctx, r(bytes/l/y.MemBW, 3), r(l*1e6, 3)}
				a := get(t.Str(i, "kernel_source"))
				if kvdt == "fp8" {
					a.DecodeFP8KV = append(a.DecodeFP8KV, row)
				} else {
					a.Decode = append(a.Decode, row)
				}
			}
		}
	} else {
		warn(err)
	}
	if t, err := Load(cp); err == nil && cp != "" {
		floors := map[string][]float64{}
		for i := range t.Nums {
			floors[t.Str(i, "kernel_source")] = append(floors[t.Str(i, "kernel_source")], t.Num(i, "latency")*1e3)
		}
		for k, f := range floors {
			get(k).PrefillFloorUs = r(minf(f), 3)
		}
		for i := range t.Nums {
			if !shape(t, i) || t.Str(i, "kv_cache_dtype") != "bfloat16" {
				continue
			}
			b, s := int(t.Num(i, "batch_size")), int(t.Num(i, "isl"))
			if (b != 1 && b != 8) || !contains(preISL, s) {
				continue
			}
			l := t.Num(i, "latency") * 1e-3
			flops := 2 * float64(b) * 32 * 128 * float64(s) * float64(s) // 4·b·h·s²·d, halved for causal
			get(t.Str(i, "kernel_source")).Prefill = append(get(t.Str(i, "kernel_source")).Prefill,
				AttnPrefillRow{b, s, r(flops/l/y.BF16FLOPS, 3), r(l*1e6, 3)})
		}
	}
	for _, a := range out {
		sort.Slice(a.Decode, func(i, j int) bool {
			return less2(a.Decode[i].Batch, a.Decode[i].Ctx, a.Decode[j].Batch, a.Decode[j].Ctx)
		})
		sort.Slice(a.DecodeFP8KV, func(i, j int) bool {
			return less2(a.DecodeFP8KV[i].Batch, a.DecodeFP8KV[i].Ctx, a.DecodeFP8KV[j].Batch, a.DecodeFP8KV[j].Ctx)
		})
		sort.Slice(a.Prefill, func(i, j int) bool {
			return less2(a.Prefill[i].Batch, a.Prefill[i].ISL, a.Prefill[j].Batch, a.Prefill[j].ISL)
		})
	}
	return out, ver
}

type MLARow struct {
	Kernel string  `json:"kernel"`
	Heads  int     `json:"heads"`
	Batch  int     `json:"batch"`
	Len    int     `json:"len"`
	LatUs  float64 `json:"latency_us"`
}

// deriveMLA reports raw DeepSeek-V3 MLA module latencies (module = attention
// plus its projections as vLLM runs them) for a few points, bf16 KV and
// bf16 GEMMs: 16 heads (TP8) and 128 heads (TP1).
func deriveMLA(dir string) (map[string]any, string) {
	gp, ver := latestFile(dir, "mla_generation_module_perf.parquet")
	cp, _ := latestFile(dir, "mla_context_module_perf.parquet")
	if gp == "" {
		return nil, ""
	}
	res := map[string]any{}
	pick := func(p, lenCol string, batches, lens []int, off int) ([]MLARow, float64) {
		t, err := Load(p)
		if err != nil {
			warn(err)
			return nil, nan
		}
		var rows []MLARow
		var all []float64
		for i := range t.Nums {
			all = append(all, t.Num(i, "latency")*1e3)
			h, b, L := int(t.Num(i, "num_heads")), int(t.Num(i, "batch_size")), int(t.Num(i, lenCol))+off
			if (h != 16 && h != 128) || t.Str(i, "kv_cache_dtype") != "bfloat16" || t.Str(i, "gemm_type") != "bfloat16" ||
				!contains(batches, b) || !contains(lens, L) {
				continue
			}
			rows = append(rows, MLARow{t.Str(i, "kernel_source"), h, b, L, r(t.Num(i, "latency")*1e3, 3)})
		}
		sort.Slice(rows, func(i, j int) bool {
			a, c := rows[i], rows[j]
			if a.Kernel != c.Kernel {
				return a.Kernel < c.Kernel
			}
			if a.Heads != c.Heads {
				return a.Heads < c.Heads
			}
			return less2(a.Batch, a.Len, c.Batch, c.Len)
		})
		return rows, r(minf(all), 3)
	}
	g, gf := pick(gp, "step", []int{1, 64, 256}, []int{4096}, 0)
	res["generation_ctx4096"] = g
	res["generation_min_latency_us"] = gf
	if cp != "" {
		c, cf := pick(cp, "isl", []int{1}, []int{1024, 4096, 16384}, 0)
		res["context_batch1"] = c
		res["context_min_latency_us"] = cf
	}
	return res, ver
}

type MoERow struct {
	Tokens int     `json:"tokens"`
	LatUs  float64 `json:"latency_us"`
	Flops  float64 `json:"frac_peak"`
	BW     float64 `json:"frac_hbm_active_experts"`
}

type MoEConfig struct {
	Name, Dtype           string
	H, I, TopK, E, TP, EP int
}

var moeConfigs = []MoEConfig{
	{"qwen3-30b-a3b_tp1", "bfloat16", 2048, 768, 8, 128, 1, 1},
	{"qwen3-30b-a3b_tp1", "fp8", 2048, 768, 8, 128, 1, 1},
	{"qwen3-30b-a3b_tp1", "fp8_block", 2048, 768, 8, 128, 1, 1},
	{"mixtral-8x7b_tp1", "bfloat16", 4096, 14336, 2, 8, 1, 1},
	{"mixtral-8x7b_tp1", "fp8", 4096, 14336, 2, 8, 1, 1},
	{"deepseek-v3_ep8", "fp8_block", 7168, 2048, 8, 256, 1, 8},
}

var moeTokens = []int{1, 8, 32, 128, 512, 2048, 8192}

func deriveMoE(dir string, y SystemYAML) (map[string]any, string) {
	p, ver := latestFile(dir, "moe_perf.parquet")
	if p == "" {
		return nil, ""
	}
	t, err := Load(p)
	if err != nil {
		warn(err)
		return nil, ""
	}
	res := map[string]any{}
	var all []float64
	for i := range t.Nums {
		all = append(all, t.Num(i, "latency")*1e3)
	}
	res["min_latency_us"] = r(minf(all), 3)
	for _, c := range moeConfigs {
		peak, bpe := y.BF16FLOPS, 2.0
		if c.Dtype != "bfloat16" {
			peak, bpe = y.FP8FLOPS, 1.0
		}
		var rows []MoERow
		kern := ""
		for i := range t.Nums {
			if t.Str(i, "moe_dtype") != c.Dtype || t.Str(i, "distribution") != "balanced" ||
				int(t.Num(i, "hidden_size")) != c.H || int(t.Num(i, "inter_size")) != c.I ||
				int(t.Num(i, "topk")) != c.TopK || int(t.Num(i, "num_experts")) != c.E ||
				int(t.Num(i, "moe_tp_size")) != c.TP || int(t.Num(i, "moe_ep_size")) != c.EP {
				continue
			}
			T := int(t.Num(i, "num_tokens"))
			if !contains(moeTokens, T) {
				continue
			}
			kern = t.Str(i, "kernel_source")
			l := t.Num(i, "latency") * 1e-3
			il := float64(c.I) / float64(c.TP)
			flops := 6 * float64(T) * float64(c.TopK) * float64(c.H) * il / float64(c.EP)
			eLocal := float64(c.E) / float64(c.EP)
			active := math.Min(eLocal, math.Ceil(float64(T*c.TopK)/float64(c.EP)))
			bytes := active * 3 * float64(c.H) * il * bpe
			fr := nan
			if peak > 0 {
				fr = flops / l / peak
			}
			rows = append(rows, MoERow{T, r(l*1e6, 3), r(fr, 3), r(bytes/l/y.MemBW, 3)})
		}
		if len(rows) == 0 {
			continue
		}
		sort.Slice(rows, func(i, j int) bool { return rows[i].Tokens < rows[j].Tokens })
		res[c.Name+"_"+c.Dtype] = map[string]any{"kernel": kern, "rows": rows}
	}
	return res, ver
}

type CommRow struct {
	GPUs      int                `json:"gpus"`
	FloorUs   float64            `json:"min_latency_us"`
	At        map[string]float64 `json:"latency_us_at_bytes"`
	BusBWGBps float64            `json:"busbw_GBps_largest"`
	LargestMB float64            `json:"largest_MiB"`
	FracNVL   float64            `json:"busbw_frac_intra_node_bw"`
}

var commSizes = []float64{16 << 10, 256 << 10, 1 << 20, 16 << 20, 256 << 20}

func sizeName(b float64) string {
	if b >= 1<<20 {
		return fmt.Sprintf("%gMiB", b/(1<<20))
	}
	return fmt.Sprintf("%gKiB", b/(1<<10))
}

// ncclOps are the collectives aiconfigurator's NCCL collector measures
// (collector/network/collect_nccl.py: nccl-tests all_gather_perf,
// alltoall_perf, reduce_scatter_perf, all_reduce_perf); there is no
// broadcast table.
var ncclOps = []string{"all_reduce", "all_gather", "reduce_scatter", "alltoall"}

// busFactor converts nccl-tests' algorithm bandwidth (the -b/-e size over
// the time: the whole output buffer for all_gather, the whole input for
// reduce_scatter, one rank's buffer for alltoall) into its bus bandwidth,
// as nccl-tests prints it (doc/PERFORMANCE.md): 2(n−1)/n for all-reduce,
// (n−1)/n for the others.
func busFactor(op string, n int) float64 {
	f := float64(n-1) / float64(n)
	if op == "all_reduce" {
		return 2 * f
	}
	return f
}

// deriveComm summarises a collective's latency by message size. message_size in
// these tables is in elements (the NCCL collector divides bytes by the
// element size; the custom all-reduce collector sizes tensors by it), so
// bytes = elements × 2 for half/bfloat16.
func deriveComm(p, op, dtypeCol, dtype, kernel string, y SystemYAML) []CommRow {
	t, err := Load(p)
	if err != nil {
		warn(err)
		return nil
	}
	byGPU := map[int][]int{}
	for i := range t.Nums {
		if t.Str(i, "op_name") != op || t.Str(i, dtypeCol) != dtype {
			continue
		}
		if kernel != "" && t.Str(i, "kernel_source") != kernel {
			continue
		}
		g := int(t.Num(i, "num_gpus"))
		byGPU[g] = append(byGPU[g], i)
	}
	var gs []int
	for g := range byGPU {
		gs = append(gs, g)
	}
	sort.Ints(gs)
	var out []CommRow
	for _, g := range gs {
		row := CommRow{GPUs: g, At: map[string]float64{}}
		var lats []float64
		largest, largestLat := 0.0, 0.0
		for _, i := range byGPU[g] {
			bytes := t.Num(i, "message_size") * 2
			l := t.Num(i, "latency") * 1e3
			lats = append(lats, l)
			for _, s := range commSizes {
				if bytes == s {
					row.At[sizeName(s)] = r(l, 3)
				}
			}
			if bytes > largest {
				largest, largestLat = bytes, l
			}
		}
		row.FloorUs = r(minf(lats), 3)
		bus := largest / (largestLat * 1e-6) * busFactor(op, g)
		row.BusBWGBps = r(bus/1e9, 3)
		row.LargestMB = largest / (1 << 20)
		if y.IntraNodeBW > 0 {
			row.FracNVL = r(bus/y.IntraNodeBW, 3)
		}
		out = append(out, row)
	}
	return out
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

func less2(a1, a2, b1, b2 int) bool {
	if a1 != b1 {
		return a1 < b1
	}
	return a2 < b2
}

func warn(err error) { fmt.Fprintln(stderr, "warning:", err) }
