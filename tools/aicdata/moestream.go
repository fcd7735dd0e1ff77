package main

// Expert-weight streaming rates (issue #28): the marginal rate at which a
// fused-MoE kernel reads its routed experts' weights in the weight-
// streaming regime, per system, engine (vllm, sglang), MoE dtype and
// kernel, from aiconfigurator's measured moe_perf tables.
//
// Rule (one point per model shape and layout):
//   - rows: the newest <engine>/<release>/moe_perf.parquet of the system
//     (a release directory holding only reuse.yaml is skipped, as
//     latestFile does), distribution = balanced, grouped by moe_dtype,
//     kernel_source, hidden, inter, topk, experts, moe_tp_size and
//     moe_ep_size;
//   - local experts hit: the collector's routing is helper.py
//     balanced_logits(T, E, k) (collector/vllm/collect_moe.py and
//     collector/sglang/collect_moe.py, "balanced"); the rank timed holds
//     experts [0, E/EP) (vLLM: "the rank-0 expert map", linear placement;
//     SGLang: build_rank0_workloads keeps slots < experts_per_rank).
//     hits(T) counts the distinct experts of balanced_logits below E/EP,
//     computed here exactly as the Python does (balancedExperts);
//   - the weight-streaming regime: token counts with T·k ≤ E, where every
//     token-expert pair lands on a different expert, so each extra token
//     adds experts and one row of work per expert. T_hi is the largest
//     such count in the group, T_lo the next smaller one whose hits are
//     fewer and at least 1;
//   - rate = (hits(T_hi) − hits(T_lo)) × expert bytes / (lat(T_hi) −
//     lat(T_lo)): the slope, the call's fixed cost is not in it. Expert
//     bytes = m·H·(I/TP) weights (m = 3 gated, 2 for Nemotron-H's relu²
//     experts: collector/cases/models/NemotronHForCausalLM_cases.yaml,
//     sglang_moe_is_gated: false — topk 22 of 512, and 2688 × 1856) at the
//     dtype's stored bits (streamBits);
//   - a (system, engine, dtype, kernel) entry's rate is the median of its
//     points with moe_tp_size × moe_ep_size ≤ 8 (one node's layouts, as
//     moecurve -maxgpus 8 reads) and a slope no faster than the
//     datasheet HBM (a faster one is not weight streaming; counted in
//     above_hbm); min, max and quartiles are its spread, and every point is
//     listed.

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

// streamBits are the stored bits per weight of each MoE dtype: the
// element plus its scales. fp8_block: one FP32 scale per 128×128 block;
// nvfp4: one FP8 scale per 16 (the hand figure's 0.5625 B); w4a16_mxfp4
// and w4a8_mxfp4_mxfp8: one E8M0 scale per 32; int4_wo: one BF16 scale per
// 128 (the collectors' default int4_group_size).
var streamBits = map[string]float64{
	"bfloat16":         16,
	"fp8":              8,
	"fp8_block":        8 + 32.0/(128*128),
	"nvfp4":            4 + 8.0/16,
	"w4a16_mxfp4":      4 + 8.0/32,
	"w4a8_mxfp4_mxfp8": 4 + 8.0/32,
	"int4_wo":          4 + 16.0/128,
}

// StreamPoint is one shape and layout's slope.
type StreamPoint struct {
	Shape   string  `json:"shape"`
	TP      int     `json:"moe_tp"`
	EP      int     `json:"moe_ep"`
	TLo     int     `json:"t_lo"`
	THi     int     `json:"t_hi"`
	HitsLo  int     `json:"hits_lo"`
	HitsHi  int     `json:"hits_hi"`
	LatLoMS float64 `json:"lat_lo_ms"`
	LatHiMS float64 `json:"lat_hi_ms"`
	// ExpertBytes is one expert's slice on the rank (m·H·(I/TP) weights
	// at the dtype's stored bits): small slices stream slower.
	ExpertBytes float64 `json:"expert_bytes"`
	BytesPerS   float64 `json:"bytes_per_s"`
}

