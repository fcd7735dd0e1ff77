package replay

import (
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// runMCSens turns on TestMeasuredComputeSensitivity (also VLAUNCH_MCSENS=1).
var runMCSens = flag.Bool("mcsens", false, "print every published figure's error at several measured_compute values (issue #28)")

// mcValues are the measured_compute values the sensitivity analysis replays
// at: the fitted one first (the baseline), then the shares a hand FLOP count
// of the dense prefill anchors points to (≈0.6 of the FP8 peak over the
// table's 0.56, i.e. ≈1) and between.
var mcValues = []float64{perf.DefaultEfficiency.MeasuredCompute, 0.6, 0.8, 1.0}

// mcFigure is one published figure replayed at every mcValues entry.
type mcFigure struct {
	Target
	GPU, Engine, Arch, Prompt string
	Measured, Excluded        bool
	// Pred is the prediction at each mcValues entry.
	Pred []float64
}

// logErr is |log(predicted/published)| at value i: the fit's per-figure
// criterion (fit.go Score, fitter's typical objective).
func (f mcFigure) logErr(i int) float64 {
	return math.Abs(math.Log(math.Max(f.Pred[i], 1e-12) / f.Published))
}

// delta is how much raising measured_compute from the fitted value to 0.8
// (mcValues[2]) worsens the figure's |log error| (negative: improves).
func (f mcFigure) delta() float64 { return f.logErr(2) - f.logErr(0) }

func (f mcFigure) within(i int) bool { return math.Abs(f.Pred[i]/f.Published-1) <= target }

// archOf is a model's class for the analysis: MLA (DeepSeek-style latent
// attention, MoE or not), MoE, or dense.
func archOf(r published.Row) string {
	m, err := catalog.LookupModel(r.Model.Catalog)
	switch {
	case err != nil:
		return "?"
	case m.IsMLA():
		return "MLA"
	case m.IsMoE():
		return "MoE"
	}
	return "dense"
}

// promptBucket groups prompt lengths (mean where published).
func promptBucket(r published.Row) string {
	in, _ := lengths(r.Workload)
	switch {
	case in < 1024:
		return "<1K"
	case in < 4096:
		return "1K-4K"
	case in < 16384:
		return "4K-16K"
	}
	return ">=16K"
}

// mcReplay replays rows at every mcValues entry with every other constant
// at perf.DefaultEfficiency.
func mcReplay(rows []published.Row) []mcFigure {
	byID := map[string]published.Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	var figs []mcFigure
	idx := map[[2]string]int{}
	for i, v := range mcValues {
		e := perf.DefaultEfficiency
		e.MeasuredCompute = v
		for _, x := range ReproduceAll(rows, e, nil) {
			k := [2]string{x.Row, x.Metric}
			if i == 0 {
				r := byID[x.Row]
				g, _ := catalog.LookupGPU(r.Hardware.GPU)
				_, measured := perf.MeasuredKernels(g)
				_, ex := Excluded(x, x.Engine)
				idx[k] = len(figs)
				figs = append(figs, mcFigure{Target: x, GPU: r.Hardware.GPU, Engine: strings.TrimSpace(x.Engine + " " + releaseOf(r.Engine.Version)),
					Arch: archOf(r), Prompt: promptBucket(r), Measured: measured, Excluded: ex, Pred: make([]float64, len(mcValues))})
			}
			if j, ok := idx[k]; ok {
				figs[j].Pred[i] = x.Predicted
			}
		}
	}
	return figs
}

// mcObjective is the global fit's criterion (fitter's typical objective:
// mean |log error| + 0.1 × worst) over figs at value i.
func mcObjective(figs []mcFigure, i int) float64 {
	var sum, worst float64
	for _, f := range figs {
		sum += f.logErr(i)
		worst = max(worst, f.logErr(i))
	}
	return sum/float64(max(1, len(figs))) + 0.1*worst
}

// mcPrintFigures prints one line per figure, ranked by delta.
func mcPrintFigures(title string, figs []mcFigure) {
	fmt.Printf("\n## %s: %d figures (%d on measured GPUs)\n", title, len(figs), countIf(figs, func(f mcFigure) bool { return f.Measured }))
	hdr := "| Δ|log err| 0.42→0.8 | row | figure | GPU | meas | engine | arch | prompt | published |"
	for _, v := range mcValues {
		hdr += fmt.Sprintf(" err @%.2f |", v)
	}
	fmt.Println(hdr)
	s := append([]mcFigure(nil), figs...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].delta() > s[b].delta() })
	for _, f := range s {
		m := "no"
		if f.Measured {
			m = "yes"
		}
		line := fmt.Sprintf("| %+.3f | %s | %s | %s | %s | %s | %s | %s | %.4g %s |", f.delta(), f.Row, f.Metric, f.GPU, m, f.Engine, f.Arch, f.Prompt, f.Published, f.Unit)
		for i := range mcValues {
			line += fmt.Sprintf(" %+.0f%% |", 100*(f.Pred[i]/f.Published-1))
		}
		fmt.Println(line)
	}
	fmt.Printf("within ±30%%:")
	for i, v := range mcValues {
		fmt.Printf(" @%.2f %d", v, countIf(figs, func(f mcFigure) bool { return f.within(i) }))
	}
	fmt.Printf(" of %d; fit objective (mean |log err| + 0.1 worst):", len(figs))
	for i, v := range mcValues {
		fmt.Printf(" @%.2f %.4f", v, mcObjective(figs, i))
	}
	fmt.Println()
}

