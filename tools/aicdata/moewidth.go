package main

// Fused-MoE width factors: how a fused-MoE layer's achieved rate departs
// from the pooled curve of moecurve (one curve per system and dtype, by
// tokens per expert) as a function of the expert's width on the rank,
// w = inter_size / moe_tp_size.
//
// Why: the pooled curve mixes every model shape and TP layout at a given
// number of tokens per expert, but with TP-sharded experts the expert
// GEMMs' N is a slice of the intermediate width (DeepSeek-V3/R1 at TP 8:
// 2048 / 8 = 256), and a narrow slice runs slower per FLOP: vLLM's Triton
// fused_moe launches cdiv(EM, BLOCK_M) × cdiv(N, BLOCK_N) programs with
// N = 2·w for the gate/up GEMM (vllm/model_executor/layers/fused_moe/
// fused_moe.py, invoke_fused_moe_kernel's grid), and block-quantized FP8
// caps BLOCK_SIZE_K at the 128-wide quantization block (get_config_dtype_
// str / try_get_optimal_moe_config: block_shape forces BLOCK_SIZE_K =
// block_k), so a narrow slice gives the GPU few tiles and the down
// projection (K = w) short K loops.
//
// Selection rule (the factor of one system, dtype and width bin):
//   - rows: the newest vLLM moe_perf table of the system, the dtype's
//     balanced-routing rows as moecurve reads them (moeRows; gpt-oss MXFP4
//     rows from gpt-oss kernels only), with moe_ep_size = 1 (TP-sharded
//     experts only: an EP rank holds whole experts), moe_tp_size ≤ 8 (one
//     node's TP; the tables also time TP 16–32 slices) and at least
//     32 tokens per expert (T·k/E ≥ 32: the GEMM-rate side of the curve;
//     below, the op streams weights and its rate is bandwidth);
//   - each row's ratio: its achieved rate, FLOPs / (latency − floor) /
//     peak exactly as moecurve bins it (floor = the table's smallest
//     latency over layouts with TP × EP ≤ 8), over the pooled curve
//     (moecurve -maxgpus 8 -floor 1, the curve estimate/perf embeds) at
//     the row's tokens per expert;
//   - rows binned by w to the nearest power of two; the factor is the
//     bin's median ratio, kept where the bin holds at least -minrows rows
//     from at least -minshapes model shapes.

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

// MoEWidthPoint is one width bin's factor.
type MoEWidthPoint struct {
	// W is the bin's width, a power of two (rows with I/TP nearest to it
	// in log2).
	W int `json:"w"`
	// Factor is the median of the bin's rows' achieved rate over the
	// pooled curve at their tokens per expert.
	Factor float64 `json:"factor"`
	// P25 and P75 are the ratios' quartiles (the spread the median hides).
	P25    float64 `json:"p25"`
	P75    float64 `json:"p75"`
	Rows   int     `json:"rows"`
	Shapes int     `json:"shapes"`
}

// MoEWidth is one system's and dtype's width factors.
type MoEWidth struct {
	System  string          `json:"system"`
	Dtype   string          `json:"dtype"`
	Version string          `json:"vllm"`
	Points  []MoEWidthPoint `json:"points"`
}

// moeWidthMinX is the least tokens per expert a row needs.
const moeWidthMinX = 32

// moeWidthMaxTP is the largest moe_tp_size read.
const moeWidthMaxTP = 8

func moeWidthCmd(args []string) {
	fs := flag.NewFlagSet("moewidth", flag.ExitOnError)
	systems := fs.String("systems", "h100_sxm,h200_sxm,b200_sxm,b300_sxm,gb200", "systems (those estimate/perf holds curves of)")
	format := fs.String("format", "md", "md | json | go")
	minRows := fs.Int("minrows", 20, "least rows a width bin needs")
	minShapes := fs.Int("minshapes", 2, "least model shapes a width bin needs")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: aicdata moewidth [-systems a,b] [-format md|json|go] [-minrows N] [-minshapes N] SYSTEMS_DIR")
		os.Exit(2)
	}
	// The pooled curve's reading (README: moecurve -maxgpus 8 -floor 1).
	moeMaxGPUs, moeFloorShare = 8, 1
	var out []MoEWidth
	eachMoETable(fs.Arg(0), *systems, func(system, ver, dtype, _ string, peak float64, obs []moeObs) {
		if pts := moeWidthPoints(obs, peak, *minRows, *minShapes); len(pts) > 0 {
			out = append(out, MoEWidth{System: system, Dtype: dtype, Version: ver, Points: pts})
		}
	})
	writeAs(*format, out, writeMoEWidthGo, writeMoEWidthMD)
}

// moeWidthPoints applies the selection rule to one dtype's rows (moeRows
// with moeMaxGPUs 8): the pooled curve and floor as fitMoECurve builds
// them, then the median ratio per width bin.
func moeWidthPoints(obs []moeObs, peak float64, minRows, minShapes int) []MoEWidthPoint {
	t0 := math.Inf(1)
	for _, o := range obs {
		t0 = math.Min(t0, o.latS)
	}
	t0 *= moeFloorShare
	eff := curveOf(obs, peak, t0)
	ratios := map[int][]float64{}
	shapes := map[int]map[string]bool{}
	for _, o := range obs {
		if o.ep != 1 || o.tp > moeWidthMaxTP || o.x < moeWidthMinX || o.width <= 0 {
			continue
		}
		c := CurveAt(eff, o.x)
		if c <= 0 {
			continue
		}
		w := 1 << max(0, int(math.Round(math.Log2(o.width))))
		ratios[w] = append(ratios[w], o.flops/math.Max(o.latS-t0, 0.1*o.latS)/peak/c)
		if shapes[w] == nil {
			shapes[w] = map[string]bool{}
		}
		shapes[w][o.shape] = true
	}
	var pts []MoEWidthPoint
	for w, rs := range ratios {
		if len(rs) < minRows || len(shapes[w]) < minShapes {
			continue
		}
		sort.Float64s(rs)
		pts = append(pts, MoEWidthPoint{W: w, Factor: r(median(rs), 3), P25: r(quantile(rs, 0.25), 3), P75: r(quantile(rs, 0.75), 3),
			Rows: len(rs), Shapes: len(shapes[w])})
	}
	sort.Slice(pts, func(a, b int) bool { return pts[a].W < pts[b].W })
	return pts
}

// quantile is the q-quantile of sorted xs (nearest rank below).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[int(q*float64(len(xs)-1))]
}

func writeMoEWidthMD(w io.Writer, ws []MoEWidth) {
	fmt.Fprintln(w, "| system | dtype | vLLM | w: factor (p25–p75; rows / shapes) |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, m := range ws {
		var cells []string
		for _, p := range m.Points {
			cells = append(cells, fmt.Sprintf("%d: **%.2f** (%.2f–%.2f; %d / %d)", p.W, p.Factor, p.P25, p.P75, p.Rows, p.Shapes))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", m.System, m.Dtype, m.Version, strings.Join(cells, ", "))
	}
}

// writeMoEWidthGo prints the factors as the literal estimate/perf/
// moewidth.go holds.
func writeMoEWidthGo(w io.Writer, ws []MoEWidth) {
	for _, m := range ws {
		fmt.Fprintf(w, "%s %s: {", m.System, m.Dtype)
		for i, p := range m.Points {
			if i > 0 {
				fmt.Fprint(w, ", ")
			}
			fmt.Fprintf(w, "{%d, %.3g}", p.W, p.Factor)
		}
		fmt.Fprintln(w, "},")
	}
}
