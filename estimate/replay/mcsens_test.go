package replay

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// runMCSens turns on TestMeasuredComputeSensitivity (also VLAUNCH_MCSENS=1).
var runMCSens = flag.Bool("mcsens", false, "print every published figure's error at several measured_compute values (issue #28)")

// scanName and scanBy turn on TestConstantSensitivity: the constant to scan
// (a perf.Efficiency.Field name) and the multiples of its fitted value to
// replay at.
var (
	scanName = flag.String("scan", "", "scan this fitted constant (perf.Efficiency.Field name, e.g. step_overhead_s) with every other one fixed (issue #28)")
	scanBy   = flag.String("scanby", "0.25,0.5,1,1.5", "comma-separated multiples of the fitted value -scan replays at (1 is added when missing)")
)

// sensScan is one constant replayed at several values, every other
// constant at perf.DefaultEfficiency.
type sensScan struct {
	name   string
	values []float64
	// labels name each value in the tables ("0.42", "×0.5").
	labels []string
	// base is the index of the fitted value; probe the value whose change
	// of each figure's |log error| from base ranks the figures (positive:
	// the probe makes the figure worse).
	base, probe int
}

// eff is perf.DefaultEfficiency with the scanned constant at value i.
func (s sensScan) eff(i int) perf.Efficiency {
	e := perf.DefaultEfficiency
	*e.Field(s.name) = s.values[i]
	return e
}

// mcValues are the measured_compute values TestMeasuredComputeSensitivity
// replays at: the fitted one first (the baseline), then the shares a hand
// FLOP count of the dense prefill anchors points to (≈0.6 of the FP8 peak
// over the table's 0.56, i.e. ≈1) and between; 0.8 ranks the figures.
var mcValues = []float64{perf.DefaultEfficiency.MeasuredCompute, 0.6, 0.8, 1.0}

// absScan scans name at the absolute values vs (the fitted one first),
// ranked at vs[probe].
func absScan(name string, vs []float64, probe int) sensScan {
	s := sensScan{name: name, values: vs, probe: probe}
	for _, v := range vs {
		s.labels = append(s.labels, fmt.Sprintf("%.2f", v))
	}
	return s
}

// multScan scans name at multiples of its fitted value (1 added when
// missing), ranked at the half (else the largest multiple below 1, else
// the smallest above): the figures that worsen most when the constant is
// halved want it high.
func multScan(name string, by []float64) (sensScan, error) {
	e := perf.DefaultEfficiency
	f := e.Field(name)
	if f == nil {
		return sensScan{}, fmt.Errorf("no constant %q (perf.Efficiency.Field)", name)
	}
	if !slices.Contains(by, 1) {
		by = append(by, 1)
	}
	slices.Sort(by)
	s := sensScan{name: name, base: slices.Index(by, 1), probe: -1}
	for i, m := range by {
		if m <= 0 {
			return sensScan{}, fmt.Errorf("multiple %g is not positive", m)
		}
		s.values = append(s.values, m**f)
		s.labels = append(s.labels, fmt.Sprintf("×%g", m))
		switch {
		case m == 0.5:
			s.probe = i
		case m < 1 && (s.probe < 0 || by[s.probe] != 0.5):
			s.probe = i
		}
	}
	if s.probe < 0 {
		s.probe = min(len(by)-1, s.base+1)
	}
	return s, nil
}

// parseMultiples reads -scanby.
func parseMultiples(v string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(v, ",") {
		m, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("-scanby %q: %w", v, err)
		}
		out = append(out, m)
	}
	return out, nil
}

// mcFigure is one published figure replayed at every value of a scan.
type mcFigure struct {
	Target
	GPU, Engine, Arch, Prompt string
	// Async says whether the row's engine schedules the next step while
	// the GPU runs this one (vLLM's async scheduling, its release's default
	// unless the row says: engine.scheduleAhead; SGLang's overlap
	// scheduler) and whether the step model then hides the host's step
	// costs (StepSetup.OverlapHost: only where the row states it, see
	// perf.SetupFromInput): "sync", "async, host charged", "async, host
	// hidden".
	Async string
	// Batch buckets the sequences one engine (DP rank) runs (batchOf);
	// Layout is TP×PP (one process or worker processes).
	Batch, Layout      string
	Measured, Excluded bool
	// Pred is the prediction at each value of the scan; base and probe
	// are the scan's.
	Pred        []float64
	base, probe int
}