// mcPrintGroups prints, per value of key, the figures on measured GPUs:
// their summed Δ|log err| (what the fit's mean sees), within-±30% counts and
// median signed error at each value.
func mcPrintGroups(name string, figs []mcFigure, key func(mcFigure) string) {
	groups := map[string][]mcFigure{}
	for _, f := range figs {
		if f.Measured {
			groups[key(f)] = append(groups[key(f)], f)
		}
	}
	keys := sortedKeys(groups)
	sum := func(fs []mcFigure) float64 {
		var s float64
		for _, f := range fs {
			s += f.delta()
		}
		return s
	}
	sort.SliceStable(keys, func(a, b int) bool { return sum(groups[keys[a]]) > sum(groups[keys[b]]) })
	fmt.Printf("\n### by %s (measured GPUs only)\n| %s | n | ΣΔ|log err| | worse / better |", name, name)
	for _, v := range mcValues {
		fmt.Printf(" in ±30%% @%.2f | median err @%.2f |", v, v)
	}
	fmt.Println()
	for _, k := range keys {
		fs := groups[k]
		worse := countIf(fs, func(f mcFigure) bool { return f.delta() > 0.005 })
		better := countIf(fs, func(f mcFigure) bool { return f.delta() < -0.005 })
		fmt.Printf("| %s | %d | %+.2f | %d / %d |", k, len(fs), sum(fs), worse, better)
		for i := range mcValues {
			var es []float64
			for _, f := range fs {
				es = append(es, f.Pred[i]/f.Published-1)
			}
			fmt.Printf(" %d | %+.0f%% |", countIf(fs, func(f mcFigure) bool { return f.within(i) }), 100*median(es))
		}
		fmt.Println()
	}
}

func countIf(figs []mcFigure, ok func(mcFigure) bool) int {
	n := 0
	for _, f := range figs {
		if ok(f) {
			n++
		}
	}
	return n
}

