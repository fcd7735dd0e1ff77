package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Summary is the compact form committed as derived.json: one median figure
// per cell, arrays aligned to the axis lists it carries.
type Summary struct {
	Source map[string]string   `json:"source"`
	Axes   map[string]any      `json:"axes"`
	Sys    map[string]*SysSumm `json:"systems"`
}

type SysSumm struct {
	Peaks    map[string]float64 `json:"peaks"`
	Versions map[string]string  `json:"versions"`
	// gemm[dtype]: frac of dense peak by gemm_m (median over N,K in 4096..16384);
	// frac of HBM by weight bucket at m<=16 (median); m=1 fit; min latency.
	Gemm          map[string]GemmSumm `json:"gemm,omitempty"`
	Attn          *AttnSumm           `json:"attention,omitempty"`
	MoE           map[string]MoESumm  `json:"moe,omitempty"`
	MoEFloorUs    float64             `json:"moe_min_latency_us,omitempty"`
	MLAGenFloorUs float64             `json:"mla_generation_module_min_latency_us,omitempty"`
	// NCCL[op] (all_reduce, all_gather, reduce_scatter, alltoall): nccl-tests
	// out-of-place latency by GPU count, half precision.
	NCCL map[string][]CommSumm `json:"nccl,omitempty"`
	CAR  []CommSumm            `json:"vllm_custom_all_reduce,omitempty"`
}

type GemmSumm struct {
	Compute  []float64                     `json:"frac_peak_by_m"`
	Mem      []float64                     `json:"frac_hbm_by_weight"`
	MemLatUs []float64                     `json:"latency_us_by_weight"`
	FitUs    float64                       `json:"m1_fit_intercept_us"`
	FitFrac  float64                       `json:"m1_fit_frac_hbm"`
	FloorUs  float64                       `json:"min_latency_us"`
	Check    map[string]map[string]float64 `json:"roofline_check,omitempty"`
}

type AttnSumm struct {
	DecodeKernel   string             `json:"decode_kernel"`
	Decode         [][]float64        `json:"decode_batch_ctx_frachbm_us"`
	DecodeFloorUs  float64            `json:"decode_min_latency_us"`
	DecodeFit      map[string]float64 `json:"decode_fit_kv_ge_128MiB,omitempty"`
	PrefillKernel  string             `json:"prefill_kernel"`
	Prefill        []float64          `json:"prefill_b1_frac_peak_by_isl"`
	PrefillFloorUs float64            `json:"prefill_min_latency_us"`
}

type MoESumm struct {
	Kernel string    `json:"kernel"`
	LatUs  []float64 `json:"latency_us_by_tokens"`
	Flops  []float64 `json:"frac_peak_by_tokens"`
	BW     []float64 `json:"frac_hbm_by_tokens"`
}

type CommSumm struct {
	GPUs    int     `json:"gpus"`
	FloorUs float64 `json:"min_us"`
	At16K   float64 `json:"us_16KiB"`
	At1M    float64 `json:"us_1MiB"`
	At16M   float64 `json:"us_16MiB"`
	BusBW   float64 `json:"busbw_GBps_largest"`
	Frac    float64 `json:"busbw_frac_intra_node_bw"`
}

// defaultAttn names the kernel_source taken as vLLM's default attention
// backend per SM version (decode, prefill).
func defaultAttn(sm float64) (string, string) {
	switch int(sm) {
	case 90:
		return "vllm_flash_attn_fa3", "vllm_flash_attn_fa3"
	case 100, 103:
		return "vllm_flashinfer_trtllmdecode", "vllm_flashinfer_trtllmprefill"
	case 80:
		return "vllm_flash_attn", "vllm_flash_attn"
	}
	return "vllm_flash_attn_fa2", "vllm_flash_attn_fa2"
}