// MoEStream is one system's, engine's, dtype's and kernel's rate.
type MoEStream struct {
	System  string  `json:"system"`
	Engine  string  `json:"engine"`
	Version string  `json:"version"`
	Dtype   string  `json:"dtype"`
	Kernel  string  `json:"kernel"`
	Bits    float64 `json:"bits"`
	HBM     float64 `json:"hbm_bytes_per_s"`
	// BytesPerS is the median of the in-node points (the rate).
	BytesPerS float64 `json:"bytes_per_s"`
	// FracHBM is BytesPerS over the datasheet HBM.
	FracHBM float64 `json:"frac_hbm"`
	Min     float64 `json:"min"`
	P25     float64 `json:"p25"`
	P75     float64 `json:"p75"`
	Max     float64 `json:"max"`
	// Used is how many points the median reads; Points lists them (the
	// in-node layouts only).
	Used int `json:"used"`
	// AboveHBM counts in-node points left out for a slope faster than
	// the datasheet HBM: not weight streaming (a latency step the
	// kernel's tiling, not its bytes, makes; e.g. DeepSeek's shape at
	// EP1 on B300, 16 → 32 tokens: 1.45e13 B/s).
	AboveHBM int           `json:"above_hbm"`
	Shapes   int           `json:"shapes"`
	Points   []StreamPoint `json:"points"`
}

// MoEStreamFile is moe_stream.json.
type MoEStreamFile struct {
	Source  string      `json:"source"`
	Commit  string      `json:"commit"`
	Entries []MoEStream `json:"entries"`
}

const streamMaxGPUs = 8

func moeStreamCmd(args []string) {
	fs := flag.NewFlagSet("moestream", flag.ExitOnError)
	systems := fs.String("systems", "a100_sxm,h100_sxm,h200_sxm,b200_sxm,b300_sxm,gb200,l40s,rtx_pro_6000_server", "systems")
	engines := fs.String("engines", "vllm,sglang", "engines")
	format := fs.String("format", "md", "md | json")
	commit := fs.String("commit", "095f58a51c4ca8e61b66ec108d86f223f8d559ce", "aiconfigurator commit the tables are from")
	_ = fs.Parse(args)
	if fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: aicdata moestream [-systems a,b] [-engines vllm,sglang] [-format md|json] SYSTEMS_DIR")
		os.Exit(2)
	}
	dir := fs.Arg(0)
	out := MoEStreamFile{Source: "ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/systems/data/<system>/moe/<engine>/<release>/moe_perf.parquet", Commit: *commit}
	for _, s := range strings.Split(*systems, ",") {
		y, err := readYAML(filepath.Join(dir, s+".yaml"))
		if err != nil {
			warn(err)
			continue
		}
		for _, e := range strings.Split(*engines, ",") {
			p, ver := latestFile(filepath.Join(dir, "data", s, "moe", e), "moe_perf.parquet")
			if p == "" {
				continue
			}
			t, err := Load(p)
			if err != nil {
				warn(err)
				continue
			}
			for _, m := range moeStreams(t, y.MemBW) {
				m.System, m.Engine, m.Version = s, e, ver
				out.Entries = append(out.Entries, m)
			}
		}
	}
	switch *format {
	case "json":
		writeMoEStreamJSON(os.Stdout, out)
	default:
		writeMoEStreamMD(os.Stdout, out)
	}
}

// streamRow is one balanced row's fields.
type streamRow struct {
	T   int
	lat float64 // seconds
}

type streamKey struct {
	dtype, kernel      string
	H, I, k, E, tp, ep int
}