// TestMeasuredComputeSensitivity is an analysis, not a guard (issue #28:
// which published figures hold measured_compute at 0.42 while the dense
// prefill anchors want ≈0.8): it replays every targetable row, the anchors
// and the aiconfigurator comparison at each of mcValues, every other
// constant fixed, and prints per figure and per group (source, GPU,
// engine release, model class, figure kind, prompt length) the error at
// each value, ranked by how much 0.8 worsens a figure's |log error|; then
// the step terms of the rows 0.8 worsens most with a hand count of their
// FLOPs (mcBreakdown), the calibration and holdout counts over a finer
// scan of values (mcScan), the anchors and the aiconfigurator groups.
// Skipped unless run with -mcsens or VLAUNCH_MCSENS=1 (15–30 s):
//
//	go test ./estimate/replay -run TestMeasuredComputeSensitivity -mcsens -v
//
// Its one assertion: the constant acts only on the GPUs the kernel tables
// cover (perf.ForGPU), so no other figure may move.
func TestMeasuredComputeSensitivity(t *testing.T) {
	if !*runMCSens && os.Getenv("VLAUNCH_MCSENS") == "" {
		t.Skip("analysis: run with -mcsens or VLAUNCH_MCSENS=1")
	}
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	var rows []published.Row
	for _, r := range set.Rows {
		if r.Targetable() {
			rows = append(rows, r)
		}
	}
	figs := mcReplay(rows)
	for _, f := range figs {
		for i := range mcValues {
			if !f.Measured && f.Pred[i] != f.Pred[0] {
				t.Errorf("%s %s on %s (no measured kernels) moves with measured_compute: %.6g at %.2f, %.6g at %.2f",
					f.Row, f.Metric, f.GPU, f.Pred[0], mcValues[0], f.Pred[i], mcValues[i])
			}
		}
	}
	split := func(keep func(mcFigure) bool) []mcFigure {
		var out []mcFigure
		for _, f := range figs {
			if keep(f) {
				out = append(out, f)
			}
		}
		return out
	}
	cal := split(func(f mcFigure) bool { return f.Split == published.SplitCalibration && !f.Excluded })
	calEx := split(func(f mcFigure) bool { return f.Split == published.SplitCalibration && f.Excluded })
	hold := split(func(f mcFigure) bool { return f.Split != published.SplitCalibration && !f.Excluded })
	for _, s := range []struct {
		title string
		figs  []mcFigure
	}{{"calibration (fitted)", cal}, {"calibration, excluded (not fitted)", calEx}, {"holdout", hold}} {
		mcPrintFigures(s.title, s.figs)
		if len(s.figs) == len(calEx) {
			continue
		}
		mcPrintGroups("source", s.figs, func(f mcFigure) string { return f.Source })
		mcPrintGroups("GPU", s.figs, func(f mcFigure) string { return f.GPU })
		mcPrintGroups("engine", s.figs, func(f mcFigure) string { return f.Engine })
		mcPrintGroups("model class", s.figs, func(f mcFigure) string { return f.Arch })
		mcPrintGroups("figure kind", s.figs, func(f mcFigure) string { return kindOf(f.Regime) })
		mcPrintGroups("prompt", s.figs, func(f mcFigure) string { return f.Prompt })
		mcPrintGroups("class × figure kind", s.figs, func(f mcFigure) string { return f.Arch + " " + kindOf(f.Regime) })
	}
	byID := map[string]published.Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	mcBreakdown(t, cal, byID, 15)
	mcScan(rows)
	mcAnchors(t)
	mcAICMP(t, figs)
}

