package main

// Fused-MoE efficiency curves: for each system and MoE dtype, the fused MoE
// layer's achieved fraction of the tensor peak as a function of the tokens
// each expert receives (M of the expert GEMMs), pooled over every model
// shape and TP/EP layout in the vLLM table, and a leave-one-shape-out check
// of how well one curve per (system, dtype) predicts shapes it did not see.
//
// Why tokens per expert: with balanced routing each expert GEMM has
// M = T·k/E rows (the collector routes num_tokens over all E experts with
// balanced_logits(num_tokens, num_experts, topk), collector/vllm/
// collect_moe.py, and an EP rank computes only the pairs of its E/EP
// experts). Its arithmetic intensity, FLOPs per weight byte, is 2·M/bytes
// per weight whatever H, I, E, TP or EP are, so FLOPs/(latency·peak) at a
// given M is the roofline-normalised figure that can carry across shapes.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// moeGridLo and moeGridHi bound the curve's grid in log2 of tokens per
// expert (1/16 … 2048): below, an expert sees a token every 16 steps;
// above, the largest tables' rows (16,384 tokens, top-8 of 64) end.
const moeGridLo, moeGridHi = -4, 11

// moeMaxGPUs bounds the layouts read (TP × EP of the MoE): the tables
// also time TP 16–32 and EP 16–256 slices of one rank.
var moeMaxGPUs = 1e9

// moeFloorShare is the share of the smallest latency treated as fixed.
var moeFloorShare = 0.0

// moeObs is one balanced-routing row of a moe_perf table.
type moeObs struct {
	shape  string  // the model: hidden, inter, topk, experts
	x      float64 // tokens per expert, T·k/E
	flops  float64 // 6·T·k·H·(I/TP)/EP on the rank
	latS   float64
	kernel string
	// width is the expert's intermediate width on the rank, I/TP (the N
	// of the down projection's input, half the gate/up GEMM's N), and
	// ep the layout's expert-parallel size (moewidth reads EP 1 only).
	width, tp, ep float64
}

// MoECurve is one (system, dtype) curve and its checks.
type MoECurve struct {
	System  string `json:"system"`
	Dtype   string `json:"dtype"`
	Version string `json:"vllm"`
	// Peak names the datasheet peak the fractions are of: bf16 for
	// bfloat16 and the weight-only formats (dequantised to BF16 in the
	// kernel), fp8 for fp8 and fp8_block, fp4 for nvfp4.
	Peak    string         `json:"peak"`
	Kernels map[string]int `json:"kernels"`
	Shapes  int            `json:"shapes"`
	Rows    int            `json:"rows"`
	// Eff[i] is the median fraction of the peak at 2^(moeGridLo+i) tokens
	// per expert (rows binned by the nearest power of two); 0 where no row
	// falls.
	Eff []float64 `json:"eff"`
	// FloorS is the fixed time taken off every row before its FLOPs are
	// divided by the rest (moeFloorShare of the table's smallest latency):
	// routing, alignment and launch costs no GEMM shape carries.
	FloorS float64 `json:"floor_s"`
	// InSample and LOSO are |predicted/measured − 1| of every row's
	// latency predicted as FLOPs/(curve·peak): with the curve of all
	// shapes, and with the curve of the other shapes (leave one shape
	// out); *X8 restricts to rows with ≥ 8 tokens per expert, where the
	// GEMMs and not the fixed floor carry the time.
	InSample, LOSO, LOSOX8 ErrStats            `json:"-"`
	Errors                 map[string]ErrStats `json:"errors"`
}

// ErrStats summarises prediction ratios.
type ErrStats struct {
	Rows   int     `json:"rows"`
	Median float64 `json:"median_abs_err"`
	P90    float64 `json:"p90_abs_err"`
	Bias   float64 `json:"median_pred_over_meas"`
}

// moeDtypes are the MoE dtypes vLLM serves checkpoints with and the peak
// each is measured against.
var moeDtypes = []struct{ dtype, peak string }{
	{"bfloat16", "bf16"}, {"fp8", "fp8"}, {"fp8_block", "fp8"},
	{"w4a16_mxfp4", "bf16"}, {"int4_wo", "bf16"}, {"nvfp4", "fp4"},
}

func moeCurveCmd(args []string) {
	fs := flag.NewFlagSet("moecurve", flag.ExitOnError)
	systems := fs.String("systems", "h100_sxm,h200_sxm,b200_sxm,b300_sxm,gb200,a100_sxm,l40s,rtx_pro_6000_server", "systems")
	format := fs.String("format", "md", "md | json | go")
	fs.Float64Var(&moeMaxGPUs, "maxgpus", 1e9, "read only layouts with moe_tp_size × moe_ep_size ≤ this")
	fs.Float64Var(&moeFloorShare, "floor", 0, "share of the table's smallest latency taken off every row as a fixed cost")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: aicdata moecurve [-systems a,b] [-format md|json|go] SYSTEMS_DIR")
		os.Exit(2)
	}
	var curves []MoECurve
	eachMoETable(fs.Arg(0), *systems, func(system, ver, dtype, peakName string, peak float64, obs []moeObs) {
		c := fitMoECurve(obs, peak)
		c.System, c.Dtype, c.Version, c.Peak = system, dtype, ver, peakName
		curves = append(curves, c)
	})
	writeAs(*format, curves, writeMoEGo, writeMoEMD)
}