// logErr is |log(predicted/published)| at value i: the fit's per-figure
// criterion (fit.go Score, fitter's typical objective).
func (f mcFigure) logErr(i int) float64 {
	return math.Abs(math.Log(math.Max(f.Pred[i], 1e-12) / f.Published))
}

// delta is how much the scan's probe value (measured_compute 0.8; half a
// scanned constant) worsens the figure's |log error| from the fitted value
// (negative: improves).
func (f mcFigure) delta() float64 { return f.logErr(f.probe) - f.logErr(f.base) }

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

// batchOf is the sequences one engine (one DP rank) runs — the steady
// batch, the closed loop's concurrency, or the burst's requests up to the
// engine's max_num_seqs; 0 where the load sets no number — and its bucket
// ("poisson", "prefill" and "production" for those loads).
func batchOf(r published.Row, e engine) (float64, string) {
	l := r.Load
	dp := float64(max(1, r.Layout.DP.Int()))
	var n float64
	switch l.Kind {
	case published.LoadSteadyDecode:
		n = l.BatchPerGPU.V * float64(max(1, r.Layout.TP.Int()))
	case published.LoadClosedLoop:
		n = l.Concurrency.V / dp
		if l.ConcurrencyPerRank.Positive() {
			n = l.ConcurrencyPerRank.V
		}
	case published.LoadBurst, published.LoadOfflineBatch:
		n = min(l.BurstRequests.V/dp, float64(e.maxSeqs))
	case published.LoadSteadyPrefill:
		return 0, "prefill"
	default:
		return 0, l.Kind
	}
	switch {
	case n <= 0:
		return 0, "?"
	case n < 1.5:
		return n, "1"
	case n <= 8:
		return n, "2-8"
	case n <= 32:
		return n, "9-32"
	case n <= 128:
		return n, "33-128"
	case n <= 512:
		return n, "129-512"
	}
	return n, ">512"
}

// sensSteps prints, for the n rows whose figures the probe worsens most
// and the n it improves most, the decode step of one engine at the row's
// batch (batchOf; rows without one are skipped) and mean context by term
// at the fitted constants: what the GPU does, what the host adds, and
// the published TPOT where there is one.
func sensSteps(t *testing.T, figs []mcFigure, rows map[string]published.Row, n int) {
	s := append([]mcFigure(nil), figs...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].delta() > s[b].delta() })
	show := func(title string, order []mcFigure) {
		fmt.Printf("\n### %s: one decode step at the row's batch per engine (fitted constants; ms)\n", title)
		seen := map[string]bool{}
		for _, f := range order {
			if len(seen) >= n || seen[f.Row] {
				continue
			}
			r := rows[f.Row]
			st, eng, err := Setup(r, perf.DefaultEfficiency)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := batchOf(r, eng)
			if b <= 0 {
				continue
			}
			seen[f.Row] = true
			in, out := lengths(r.Workload)
			_, x := perf.NewStepModel(st).DecodeAt(int(b+0.5)*st.DP, float64(in)+float64(out)/2)
			gpu := x.TotalS - x.OverheadS
			tpot := "—"
			if v := r.Figures.TPOTMs.Mean; v.Positive() {
				tpot = fmt.Sprintf("%.2f", v.V)
			}
			fmt.Printf("- %s (%s; %s, batch %.0f): step %.2f = GPU %.2f (dense %.2f, experts %.2f, attention %.2f, gaps %.2f over %.0f kernels, TP %.2f, all-to-all %.2f) + exposed host %.2f (host %.2f, launches %.2f); published TPOT %s\n",
				f.Row, Describe(r), f.Async, b, 1e3*x.TotalS, 1e3*gpu, 1e3*x.DenseS, 1e3*x.ExpertS, 1e3*x.AttentionS, 1e3*x.KernelGapsS, x.Kernels,
				1e3*x.TPS, 1e3*x.A2AS, 1e3*x.OverheadS, 1e3*x.HostS, 1e3*x.LaunchS, tpot)
		}
	}
	show("rows the probe worsens most", s)
	slices.Reverse(s)
	show("rows the probe improves most", s)
}