// moeStreams applies the rule to one table; hbm is the datasheet HBM in
// bytes/s.
func moeStreams(t *Table, hbm float64) []MoEStream {
	groups := map[streamKey][]streamRow{}
	for i := range t.Nums {
		if t.Str(i, "distribution") != "balanced" {
			continue
		}
		d := t.Str(i, "moe_dtype")
		if streamBits[d] == 0 {
			continue
		}
		k := streamKey{d, t.Str(i, "kernel_source"), int(t.Num(i, "hidden_size")), int(t.Num(i, "inter_size")),
			int(t.Num(i, "topk")), int(t.Num(i, "num_experts")), int(t.Num(i, "moe_tp_size")), int(t.Num(i, "moe_ep_size"))}
		l := t.Num(i, "latency") * 1e-3
		if !(l > 0) || k.tp <= 0 || k.ep <= 0 || k.E <= 0 || k.k <= 0 {
			continue
		}
		groups[k] = append(groups[k], streamRow{int(t.Num(i, "num_tokens")), l})
	}
	type ek struct{ dtype, kernel string }
	ents := map[ek]*MoEStream{}
	for k, rows := range groups {
		p, ok := streamPoint(k, rows)
		if !ok {
			continue
		}
		key := ek{k.dtype, k.kernel}
		if ents[key] == nil {
			ents[key] = &MoEStream{Dtype: k.dtype, Kernel: k.kernel, Bits: streamBits[k.dtype], HBM: hbm}
		}
		switch {
		case p.TP*p.EP > streamMaxGPUs:
		case hbm > 0 && p.BytesPerS > hbm:
			ents[key].AboveHBM++
		default:
			ents[key].Points = append(ents[key].Points, p)
		}
	}
	var out []MoEStream
	for _, m := range ents {
		sort.Slice(m.Points, func(a, b int) bool {
			pa, pb := m.Points[a], m.Points[b]
			if pa.Shape != pb.Shape {
				return pa.Shape < pb.Shape
			}
			if pa.TP != pb.TP {
				return pa.TP < pb.TP
			}
			return pa.EP < pb.EP
		})
		var rs []float64
		shapes := map[string]bool{}
		for _, p := range m.Points {
			rs = append(rs, p.BytesPerS)
			shapes[p.Shape] = true
		}
		if len(rs) == 0 {
			continue
		}
		sort.Float64s(rs)
		m.Used, m.Shapes = len(rs), len(shapes)
		m.BytesPerS = r(median(rs), 4)
		m.Min, m.Max = r(rs[0], 3), r(rs[len(rs)-1], 3)
		m.P25, m.P75 = r(quantile(rs, 0.25), 3), r(quantile(rs, 0.75), 3)
		if hbm > 0 {
			m.FracHBM = r(m.BytesPerS/hbm, 3)
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Dtype != out[b].Dtype {
			return out[a].Dtype < out[b].Dtype
		}
		return out[a].Kernel < out[b].Kernel
	})
	return out
}

// streamPoint is one group's slope between its two largest streaming-
// regime token counts (false where the group has no such pair or the
// latency does not grow).
func streamPoint(k streamKey, rows []streamRow) (StreamPoint, bool) {
	byT := map[int]float64{}
	for _, r := range rows {
		if old, ok := byT[r.T]; !ok || r.lat < old {
			byT[r.T] = r.lat
		}
	}
	var ts []int
	for T := range byT {
		if T >= 1 && T*k.k <= k.E {
			ts = append(ts, T)
		}
	}
	sort.Sort(sort.Reverse(sort.IntSlice(ts)))
	if len(ts) < 2 {
		return StreamPoint{}, false
	}
	hi := ts[0]
	hHi := localHits(hi, k.E, k.k, k.ep)
	for _, lo := range ts[1:] {
		hLo := localHits(lo, k.E, k.k, k.ep)
		if hLo < 1 || hLo >= hHi {
			continue
		}
		dl := byT[hi] - byT[lo]
		if dl <= 0 {
			return StreamPoint{}, false
		}
		m := 3.0
		if !gatedShape(k.H, k.I, k.k, k.E) {
			m = 2
		}
		expert := m * float64(k.H) * float64(k.I/k.tp) * streamBits[k.dtype] / 8
		return StreamPoint{
			Shape: fmt.Sprintf("H%d_I%d_k%d_E%d", k.H, k.I, k.k, k.E), TP: k.tp, EP: k.ep,
			TLo: lo, THi: hi, HitsLo: hLo, HitsHi: hHi,
			LatLoMS: r(byT[lo]*1e3, 5), LatHiMS: r(byT[hi]*1e3, 5),
			ExpertBytes: expert, BytesPerS: r(float64(hHi-hLo)*expert/dl, 4),
		}, true
	}
	return StreamPoint{}, false
}