// writeAs prints v to stdout in format: JSON, Go source (goW) or
// markdown (mdW, the default).
func writeAs[T any](format string, v T, goW, mdW func(io.Writer, T)) {
	switch format {
	case "json":
		e := json.NewEncoder(os.Stdout)
		e.SetIndent("", " ")
		_ = e.Encode(v)
	case "go":
		goW(os.Stdout, v)
	default:
		mdW(os.Stdout, v)
	}
}

// eachMoETable calls fn with each system's newest vLLM fused-MoE table,
// dtype by dtype (moeDtypes), where the table has rows of that dtype and
// the system a peak for it: the loop moecurve and moewidth both read.
func eachMoETable(dir, systems string, fn func(system, ver, dtype, peakName string, peak float64, obs []moeObs)) {
	for _, s := range strings.Split(systems, ",") {
		y, err := readYAML(filepath.Join(dir, s+".yaml"))
		if err != nil {
			warn(err)
			continue
		}
		p, ver := latestFile(filepath.Join(dir, "data", s, "moe", "vllm"), "moe_perf.parquet")
		if p == "" {
			continue
		}
		t, err := Load(p)
		if err != nil {
			warn(err)
			continue
		}
		for _, d := range moeDtypes {
			obs := moeRows(t, d.dtype)
			peak := map[string]float64{"bf16": y.BF16FLOPS, "fp8": y.FP8FLOPS, "fp4": y.FP4FLOPS}[d.peak]
			if len(obs) == 0 || peak <= 0 {
				continue
			}
			fn(s, ver, d.dtype, d.peak, peak, obs)
		}
	}
}

// moeRows reads the balanced-routing rows of one dtype. gpt-oss's MXFP4
// rows are kept only from vLLM's gpt-oss kernels (the path vLLM takes for
// that checkpoint); the generic compressed-tensors MXFP4 rows time a
// Marlin emulation no served model uses.
func moeRows(t *Table, dtype string) []moeObs {
	var out []moeObs
	for i := range t.Nums {
		if t.Str(i, "moe_dtype") != dtype || t.Str(i, "distribution") != "balanced" {
			continue
		}
		k := t.Str(i, "kernel_source")
		if dtype == "w4a16_mxfp4" && !strings.Contains(k, "gptoss") {
			continue
		}
		T, H, I := t.Num(i, "num_tokens"), t.Num(i, "hidden_size"), t.Num(i, "inter_size")
		topk, E := t.Num(i, "topk"), t.Num(i, "num_experts")
		tp, ep := t.Num(i, "moe_tp_size"), t.Num(i, "moe_ep_size")
		l := t.Num(i, "latency") * 1e-3
		if !(l > 0 && T > 0 && E > 0 && tp > 0 && ep > 0) || tp*ep > moeMaxGPUs {
			continue
		}
		out = append(out, moeObs{
			shape:  fmt.Sprintf("H%g_I%g_k%g_E%g", H, I, topk, E),
			x:      T * topk / E,
			flops:  6 * T * topk * H * (I / tp) / ep,
			latS:   l,
			kernel: strings.TrimPrefix(k, "vllm_"),
			width:  I / tp,
			tp:     tp,
			ep:     ep,
		})
	}
	return out
}

// binOf is a tokens-per-expert value's grid index (nearest power of two,
// clamped to the grid).
func binOf(x float64) int {
	j := int(math.Round(math.Log2(x)))
	return min(max(j, moeGridLo), moeGridHi) - moeGridLo
}

// curveOf is the median efficiency per grid point of obs.
func curveOf(obs []moeObs, peak, t0 float64) []float64 {
	bins := make([][]float64, moeGridHi-moeGridLo+1)
	for _, o := range obs {
		b := binOf(o.x)
		bins[b] = append(bins[b], o.flops/math.Max(o.latS-t0, 0.1*o.latS)/peak)
	}
	eff := make([]float64, len(bins))
	for i, b := range bins {
		if len(b) > 0 {
			eff[i] = median(b)
		}
	}
	return eff
}