func summarize(y SystemYAML, versions map[string]string, gemm map[string]GemmDtype, attn map[string]*AttnKernel,
	moe, mla map[string]any, nccl map[string][]CommRow, car []CommRow) *SysSumm {
	s := &SysSumm{
		Peaks: map[string]float64{
			"mem_bw_TBps": y.MemBW / 1e12, "bf16_TFLOPS": y.BF16FLOPS / 1e12, "fp8_TFLOPS": y.FP8FLOPS / 1e12,
			"intra_node_bw_GBps": y.IntraNodeBW / 1e9, "inter_node_bw_GBps": y.InterNodeBW / 1e9,
			"gpus_per_node": y.GPUsPerNode, "sm": y.SMVersion,
		},
		Versions: versions,
		Gemm:     map[string]GemmSumm{},
		MoE:      map[string]MoESumm{},
	}
	for dt, g := range gemm {
		if dt == "fp8_block" {
			continue // measured eagerly: host launch time, not kernel time
		}
		gs := GemmSumm{FitUs: g.FitM1["intercept_us"], FitFrac: g.FitM1["frac_hbm"], FloorUs: g.FloorUs, Check: g.Check}
		for _, m := range gemmMs {
			v := -1.0
			for _, c := range g.Compute {
				if c.M == m {
					v = c.MedFrac
				}
			}
			gs.Compute = append(gs.Compute, v)
		}
		for _, b := range memBuckets {
			v, l := -1.0, -1.0
			for _, c := range g.Memory {
				if c.WeightMiB == bucketName(b) {
					v, l = c.MedFrac, c.MedLatUs
				}
			}
			gs.Mem = append(gs.Mem, v)
			gs.MemLatUs = append(gs.MemLatUs, l)
		}
		s.Gemm[dt] = gs
	}
	dk, pk := defaultAttn(y.SMVersion)
	if d, p := attn[dk], attn[pk]; d != nil && p != nil {
		a := &AttnSumm{DecodeKernel: dk, PrefillKernel: pk, DecodeFloorUs: d.DecodeFloorUs, PrefillFloorUs: p.PrefillFloorUs, DecodeFit: d.DecodeFit}
		for _, r := range d.Decode {
			a.Decode = append(a.Decode, []float64{float64(r.Batch), float64(r.Ctx), r.Frac, r.LatUs})
		}
		for _, isl := range preISL {
			v := -1.0
			for _, r := range p.Prefill {
				if r.Batch == 1 && r.ISL == isl {
					v = r.Frac
				}
			}
			a.Prefill = append(a.Prefill, v)
		}
		s.Attn = a
	}
	for k, v := range moe {
		if k == "min_latency_us" {
			s.MoEFloorUs = v.(float64)
			continue
		}
		m := v.(map[string]any)
		ms := MoESumm{Kernel: m["kernel"].(string)}
		rows := m["rows"].([]MoERow)
		for _, T := range moeTokens {
			l, f, b := -1.0, -1.0, -1.0
			for _, r := range rows {
				if r.Tokens == T {
					l, f, b = r.LatUs, r.Flops, r.BW
				}
			}
			ms.LatUs = append(ms.LatUs, l)
			ms.Flops = append(ms.Flops, f)
			ms.BW = append(ms.BW, b)
		}
		s.MoE[k] = ms
	}
	if v, ok := mla["generation_min_latency_us"].(float64); ok {
		s.MLAGenFloorUs = v
	}
	conv := func(rows []CommRow) []CommSumm {
		var out []CommSumm
		for _, r := range rows {
			out = append(out, CommSumm{r.GPUs, r.FloorUs, r.At["16KiB"], r.At["1MiB"], r.At["16MiB"], r.BusBWGBps, r.FracNVL})
		}
		return out
	}
	s.CAR = conv(car)
	if len(nccl) > 0 {
		s.NCCL = map[string][]CommSumm{}
		for op, rows := range nccl {
			s.NCCL[op] = conv(rows)
		}
	}
	return s
}

func fmtF(v float64, pct bool) string {
	if v < 0 {
		return "–"
	}
	if pct {
		return fmt.Sprintf("%.0f%%", v*100)
	}
	return fmt.Sprintf("%.3g", v)
}