// mcReplay replays rows at every value of s with every other constant at
// perf.DefaultEfficiency.
func mcReplay(rows []published.Row, s sensScan) []mcFigure {
	byID := map[string]published.Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	var figs []mcFigure
	idx := map[[2]string]int{}
	for i := range s.values {
		for _, x := range ReproduceAll(rows, s.eff(i), nil) {
			k := [2]string{x.Row, x.Metric}
			if i == 0 {
				r := byID[x.Row]
				g, _ := catalog.LookupGPU(r.Hardware.GPU)
				_, measured := perf.MeasuredKernels(g)
				_, ex := Excluded(x, x.Engine)
				f := mcFigure{Target: x, GPU: r.Hardware.GPU, Engine: strings.TrimSpace(x.Engine + " " + releaseOf(r.Engine.Version)),
					Arch: archOf(r), Prompt: promptBucket(r), Measured: measured, Excluded: ex, Pred: make([]float64, len(s.values)),
					base: s.base, probe: s.probe}
				if st, e, err := Setup(r, perf.DefaultEfficiency); err == nil {
					switch {
					case st.OverlapHost:
						f.Async = "async, host hidden"
					case e.scheduleAhead:
						f.Async = "async, host charged"
					default:
						f.Async = "sync"
					}
					_, f.Batch = batchOf(r, e)
					f.Layout = fmt.Sprintf("TP%d×PP%d", st.TP, st.PP)
				}
				idx[k] = len(figs)
				figs = append(figs, f)
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

// mcPrintFigures prints one line per figure, ranked by delta (the ones
// the probe worsens most first); with top > 0 only the top figures each
// way.
func mcPrintFigures(sc sensScan, title string, figs []mcFigure, top int) {
	fmt.Printf("\n## %s: %d figures (%d on measured GPUs)\n", title, len(figs), countIf(figs, func(f mcFigure) bool { return f.Measured }))
	hdr := fmt.Sprintf("| Δ|log err| %s→%s | row | figure | GPU | meas | engine | async | layout | batch | arch | prompt | published |", sc.labels[sc.base], sc.labels[sc.probe])
	for _, l := range sc.labels {
		hdr += fmt.Sprintf(" err @%s |", l)
	}
	fmt.Println(hdr)
	s := append([]mcFigure(nil), figs...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].delta() > s[b].delta() })
	for j, f := range s {
		if top > 0 && j >= top && j < len(s)-top {
			if j == top {
				fmt.Printf("| … %d figures … |\n", len(s)-2*top)
			}
			continue
		}
		m := "no"
		if f.Measured {
			m = "yes"
		}
		line := fmt.Sprintf("| %+.3f | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.4g %s |", f.delta(), f.Row, f.Metric, f.GPU, m, f.Engine, f.Async, f.Layout, f.Batch, f.Arch, f.Prompt, f.Published, f.Unit)
		for i := range sc.values {
			line += fmt.Sprintf(" %+.0f%% |", 100*(f.Pred[i]/f.Published-1))
		}
		fmt.Println(line)
	}
	fmt.Printf("within ±30%%:")
	for i, l := range sc.labels {
		fmt.Printf(" @%s %d", l, countIf(figs, func(f mcFigure) bool { return f.within(i) }))
	}
	fmt.Printf(" of %d; fit objective (mean |log err| + 0.1 worst):", len(figs))
	for i, l := range sc.labels {
		fmt.Printf(" @%s %.4f", l, mcObjective(figs, i))
	}
	fmt.Println()
}

// mcPrintGroups prints, per value of key, the figures keep selects: their
// summed Δ|log err| (what the fit's mean sees), how many the probe
// worsens and improves, within-±30% counts and median signed error at
// each value.
func mcPrintGroups(sc sensScan, name string, figs []mcFigure, keep func(mcFigure) bool, key func(mcFigure) string) {
	groups := map[string][]mcFigure{}
	for _, f := range figs {
		if keep(f) {
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
	fmt.Printf("\n### by %s\n| %s | n | ΣΔ|log err| %s→%s | worse / better |", name, name, sc.labels[sc.base], sc.labels[sc.probe])
	for _, l := range sc.labels {
		fmt.Printf(" in ±30%% @%s | median err @%s |", l, l)
	}
	fmt.Println()
	for _, k := range keys {
		fs := groups[k]
		worse := countIf(fs, func(f mcFigure) bool { return f.delta() > 0.005 })
		better := countIf(fs, func(f mcFigure) bool { return f.delta() < -0.005 })
		fmt.Printf("| %s | %d | %+.2f | %d / %d |", k, len(fs), sum(fs), worse, better)
		for i := range sc.values {
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
	sc := absScan("measured_compute", mcValues, 2)
	rows := targetableRows(t)
	figs := mcReplay(rows, sc)
	for _, f := range figs {
		for i := range mcValues {
			if !f.Measured && f.Pred[i] != f.Pred[0] {
				t.Errorf("%s %s on %s (no measured kernels) moves with measured_compute: %.6g at %.2f, %.6g at %.2f",
					f.Row, f.Metric, f.GPU, f.Pred[0], mcValues[0], f.Pred[i], mcValues[i])
			}
		}
	}
	measured := func(f mcFigure) bool { return f.Measured }
	cal := sensReport(sc, figs, 0, measured, []sensGroup{
		{"source (measured GPUs only)", func(f mcFigure) string { return f.Source }},
		{"GPU (measured GPUs only)", func(f mcFigure) string { return f.GPU }},
		{"engine (measured GPUs only)", func(f mcFigure) string { return f.Engine }},
		{"model class (measured GPUs only)", func(f mcFigure) string { return f.Arch }},
		{"figure kind (measured GPUs only)", func(f mcFigure) string { return kindOf(f.Regime) }},
		{"prompt (measured GPUs only)", func(f mcFigure) string { return f.Prompt }},
		{"class × figure kind (measured GPUs only)", func(f mcFigure) string { return f.Arch + " " + kindOf(f.Regime) }},
	})
	byID := map[string]published.Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	mcBreakdown(t, cal, byID, 15)
	mcScan(rows)
	mcAnchors(t, sc)
	mcAICMP(t, sc, figs)
}

// TestConstantSensitivity is an analysis, not a guard (issue #28: which
// published rows pin each fitted host and launch constant): it replays
// every targetable row, the anchors and the aiconfigurator comparison with
// the constant -scan names at the -scanby multiples of its fitted value,
// every other constant fixed, and prints the figures that worsen most
// when it is halved (they want it high) and improve most (they want it
// low), then per group — source, engine release and whether it schedules
// asynchronously, GPU, TP×PP, band class, model class, batch per engine,
// figure kind — the summed change, counts within ±30% and median errors;
// then the decode step of the calibration rows at either end by term
// (sensSteps).
// Skipped unless -scan is given (about 20 s a constant):
//
//	go test ./estimate/replay -run TestConstantSensitivity -v -scan step_overhead_s [-scanby 0.25,0.5,1,1.5]
func TestConstantSensitivity(t *testing.T) {
	if *scanName == "" {
		t.Skip("analysis: run with -scan NAME (a perf.Efficiency.Field name)")
	}
	by, err := parseMultiples(*scanBy)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := multScan(*scanName, by)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("# %s: fitted %.4g, replayed at %s\n", sc.name, sc.values[sc.base], strings.Join(sc.labels, ", "))
	rows := targetableRows(t)
	figs := mcReplay(rows, sc)
	all := func(mcFigure) bool { return true }
	cal := sensReport(sc, figs, 15, all, []sensGroup{
		{"source", func(f mcFigure) string { return f.Source }},
		{"engine release, async", func(f mcFigure) string { return f.Engine + ", " + f.Async }},
		{"GPU", func(f mcFigure) string { return f.GPU }},
		{"layout", func(f mcFigure) string { return f.Layout }},
		{"band class", func(f mcFigure) string { return string(f.Class) }},
		{"model class", func(f mcFigure) string { return f.Arch }},
		{"batch per engine", func(f mcFigure) string { return f.Batch }},
		{"figure kind", func(f mcFigure) string { return kindOf(f.Regime) }},
		{"batch × figure kind", func(f mcFigure) string { return f.Batch + " " + kindOf(f.Regime) }},
	})
	byID := map[string]published.Row{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	sensSteps(t, cal, byID, 8)
	mcAnchors(t, sc)
	mcAICMP(t, sc, figs)
}

// targetableRows are the throughput rows a reproduction predicts.
func targetableRows(t *testing.T) []published.Row {
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
	return rows
}

// sensGroup is one way of grouping the figures.
type sensGroup struct {
	name string
	key  func(mcFigure) string
}

// sensReport prints the calibration split's fitted figures, its excluded
// ones and the holdout split's (mcPrintFigures, top figures each way), and
// the groups of the fitted and holdout figures keep selects; it returns
// the fitted calibration figures.
func sensReport(sc sensScan, figs []mcFigure, top int, keep func(mcFigure) bool, groups []sensGroup) []mcFigure {
	split := func(ok func(mcFigure) bool) []mcFigure {
		var out []mcFigure
		for _, f := range figs {
			if ok(f) {
				out = append(out, f)
			}
		}
		return out
	}
	cal := split(func(f mcFigure) bool { return f.Split == published.SplitCalibration && !f.Excluded })
	calEx := split(func(f mcFigure) bool { return f.Split == published.SplitCalibration && f.Excluded })
	hold := split(func(f mcFigure) bool { return f.Split != published.SplitCalibration && !f.Excluded })
	for _, s := range []struct {
		title  string
		figs   []mcFigure
		groups bool
	}{{"calibration (fitted)", cal, true}, {"calibration, excluded (not fitted)", calEx, false}, {"holdout", hold, true}} {
		mcPrintFigures(sc, s.title, s.figs, top)
		if !s.groups {
			continue
		}
		for _, g := range groups {
			mcPrintGroups(sc, s.title+" by "+g.name, s.figs, keep, g.key)
		}
	}
	return cal
}

// mcAnchors prints every anchor's error at each value of sc.
func mcAnchors(t *testing.T, sc sensScan) {
	set, err := published.Anchors()
	if err != nil {
		t.Fatal(err)
	}
	th, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	res := make([][]AnchorResult, len(sc.values))
	for i := range sc.values {
		if res[i], err = ReproduceAnchors(set, th, sc.eff(i)); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Printf("\n## anchors\n| anchor | GPU | counts | Δ|log err| %s→%s |", sc.labels[sc.base], sc.labels[sc.probe])
	for _, l := range sc.labels {
		fmt.Printf(" err @%s |", l)
	}
	fmt.Println()
	for j, a := range res[0] {
		d := math.Abs(math.Log1p(res[sc.probe][j].Error())) - math.Abs(math.Log1p(res[sc.base][j].Error()))
		fmt.Printf("| %s | %s | %s | %+.3f |", a.Anchor.ID, a.Anchor.GPU, yesNo(a.Anchor.Counts), d)
		for i := range sc.values {
			fmt.Printf(" %+.0f%% |", 100*res[i][j].Error())
		}
		fmt.Println()
	}
	fmt.Printf("within ±15%%:")
	for i, l := range sc.labels {
		n := 0
		for _, a := range res[i] {
			if a.Within() {
				n++
			}
		}
		fmt.Printf(" @%s %d", l, n)
	}
	fmt.Printf(" of %d\n", len(res[0]))
}

// mcAICMP prints, per group of the aiconfigurator comparison, how many
// figures vlaunch is at least as close on and its median |error| at each
// value of sc (global constants; the leave-one-source-out column is not
// replayed).
func mcAICMP(t *testing.T, sc sensScan, figs []mcFigure) {
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
	for _, l := range sc.labels {
		fmt.Printf(" wins @%s | median |err| @%s |", l, l)
	}
	fmt.Println(" aiconfigurator median |err| |")
	for _, k := range sortedKeys(groups) {
		fmt.Printf("| %s | %d |", k, len(groups[k]))
		for i := range sc.values {
			var fs []aicFigure
			for _, j := range groups[k] {
				c := comp[j]
				c.Predicted, c.LOSO = mf[j].Pred[i], mf[j].Pred[i]
				fs = append(fs, c)
			}
			st := statOf(fs)
			fmt.Printf(" %d | %.0f%% |", st.Wins, 100*st.VLaunch)
			if i == len(sc.values)-1 {
				fmt.Printf(" %.0f%% |", 100*st.AIC)
			}
		}
		fmt.Println()
	}
	// The compared figures the probe worsens and improves most.
	s := append([]mcFigure(nil), mf...)
	sort.SliceStable(s, func(a, b int) bool { return s[a].delta() > s[b].delta() })
	fmt.Printf("\ncompared figures, most worsened by %s first:", sc.labels[sc.probe])
	for j, x := range s {
		if j < 5 || j >= len(s)-5 {
			fmt.Printf(" %s %s %+.3f (%+.0f%% → %+.0f%%);", x.Row, x.Metric, x.delta(), 100*(x.Pred[x.base]/x.Published-1), 100*(x.Pred[x.probe]/x.Published-1))
		}
	}
	fmt.Println()
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
	sc := absScan("measured_compute", mcScanValues, 0)
	var cal, hold []mcFigure
	for _, f := range mcReplay(rows, sc) {
		switch {
		case f.Excluded:
		case f.Split == published.SplitCalibration:
			cal = append(cal, f)
		default:
			hold = append(hold, f)
		}
	}
	fmt.Printf("\n## scan (every other constant fixed)\n| measured_compute | calibration in ±30%% | calibration objective | holdout in ±30%% | measured dense / MoE / MLA calibration in ±30%% |\n")
	for i, v := range sc.values {
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

// TestMultScan checks how a -scan's values, baseline and probe are chosen.
func TestMultScan(t *testing.T) {
	fitted := perf.DefaultEfficiency.StepOverheadS
	for _, c := range []struct {
		by          []float64
		labels      string
		base, probe int
	}{
		{[]float64{0.25, 0.5, 1, 1.5}, "×0.25 ×0.5 ×1 ×1.5", 2, 1},
		{[]float64{1.5, 0.5}, "×0.5 ×1 ×1.5", 1, 0},     // sorted, 1 added
		{[]float64{0.25, 0.75}, "×0.25 ×0.75 ×1", 2, 1}, // no half: nearest below 1
		{[]float64{2, 4}, "×1 ×2 ×4", 0, 1},             // none below 1: next above
	} {
		sc, err := multScan("step_overhead_s", c.by)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(sc.labels, " "); got != c.labels || sc.base != c.base || sc.probe != c.probe {
			t.Errorf("%v: labels %q base %d probe %d, want %q %d %d", c.by, got, sc.base, sc.probe, c.labels, c.base, c.probe)
		}
		if e := sc.eff(sc.base); e.StepOverheadS != fitted {
			t.Errorf("%v: baseline %g, want the fitted %g", c.by, e.StepOverheadS, fitted)
		}
	}
	if _, err := multScan("no_such_constant", []float64{0.5}); err == nil {
		t.Error("an unknown constant was accepted")
	}
	if _, err := multScan("step_overhead_s", []float64{-1}); err == nil {
		t.Error("a negative multiple was accepted")
	}
	if _, err := parseMultiples("0.5,x"); err == nil {
		t.Error("-scanby 0.5,x was accepted")
	}
}