// CurveAt reads a curve at x tokens per expert: log2-linear between the
// grid points that hold a value, flat beyond the first and last.
func CurveAt(eff []float64, x float64) float64 {
	u := math.Log2(math.Max(x, 1e-9)) - moeGridLo
	lo, hi := -1, -1
	for i, v := range eff {
		if v <= 0 {
			continue
		}
		if float64(i) <= u {
			lo = i
		}
		if float64(i) >= u && hi < 0 {
			hi = i
		}
	}
	switch {
	case lo < 0 && hi < 0:
		return 0
	case lo < 0:
		return eff[hi]
	case hi < 0 || hi == lo:
		return eff[lo]
	}
	f := (u - float64(lo)) / float64(hi-lo)
	return eff[lo]*(1-f) + eff[hi]*f
}

func fitMoECurve(obs []moeObs, peak float64) MoECurve {
	t0 := math.Inf(1)
	for _, o := range obs {
		t0 = math.Min(t0, o.latS)
	}
	t0 *= moeFloorShare
	c := MoECurve{Kernels: map[string]int{}, Rows: len(obs), Eff: curveOf(obs, peak, t0), FloorS: t0}
	shapes := map[string][]moeObs{}
	for _, o := range obs {
		c.Kernels[o.kernel]++
		shapes[o.shape] = append(shapes[o.shape], o)
	}
	c.Shapes = len(shapes)
	var in, out, out8 []float64
	for _, o := range obs {
		in = append(in, (t0+o.flops/(CurveAt(c.Eff, o.x)*peak))/o.latS)
	}
	for s, held := range shapes {
		var rest []moeObs
		for _, o := range obs {
			if o.shape != s {
				rest = append(rest, o)
			}
		}
		if len(rest) == 0 {
			continue
		}
		eff := curveOf(rest, peak, t0)
		for _, o := range held {
			r := (t0 + o.flops/(CurveAt(eff, o.x)*peak)) / o.latS
			out = append(out, r)
			if o.x >= 8 {
				out8 = append(out8, r)
			}
		}
	}
	c.InSample, c.LOSO, c.LOSOX8 = errStats(in), errStats(out), errStats(out8)
	c.Errors = map[string]ErrStats{"in_sample": c.InSample, "leave_one_shape_out": c.LOSO, "leave_one_shape_out_x_ge_8": c.LOSOX8}
	return c
}

func errStats(ratios []float64) ErrStats {
	var ab, ok []float64
	for _, r := range ratios {
		if r > 0 && !math.IsInf(r, 0) && !math.IsNaN(r) {
			ok = append(ok, r)
			ab = append(ab, math.Abs(r-1))
		}
	}
	if len(ok) == 0 {
		return ErrStats{}
	}
	sort.Float64s(ab)
	return ErrStats{Rows: len(ok), Median: r(median(ab), 3), P90: r(ab[int(0.9*float64(len(ab)-1))], 3), Bias: r(median(ok), 3)}
}

func writeMoEMD(w io.Writer, cs []MoECurve) {
	xs := []int{-4, -2, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	fmt.Fprint(w, "| system | dtype (peak) | shapes | rows |")
	for _, j := range xs {
		fmt.Fprintf(w, " x=%s |", fmtPow2(j))
	}
	fmt.Fprint(w, " in-sample median/p90 | LOSO median/p90/bias | LOSO x≥8 median/p90/bias |\n|---|---|---|---|")
	for range xs {
		fmt.Fprint(w, "---|")
	}
	fmt.Fprint(w, "---|---|---|\n")
	for _, c := range cs {
		fmt.Fprintf(w, "| %s | %s (%s) | %d | %d |", c.System, c.Dtype, c.Peak, c.Shapes, c.Rows)
		for _, j := range xs {
			if v := c.Eff[j-moeGridLo]; v > 0 {
				fmt.Fprintf(w, " %.3g |", v)
			} else {
				fmt.Fprint(w, " – |")
			}
		}
		fmt.Fprintf(w, " %s | %s | %s |\n", fmtErr(c.InSample, false), fmtErr(c.LOSO, true), fmtErr(c.LOSOX8, true))
	}
}

// fmtErr prints median / p90 (/ bias) of |error|, "–" without rows (a
// table with one shape has nothing to leave out).
func fmtErr(e ErrStats, bias bool) string {
	if e.Rows == 0 {
		return "–"
	}
	if !bias {
		return fmt.Sprintf("%.0f%% / %.0f%%", 100*e.Median, 100*e.P90)
	}
	return fmt.Sprintf("%.0f%% / %.0f%% / %.2f", 100*e.Median, 100*e.P90, e.Bias)
}

func fmtPow2(j int) string {
	if j < 0 {
		return fmt.Sprintf("1/%d", 1<<-j)
	}
	return fmt.Sprint(1 << j)
}

// writeMoEGo prints the curves as the literal estimate/perf/kernels.go
// holds (3 significant digits).
func writeMoEGo(w io.Writer, cs []MoECurve) {
	for _, c := range cs {
		fmt.Fprintf(w, "%s %s: {", c.System, c.Dtype)
		for i, v := range c.Eff {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "%.3g", v)
		}
		fmt.Fprintln(w, "},")
	}
}