// mcAnchors prints every anchor's error at each value.
func mcAnchors(t *testing.T) {
	set, err := published.Anchors()
	if err != nil {
		t.Fatal(err)
	}
	th, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	res := make([][]AnchorResult, len(mcValues))
	for i, v := range mcValues {
		e := perf.DefaultEfficiency
		e.MeasuredCompute = v
		if res[i], err = ReproduceAnchors(set, th, e); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("\n## anchors\n| anchor | GPU | counts |")
	for _, v := range mcValues {
		fmt.Printf(" err @%.2f |", v)
	}
	fmt.Println()
	for j, a := range res[0] {
		fmt.Printf("| %s | %s | %s |", a.Anchor.ID, a.Anchor.GPU, yesNo(a.Anchor.Counts))
		for i := range mcValues {
			fmt.Printf(" %+.0f%% |", 100*res[i][j].Error())
		}
		fmt.Println()
	}
	fmt.Printf("within ±15%%:")
	for i, v := range mcValues {
		n := 0
		for _, a := range res[i] {
			if a.Within() {
				n++
			}
		}
		fmt.Printf(" @%.2f %d", v, n)
	}
	fmt.Printf(" of %d\n", len(res[0]))
}

// mcAICMP prints, per group of the aiconfigurator comparison, how many
// figures vlaunch is at least as close on and its median |error| at each
// value (global constants; the leave-one-source-out column is not replayed).
func mcAICMP(t *testing.T, figs []mcFigure) {
	f, err := os.Open(aicPredictionsFile)
	if err != nil {
		t.Fatal(err)
	}
	_, lines, err := readAICPredictions(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	aic := map[[2]string]float64{}
	for _, l := range lines {
		if l.ok() {
			aic[[2]string{l.Row, l.Metric}] = l.Pred
		}
	}
	groups := map[string][]int{}
	var comp []aicFigure
	var mf []mcFigure
	for _, x := range figs {
		p, ok := aic[[2]string{x.Row, x.Metric}]
		if !ok {
			continue
		}
		a := aicFigure{Target: x.Target, AIC: p, MoE: x.Arch != "dense", Excluded: x.Excluded}
		groups[aicGroupKey(a)] = append(groups[aicGroupKey(a)], len(comp))
		comp, mf = append(comp, a), append(mf, x)
	}
	fmt.Printf("\n## aiconfigurator comparison (wins = vlaunch at least as close)\n| group | n |")
	for _, v := range mcValues {
		fmt.Printf(" wins @%.2f | median |err| @%.2f |", v, v)
	}
	fmt.Println(" aiconfigurator median |err| |")
	for _, k := range sortedKeys(groups) {
		fmt.Printf("| %s | %d |", k, len(groups[k]))
		for i := range mcValues {
			var fs []aicFigure
			for _, j := range groups[k] {
				c := comp[j]
				c.Predicted, c.LOSO = mf[j].Pred[i], mf[j].Pred[i]
				fs = append(fs, c)
			}
			st := statOf(fs)
			fmt.Printf(" %d | %.0f%% |", st.Wins, 100*st.VLaunch)
			if i == len(mcValues)-1 {
				fmt.Printf(" %.0f%% |", 100*st.AIC)
			}
		}
		fmt.Println()
	}
}

// mcBreakdown prints, for the rows whose figures raising measured_compute
// worsens most (n rows, the worst figure first), the step a prompt-heavy
// run is made of — one engine step of the row's token budget filled with
// whole prompts, as a burst's prefill phase runs it — by term at the
// fitted value and at 0.8, next to a hand count of that step's FLOPs on
// one GPU and the share of the peak each term then reaches: linear layers
// apart from the routed experts (one rank's tokens over TP, MLA's latent
// down-projections whole on every rank: catalog.Model.AttentionParams with
// one rank's heads, as vLLM's DeepseekV2MLAAttention replicates
// fused_qkv_a_proj), routed experts (every rank's tokens over the EP
// group), causal prefill attention (over TP).
func mcBreakdown(t *testing.T, figs []mcFigure, rows map[string]published.Row, n int) {
	s := append([]mcFigure(nil), figs...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].delta() > s[b].delta() })
	seen := map[string]bool{}
	fmt.Printf("\n## step terms of the rows 0.8 worsens most (one step of the token budget in whole prompts; ms)\n")
	for _, f := range s {
		if len(seen) >= n || seen[f.Row] {
			continue
		}
		seen[f.Row] = true
		r := rows[f.Row]
		in, _ := lengths(r.Workload)
		for _, v := range []float64{mcValues[0], 0.8} {
			e := perf.DefaultEfficiency
			e.MeasuredCompute = v
			st, eng, err := Setup(r, e)
			if err != nil {
				t.Fatal(err)
			}
			sm := perf.NewStepModel(st)
			c := eng.batchTok
			seqs, chunk := max(1, c/in), min(c, in)
			tok := float64(seqs * chunk)
			step := sm.StepUniform(perf.RankLoad{PrefillTokens: tok, PrefillSeqs: float64(seqs),
				PrefillPairs: float64(seqs) * float64(chunk) * (float64(chunk) + 1) / 2})
			m := st.Model
			p := m.ParamCounts()
			tp := float64(st.TP)
			expertTok := 2 * p.ExpertPerLayerEach * float64(m.ExpertsPerToken) * float64(m.MoELayerCount())
			rankAttn := m.AttentionParams(float64(m.NumHeads)/tp, max(1, float64(m.NumKVHeads)/tp)) * float64(m.NumLayers)
			linF := ((perf.LinearFLOPsPerToken(m)-expertTok-2*p.Attention)/tp + 2*rankAttn) * tok / float64(st.PP)
			expertF := expertTok * tok * float64(st.DP) / float64(st.EPSize()) / float64(st.PP)
			attF := perf.AttentionPrefillFLOPs(m, float64(chunk)) * float64(seqs) / tp / float64(st.PP)
			peak := st.HW.BF16FLOPS
			if st.WeightDType == "fp8" && st.HW.FP8FLOPS > 0 {
				peak = st.HW.FP8FLOPS
			}
			share := func(f, peak, s float64) float64 { return 100 * f / (peak * max(s, 1e-12)) }
			fmt.Printf("- %s @%.2f (%s; %s weights; %d × %d tokens of a %d budget): step %.1f = dense %.1f + experts %.1f + attention %.1f + gaps %.2f + TP %.1f + host %.1f "+
				"(launches %.1f, overlapped); hand count per GPU: dense %.3g TFLOP (%.0f%% of the %s peak in its term), experts %.3g TFLOP (%.0f%%), attention %.3g TFLOP (%.0f%% of BF16)\n",
				f.Row, v, Describe(r), st.WeightDType, seqs, chunk, c, 1e3*step.TotalS, 1e3*step.DenseS, 1e3*step.ExpertS, 1e3*step.AttentionS, 1e3*step.KernelGapsS,
				1e3*step.TPS, 1e3*step.OverheadS, 1e3*step.LaunchS,
				linF/1e12, share(linF, peak, step.DenseS), st.WeightDType, expertF/1e12, share(expertF, peak, step.ExpertS),
				attF/1e12, share(attF, st.HW.BF16FLOPS, step.AttentionS))
		}
	}
}