// writeMarkdown renders the summary as the README's tables.
func writeMarkdown(w io.Writer, sum *Summary) {
	var names []string
	for n := range sum.Sys {
		names = append(names, n)
	}
	order := strings.Split(defaultSystems, ",")
	rank := func(n string) int {
		for i, o := range order {
			if o == n {
				return i
			}
		}
		return len(order)
	}
	sort.Slice(names, func(i, j int) bool { return rank(names[i]) < rank(names[j]) })
	p := func(f string, a ...any) { fmt.Fprintf(w, f, a...) }

	p("### Datasheet figures (systems/<name>.yaml) and vLLM releases read\n\n")
	p("| system | SM | HBM TB/s | bf16 TFLOPS | fp8 TFLOPS | NVLink/PCIe GB/s per GPU (1 dir) | inter-node GB/s per GPU | GPUs/node | gemm | attention | moe | custom AR | NCCL |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range names {
		s := sum.Sys[n]
		pk := s.Peaks
		p("| %s | %g | %.4g | %.4g | %.4g | %g | %g | %g | %s | %s | %s | %s | %s |\n", n, pk["sm"], pk["mem_bw_TBps"], pk["bf16_TFLOPS"], pk["fp8_TFLOPS"],
			pk["intra_node_bw_GBps"], pk["inter_node_bw_GBps"], pk["gpus_per_node"], s.Versions["gemm"], s.Versions["attention"], s.Versions["moe"], s.Versions["custom_all_reduce"], s.Versions["nccl"])
	}
	for _, dt := range []string{"bfloat16", "fp8"} {
		p("\n### GEMM %s: achieved / dense peak by M (median over N,K in 4096..16384)\n\n| system |", dt)
		for _, m := range gemmMs {
			p(" M=%d |", m)
		}
		p(" min latency µs |\n|---|")
		for range gemmMs {
			p("---|")
		}
		p("---|\n")
		for _, n := range names {
			g, ok := sum.Sys[n].Gemm[dt]
			if !ok {
				continue
			}
			p("| %s |", n)
			for _, v := range g.Compute {
				p(" %s |", fmtF(v, true))
			}
			p(" %s |\n", fmtF(g.FloorUs, false))
		}
		p("\n### GEMM %s, M ≤ 16: weight bytes / latency as a fraction of datasheet HBM (median; median latency µs in brackets)\n\n| system |", dt)
		for _, b := range memBuckets {
			p(" %s MiB |", bucketName(b))
		}
		p(" M=1 fit (≥32 MiB): intercept µs, frac HBM |\n|---|")
		for range memBuckets {
			p("---|")
		}
		p("---|\n")
		for _, n := range names {
			g, ok := sum.Sys[n].Gemm[dt]
			if !ok {
				continue
			}
			p("| %s |", n)
			for i, v := range g.Mem {
				p(" %s (%s) |", fmtF(v, true), fmtF(g.MemLatUs[i], false))
			}
			p(" %.3g µs, %s |\n", g.FitUs, fmtF(g.FitFrac, true))
		}
	}
	p("\n### GEMM roofline check (every row with N, K ≥ 1024; in-sample)\n\nt = t0 + max(FLOPs/(ec·peak), bytes/(em·HBM)). *global*: ec %.4g, em %.2g, t0 %.2g µs (vlaunch's current constants); *per-GPU*: ec = median at M=2048, em = M=1 fit, t0 = min latency. |pred/meas − 1| median and p90, all rows and M ≤ 64; bias = median pred/meas.\n\n| system | dtype | rows | global: median / p90 / M≤64 median / bias | per-GPU ec, em, t0 µs | per-GPU: median / p90 / M≤64 median / bias |\n|---|---|---|---|---|---|\n", globalGEMM, globalHBM, globalGapSec*1e6)
	for _, n := range names {
		for _, dt := range []string{"bfloat16", "fp8"} {
			g, ok := sum.Sys[n].Gemm[dt]
			if !ok || g.Check == nil {
				continue
			}
			a, b := g.Check["global_constants"], g.Check["per_gpu"]
			p("| %s | %s | %.0f | %s / %s / %s / %.2f | %.2f, %.2f, %.2f | %s / %s / %s / %.2f |\n", n, dt, a["rows"],
				fmtF(a["median_abs_err"], true), fmtF(a["p90_abs_err"], true), fmtF(a["m_le_64_median_abs_err"], true), a["median_pred_over_meas"],
				b["ec"], b["em"], b["t0_us"],
				fmtF(b["median_abs_err"], true), fmtF(b["p90_abs_err"], true), fmtF(b["m_le_64_median_abs_err"], true), b["median_pred_over_meas"])
		}
	}
	p("\n### Decode attention (32 q heads, 8 KV heads, d=128, bf16 KV): KV bytes read / latency as fraction of HBM (latency µs)\n\n| system | kernel | min µs | fit KV ≥ 128 MiB: µs + µs/seq + KV at frac HBM |")
	for _, b := range decBatches {
		for _, c := range decCtx {
			p(" b%d×%dk |", b, c/1024)
		}
	}
	p("\n|---|---|---|---|")
	for range decBatches {
		for range decCtx {
			p("---|")
		}
	}
	p("\n")
	for _, n := range names {
		a := sum.Sys[n].Attn
		if a == nil {
			continue
		}
		fit := "–"
		if a.DecodeFit != nil {
			fit = fmt.Sprintf("%.3g + %.3g·b, %s", a.DecodeFit["intercept_us"], a.DecodeFit["per_seq_us"], fmtF(a.DecodeFit["frac_hbm"], true))
		}
		p("| %s | %s | %s | %s |", n, strings.TrimPrefix(a.DecodeKernel, "vllm_"), fmtF(a.DecodeFloorUs, false), fit)
		for _, b := range decBatches {
			for _, c := range decCtx {
				cell := "–"
				for _, r := range a.Decode {
					if int(r[0]) == b && int(r[1]) == c {
						cell = fmt.Sprintf("%s (%s)", fmtF(r[2], true), fmtF(r[3], false))
					}
				}
				p(" %s |", cell)
			}
		}
		p("\n")
	}
	p("\n### Prefill attention (causal, batch 1, 32/8 heads, d=128): achieved / bf16 dense peak by sequence length\n\n| system | kernel | min µs |")
	for _, s := range preISL {
		p(" %d |", s)
	}
	p("\n|---|---|---|")
	for range preISL {
		p("---|")
	}
	p("\n")
	for _, n := range names {
		a := sum.Sys[n].Attn
		if a == nil {
			continue
		}
		p("| %s | %s | %s |", n, strings.TrimPrefix(a.PrefillKernel, "vllm_"), fmtF(a.PrefillFloorUs, false))
		for _, v := range a.Prefill {
			p(" %s |", fmtF(v, true))
		}
		p("\n")
	}
	var moeKeys []string
	for _, n := range names {
		for k := range sum.Sys[n].MoE {
			if !contains2(moeKeys, k) {
				moeKeys = append(moeKeys, k)
			}
		}
	}
	sort.Strings(moeKeys)
	p("\n### MoE (fused experts, balanced routing): latency µs / FLOPS fraction / active-expert-weight HBM fraction by tokens\n\n| config | system | kernel |")
	for _, t := range moeTokens {
		p(" T=%d |", t)
	}
	p("\n|---|---|---|")
	for range moeTokens {
		p("---|")
	}
	p("\n")
	for _, k := range moeKeys {
		for _, n := range names {
			m, ok := sum.Sys[n].MoE[k]
			if !ok {
				continue
			}
			kern := strings.TrimPrefix(m.Kernel, "vllm_")
			p("| %s | %s | %s |", k, n, kern)
			for i := range moeTokens {
				p(" %s / %s / %s |", fmtF(m.LatUs[i], false), fmtF(m.Flops[i], true), fmtF(m.BW[i], true))
			}
			p("\n")
		}
	}
	p("\n### All-reduce (bytes = elements × 2, half/bf16; intra-node only — the tables hold no multi-node rows)\n\n| system | impl | GPUs | min µs | 16 KiB µs | 1 MiB µs | 16 MiB µs | bus BW GB/s (largest) | / YAML intra_node_bw |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range names {
		for _, x := range []struct {
			name string
			rows []CommSumm
		}{{"NCCL " + sum.Sys[n].Versions["nccl"], sum.Sys[n].NCCL["all_reduce"]}, {"vLLM custom (graph)", sum.Sys[n].CAR}} {
			for _, r := range x.rows {
				p("| %s | %s | %d | %s | %s | %s | %s | %.0f | %s |\n", n, x.name, r.GPUs, fmtF(r.FloorUs, false), fmtF(r.At16K, false), fmtF(r.At1M, false), fmtF(r.At16M, false), r.BusBW, fmtF(r.Frac, true))
			}
		}
	}
	p("\n### Other NCCL collectives (nccl-tests out-of-place, half; bytes = the -b/-e size: all_gather's whole output, reduce_scatter's whole input, alltoall's per-rank buffer; bus BW = size / time × (n−1)/n)\n\n| system | NCCL | op | GPUs | min µs | 16 KiB µs | 1 MiB µs | 16 MiB µs | bus BW GB/s (largest) | / YAML intra_node_bw |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range names {
		for _, op := range ncclOps[1:] {
			for _, r := range sum.Sys[n].NCCL[op] {
				p("| %s | %s | %s | %d | %s | %s | %s | %s | %.0f | %s |\n", n, sum.Sys[n].Versions["nccl"], op, r.GPUs, fmtF(r.FloorUs, false), fmtF(r.At16K, false), fmtF(r.At1M, false), fmtF(r.At16M, false), r.BusBW, fmtF(r.Frac, true))
			}
		}
	}
	p("\n### Per-op latency floors (µs, smallest latency in each table)\n\n| system | GEMM bf16 | GEMM fp8 | decode attn | prefill attn | MoE | MLA generation module | custom AR 2 GPU | NCCL AR 2 GPU |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range names {
		s := sum.Sys[n]
		g := func(dt string) string {
			if v, ok := s.Gemm[dt]; ok {
				return fmtF(v.FloorUs, false)
			}
			return "–"
		}
		da, pa := "–", "–"
		if s.Attn != nil {
			da, pa = fmtF(s.Attn.DecodeFloorUs, false), fmtF(s.Attn.PrefillFloorUs, false)
		}
		car, nc := "–", "–"
		if len(s.CAR) > 0 {
			car = fmtF(s.CAR[0].FloorUs, false)
		}
		if ar := s.NCCL["all_reduce"]; len(ar) > 0 {
			nc = fmtF(ar[0].FloorUs, false)
		}
		mla := "–"
		if s.MLAGenFloorUs > 0 {
			mla = fmtF(s.MLAGenFloorUs, false)
		}
		p("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, g("bfloat16"), g("fp8"), da, pa, fmtF(s.MoEFloorUs, false), mla, car, nc)
	}
}

func contains2(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