// gatedShape: every shape but Nemotron-H's relu² experts (the collector's
// NemotronHForCausalLM cases, sglang_moe_is_gated: false: top-22 of 512,
// and Nemotron-3 Nano's 2688 × 1856, top-6 of 128).
func gatedShape(H, I, k, E int) bool {
	return !(k == 22 && E == 512) && !(H == 2688 && I == 1856)
}

// balancedExperts is the set of experts aiconfigurator's balanced_logits
// (collector/helper.py) routes num_tokens tokens to:
//
//	stride = ceil(E / k)
//	T ≥ stride: (i + j·stride) mod E
//	T < stride: (i·stride/T + j·stride) mod E, truncated to an integer
//
// for token i < T and slot j < k.
func balancedExperts(T, E, k int) map[int]bool {
	stride := (E + k - 1) / k
	hit := map[int]bool{}
	for i := 0; i < T; i++ {
		for j := 0; j < k; j++ {
			var e int
			if T >= stride {
				e = (i + j*stride) % E
			} else {
				e = int(math.Mod(float64(i)*float64(stride)/float64(T)+float64(j*stride), float64(E)))
			}
			hit[e] = true
		}
	}
	return hit
}

// localHits is how many of the timed rank's experts [0, E/EP) the
// balanced routing of T tokens hits.
func localHits(T, E, k, ep int) int {
	n := 0
	for e := range balancedExperts(T, E, k) {
		if e < E/ep {
			n++
		}
	}
	return n
}

func writeMoEStreamMD(w io.Writer, f MoEStreamFile) {
	fmt.Fprintln(w, "| system | engine | dtype | kernel | rate TB/s (frac HBM) | min–max (p25–p75) | points / shapes (above HBM) | median by moe_ep |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, m := range f.Entries {
		byEP := map[int][]float64{}
		for _, p := range m.Points {
			byEP[p.EP] = append(byEP[p.EP], p.BytesPerS)
		}
		var eps []int
		for ep := range byEP {
			eps = append(eps, ep)
		}
		sort.Ints(eps)
		var cells []string
		for _, ep := range eps {
			cells = append(cells, fmt.Sprintf("%d: %.2f", ep, median(byEP[ep])/1e12))
		}
		fmt.Fprintf(w, "| %s | %s %s | %s | %s | **%.2f** (%.2f) | %.2f–%.2f (%.2f–%.2f) | %d / %d (%d) | %s |\n",
			m.System, m.Engine, m.Version, m.Dtype, m.Kernel, m.BytesPerS/1e12, m.FracHBM,
			m.Min/1e12, m.Max/1e12, m.P25/1e12, m.P75/1e12, m.Used, m.Shapes, m.AboveHBM, strings.Join(cells, ", "))
	}
}

// writeMoEStreamJSON writes f compactly, one entry and one point a line
// (the file stays diffable; indented it is 1.5 MB).
func writeMoEStreamJSON(w io.Writer, f MoEStreamFile) {
	b, err := json.Marshal(f)
	if err != nil {
		warn(err)
		return
	}
	s := strings.ReplaceAll(string(b), `{"system":`, "\n{\"system\":")
	s = strings.ReplaceAll(s, `{"shape":`, "\n {\"shape\":")
	fmt.Fprintln(w, s)
}