// mcScanValues are the values mcScan replays at: where, all else fixed,
// the calibration's objective and counts are best.
var mcScanValues = []float64{perf.DefaultEfficiency.MeasuredCompute, 0.46, 0.50, 0.54, 0.58, 0.62, 0.66, 0.70, 0.80, 0.90, 1.0}

// mcScan prints, at each of mcScanValues, the calibration split's fit
// objective and figures within ±30%, the holdout split's, and the same for
// the calibration figures on measured GPUs by model class.
func mcScan(rows []published.Row) {
	old := mcValues
	mcValues = mcScanValues
	defer func() { mcValues = old }()
	var cal, hold []mcFigure
	for _, f := range mcReplay(rows) {
		switch {
		case f.Excluded:
		case f.Split == published.SplitCalibration:
			cal = append(cal, f)
		default:
			hold = append(hold, f)
		}
	}
	fmt.Printf("\n## scan (every other constant fixed)\n| measured_compute | calibration in ±30%% | calibration objective | holdout in ±30%% | measured dense / MoE / MLA calibration in ±30%% |\n")
	for i, v := range mcValues {
		in := func(fs []mcFigure, arch string) string {
			var n, k int
			for _, f := range fs {
				if (arch == "" || f.Arch == arch && f.Measured) && f.within(i) {
					k++
				}
				if arch == "" || f.Arch == arch && f.Measured {
					n++
				}
			}
			return fmt.Sprintf("%d of %d", k, n)
		}
		fmt.Printf("| %.2f | %s | %.4f | %s | %s / %s / %s |\n", v, in(cal, ""), mcObjective(cal, i), in(hold, ""), in(cal, "dense"), in(cal, "MoE"), in(cal, "MLA"))
	}
}
