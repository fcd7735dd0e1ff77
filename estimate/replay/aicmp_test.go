package replay

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/published"
)

// The comparison with NVIDIA's aiconfigurator (issue #28: "on published rows
// that both can express, vlaunch is at least as close as aiconfigurator").
// aiconfigurator cannot run in CI (its current releases need PyPI, pyarrow
// and a compiled Rust core), so tools/aicmp runs it once, by hand, and
// commits its predictions with their provenance; this test joins them with
// vlaunch's current predictions on every run, writes
// docs/aiconfigurator-comparison.md (-update) and fails when vlaunch falls
// behind the standing measured when the predictions were committed.
const (
	aicPredictionsFile = "../../tools/aicmp/aiconfigurator-predictions.csv"
	aicComparisonDoc   = "../../docs/aiconfigurator-comparison.md"
)

// aicLine is one line of the predictions file: aiconfigurator's prediction
// of one figure of a row, or (Metric empty) why it has none for the row.
type aicLine struct {
	Row, Metric, Status string
	Pred                float64
	// Setup is how the row was put to aiconfigurator, for the doc.
	Setup string
}

// ok reports whether the line carries a prediction.
func (l aicLine) ok() bool { return strings.HasPrefix(l.Status, "ok") && l.Metric != "" }

// readAICPredictions parses the predictions file: '#' lines are its
// provenance (returned without the '#'), then a CSV table with a header.
func readAICPredictions(r io.Reader) (prov []string, lines []aicLine, err error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, nil, err
	}
	var body []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "#") {
			prov = append(prov, strings.TrimSpace(strings.TrimPrefix(l, "#")))
			continue
		}
		body = append(body, l)
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(recs) == 0 {
		return nil, nil, errors.New("no header")
	}
	col := map[string]int{}
	for i, c := range recs[0] {
		col[c] = i
	}
	need := []string{"row", "metric", "aic_predicted", "status", "aic_system", "aic_backend", "aic_version", "tp",
		"attention_dp", "moe_tp", "moe_ep", "batch_per_rank", "isl", "osl", "kvcache_quant"}
	for _, c := range need {
		if _, ok := col[c]; !ok {
			return nil, nil, fmt.Errorf("column %q missing", c)
		}
	}
	for i, rec := range recs[1:] {
		get := func(c string) string { return rec[col[c]] }
		l := aicLine{Row: get("row"), Metric: get("metric"), Status: get("status")}
		if l.Row == "" {
			return nil, nil, fmt.Errorf("line %d: no row id", i+2)
		}
		if l.ok() {
			if l.Pred, err = strconv.ParseFloat(get("aic_predicted"), 64); err != nil || !(l.Pred > 0) || math.IsInf(l.Pred, 0) {
				return nil, nil, fmt.Errorf("line %d (%s %s): prediction %q is not a positive number", i+2, l.Row, l.Metric, get("aic_predicted"))
			}
		}
		if get("aic_system") != "" {
			l.Setup = fmt.Sprintf("%s %s %s, TP%s DP%s MoE TP%s×EP%s, batch %s/rank, %s/%s, KV %s", get("aic_system"),
				get("aic_backend"), get("aic_version"), get("tp"), get("attention_dp"), get("moe_tp"), get("moe_ep"),
				get("batch_per_rank"), get("isl"), get("osl"), get("kvcache_quant"))
		}
		lines = append(lines, l)
	}
	return prov, lines, nil
}

// aicFigure is one published figure with vlaunch's and aiconfigurator's
// predictions.
type aicFigure struct {
	Target
	// LOSO is vlaunch's prediction with constants fitted without the row's
	// source (calibration-split sources; holdout rows: the global constants).
	LOSO float64
	AIC  float64
	MoE  bool
	// Excluded marks a figure vlaunch's calibration excludes (another
	// engine such as NVIDIA NIM, or a mechanism the model lacks: Exclusions);
	// it is compared in a group of its own.
	Excluded bool
	What     string
}

func relErr(pred, pub float64) float64 { return pred/pub - 1 }

// kindOf names a figure's regime as the comparison groups it.
func kindOf(r Regime) string {
	switch r {
	case RegimeThroughput, RegimeThroughputBurst:
		return "throughput"
	case RegimeTPOT, RegimeTPOTBurst:
		return "TPOT"
	case RegimeTTFTMean:
		return "TTFT mean"
	}
	return string(r)
}

// aicGroupKey is a comparison group: dense or MoE, and the figure's kind.
func aicGroupKey(f aicFigure) string {
	m := "dense"
	if f.MoE {
		m = "MoE"
	}
	k := m + " " + kindOf(f.Regime)
	if f.Excluded {
		k = "excluded (" + f.Engine + "): " + k
	}
	return k
}

// aicStat summarises a group of compared figures.
type aicStat struct {
	N int
	// Wins counts figures where vlaunch (global constants) is at least as
	// close as aiconfigurator; WinsLOSO the same with vlaunch's
	// leave-one-source-out predictions.
	Wins, WinsLOSO int
	// Median |relative error| of each prediction.
	VLaunch, LOSO, AIC float64
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func statOf(fs []aicFigure) aicStat {
	var st aicStat
	var v, l, a []float64
	for _, f := range fs {
		ev, el, ea := math.Abs(relErr(f.Predicted, f.Published)), math.Abs(relErr(f.LOSO, f.Published)), math.Abs(relErr(f.AIC, f.Published))
		v, l, a = append(v, ev), append(l, el), append(a, ea)
		st.N++
		if ev <= ea {
			st.Wins++
		}
		if el <= ea {
			st.WinsLOSO++
		}
	}
	st.VLaunch, st.LOSO, st.AIC = median(v), median(l), median(a)
	return st
}

// aicStanding is what was measured when tools/aicmp's predictions were
// committed (docs/aiconfigurator-comparison.md, "Standing"): per group, the
// figures compared, how many vlaunch was at least as close on, and vlaunch's
// median |error|. The test fails when vlaunch wins fewer figures of a group
// or its median error grows by more than aicSlack — a regression against
// aiconfigurator — not on today's losses, which the doc lists. Improve the
// model, then raise these numbers (AICMP_STANDING=1 go test -run
// TestAIConfiguratorComparison ./estimate/replay prints them as Go). Measured
// 2026-12-05 against aiconfigurator v0.9.0's predictions in the CSV; raised
// 2026-12-06 to the standing the measured fused-MoE curves reached (MoE TTFT
// 42% -> 36%, 28 -> 29 of 35 won). Lowered once, 2026-12-06: excluded (nim)
// dense TTFT mean 426.4% -> 427.4% when the front end began charging the
// prompt's tokenization (perf.FrontendPromptTokenS, ≈5.5 ms on these
// 5,000-token prompts), a measured cost added to rows whose prefill GPU time
// is already priced at about twice the published TTFT. Reset 2026-12-06 to
// the standing with the measured per-shape GEMM tables switched on
// (perf.UseGEMMTables, without a refit; the lead's decision on issue #28's
// held-out evidence: P/D, dense anchors, band coverage). Two groups
// regressed and were lowered by that decision: MoE throughput 25 -> 24 of
// 35 won (its median error fell, 18.9% -> 15.2%), dense TTFT mean 61.1% ->
// 68.3% (aiconfigurator 68.3%; still 3 of 4 won). The others rose (MoE
// TPOT 22 -> 24 won, NIM's dense TTFT 427% -> 144%, where aiconfigurator
// cannot follow 21.6% -> 17.9%) or moved within aicSlack (excluded SGLang
// MoE TTFT 26.5% -> 27.4%, dense TPOT 19.4% -> 19.5%).
//
// Session 31 (the host split 1.179 / 2.891 ms and the leave-one-source-out
// refit from it): dense TPOT 0 -> 4 of 4 won (19.5% -> 4.7%), dense TTFT
// mean 3 -> 4 of 4 (68.3% -> 45.9%), dense throughput 12.2% -> 2.6%; the
// MoE groups within aicSlack (LOSO wins 22 -> 24 on MoE TPOT).
var aicStanding = map[string]aicStat{
	// Issue #28 (helper b300fp4): SGLang's --scheduler-recv-interval
	// (replay.UseSGLangRecvInterval) and the measured B300 NVFP4 expert
	// streaming rate (perf.UseMeasuredMoEStream): MoE TPOT 24 → 29 won
	// (19.0% → 10.2%), throughput 24 → 30 (15.1% → 7.5%); TTFT 29 → 25
	// (35.7% → 46.5%), the held-out B300 NVFP4 rows at concurrency 2–8,
	// whose TTFT was already over-predicted at concurrency 1 (+85%) and now
	// also waits for the scheduler's poll (+33 ms from c1 to c2 predicted,
	// +26 ms published).
	//
	// Session 36 (perf.UseCitedSGLangEager on: SGLang's eager prefill at its
	// own measurement, 409.3 µs, instead of the fit's 896.4): MoE TTFT mean
	// 25 → 30 of 35 won (46.5% → 16.3%), MoE TPOT 10.2% → 8.0%, MoE
	// throughput 30 → 31 won (7.5% → 6.3%); NIM's dense TTFT 1 → 2 won. The
	// excluded SGLang TTFTs (inferencex-870, H200, excluded for a first-wave
	// effect outside engine steps that sglhopper_test.go confirms) 4 → 0 of 4
	// (27.7% → 55.2%, aiconfigurator 46.0%): their closeness rested on the
	// fitted value compensating for what excludes them; lowered by that
	// decision.
	"MoE TPOT":       {N: 38, Wins: 29, WinsLOSO: 29, VLaunch: 0.0803, LOSO: 0.0873, AIC: 0.3487},
	"MoE TTFT mean":  {N: 35, Wins: 30, WinsLOSO: 30, VLaunch: 0.1627, LOSO: 0.2479, AIC: 0.5698},
	"MoE throughput": {N: 35, Wins: 31, WinsLOSO: 29, VLaunch: 0.0629, LOSO: 0.0819, AIC: 0.2297},
	// Issue #28 (helper gridext43: perf's GEMM tables extrapolated past
	// their largest N, K and M instead of held at the last cell): dense
	// TPOT 4.7% -> 8.4% (still 4 of 4 won; aiconfigurator 10.6%), dense
	// throughput 3.95% -> 5.65% (6 of 6; LOSO 5 -> 6 of 6), lowered
	// by that decision. The figures that moved are GPUStack's Qwen3-8B on
	// one H100: its 151,936 × 4,096 BF16 LM head was priced at the N =
	// 65,536 cell, 218 µs, under the 371 µs its 1.24 GB of weights take
	// at 3.35 TB/s; it now costs 505 µs (TPOT +4…+6% -> +7…+9%). What
	// the rest of that step over-predicts is not established.
	"dense TPOT":      {N: 4, Wins: 4, WinsLOSO: 4, VLaunch: 0.0841, LOSO: 0.0841, AIC: 0.1064},
	"dense TTFT mean": {N: 4, Wins: 4, WinsLOSO: 4, VLaunch: 0.4554, LOSO: 0.4554, AIC: 0.6826},
	// Session 40 (perf.UseAsyncOverlap on: vLLM >= 0.14 schedules the next
	// step while the GPU runs this one, so the host's work no longer adds to
	// the step): dense throughput 2.6% -> 3.95% (still 6 of 6 won; LOSO 6 ->
	// 5 of 6), lowered by that decision: the step had been too slow and the
	// closed loops' under-predicted TTFT had cancelled it
	// (docs/calibration-analysis.md, "waves or trains").
	"dense throughput":                 {N: 6, Wins: 6, WinsLOSO: 6, VLaunch: 0.0565, LOSO: 0.0570, AIC: 0.1769},
	"excluded (nim): dense TTFT mean":  {N: 5, Wins: 2, WinsLOSO: 2, VLaunch: 1.4426, LOSO: 1.4426, AIC: 0.9235},
	"excluded (nim): dense throughput": {N: 5, Wins: 3, WinsLOSO: 3, VLaunch: 0.0955, LOSO: 0.0955, AIC: 0.0763},
	"excluded (sglang): MoE TTFT mean": {N: 4, Wins: 0, WinsLOSO: 0, VLaunch: 0.5523, LOSO: 0.5523, AIC: 0.4601},
	"excluded (vllm): MoE TPOT":        {N: 2, Wins: 1, WinsLOSO: 1, VLaunch: 0.2681, LOSO: 0.2681, AIC: 0.2043},
	"excluded (vllm): MoE TTFT mean":   {N: 1, Wins: 0, WinsLOSO: 0, VLaunch: 0.3608, LOSO: 0.3608, AIC: 0.2722},
	"excluded (vllm): MoE throughput":  {N: 2, Wins: 1, WinsLOSO: 1, VLaunch: 0.2677, LOSO: 0.2677, AIC: 0.2908},
}

// aicCannotFollowMedian is vlaunch's median |error| today over the figures
// aiconfigurator cannot express (other GPUs, engines, loads, P99 TTFT,
// models its tables lack); it must not grow by more than aicSlack. Raised
// 2026-12-06 from 0.1793 by a data change, not a model change: the 22
// held-out figures of gpustack-qwen3-14b-h100 (dense Qwen3-14B bursts on one
// H100, a model aiconfigurator's tables lack) joined the 220 earlier ones,
// whose predictions did not move (median 17.9% over those alone). Raised
// again 2026-12-06 from 0.2049, also a data change: the 21 held-out figures
// of gpustack-qwen3-14b-a100 (the same bursts on one A100, a GPU
// aiconfigurator has no tables for; 12 of 21 within ±30%) joined the 246
// earlier ones, whose predictions did not move. Raised again in session 31
// from 0.2188 to 0.2296, a data change again: the 18 held-out figures of
// pegainfer-vllm-h20-baseline (Kimi-K2.5 DP8 + EP8 on 8 × H20-3e, vLLM
// 0.19; a model and GPU aiconfigurator lacks; 6 of 18 within ±30%) joined
// the 268 earlier ones, whose median is 21.99% with the session's model
// changes (host split, leave-one-source-out refit, idle-DP scope, storage
// bytes, held inputs), within aicSlack of 21.88%. Lowered in session 32
// from 0.2296 to 0.2062, a data change: the replay now scores a row's median
// TPOT where it publishes no mean (targets.go, medianTPOT), and 39 of those
// figures are ones aiconfigurator cannot follow (gpt-oss on H100 and MI300X
// at releases it lacks, Kimi-K2.5 on H20, DeepSeek-V4-Flash); 33 are within
// ±30%. The 286 earlier figures did not move. Lowered again in session 32
// to 0.1901 by a model change: Marlin's padded tiles, the DP graph padding
// and vLLM's DP load balancer (perf.UseMarlinBlocks, UseDPGraphPadding,
// sim.UseDPLB) bring the Kimi-K2.5 H20 rows in (204 -> 214 within ±30%).
// Raised in session densesrc from 0.1901 to 0.2109, a data change: the 24
// held-out figures of sglang-cookbook-llama31-a100 (dense Llama-3.1-70B TP8
// on 8 × A100 under SGLang 0.5.6, a GPU aiconfigurator has no tables for;
// 6 of 24 within ±30%) joined the 325 earlier ones, whose predictions did
// not move (no model code or constant changed).
const aicCannotFollowMedian = 0.2109

// aicSlack is the growth of a median |error| tolerated before the test calls
// it a regression (the model is deterministic; this leaves room for a
// refit's small moves in either direction).
const aicSlack = 0.01

// TestAIConfiguratorComparison joins aiconfigurator's committed predictions
// with vlaunch's current ones, regenerates docs/aiconfigurator-comparison.md
// and checks vlaunch's standing has not regressed.
func TestAIConfiguratorComparison(t *testing.T) {
	f, err := os.Open(aicPredictionsFile)
	if err != nil {
		t.Fatal(err)
	}
	prov, lines, err := readAICPredictions(f)
	f.Close()
	if err != nil {
		t.Fatalf("%s: %v", aicPredictionsFile, err)
	}
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	loso, err := ReadLOSO(LOSOFile)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]published.Row{}
	var rows []published.Row
	for _, r := range set.Rows {
		if r.Targetable() {
			rows = append(rows, r)
			byID[r.ID] = r
		}
	}
	aic := map[[2]string]aicLine{}
	status := map[string]aicLine{}
	for _, l := range lines {
		if _, ok := byID[l.Row]; !ok {
			t.Errorf("%s: row %s is not a targetable published row (re-run tools/aicmp)", aicPredictionsFile, l.Row)
			continue
		}
		if l.ok() {
			aic[[2]string{l.Row, l.Metric}] = l
		}
		if _, seen := status[l.Row]; !seen || l.ok() {
			status[l.Row] = l
		}
	}
	all := ReproduceAll(rows, perf.DefaultEfficiency, nil)
	losoPred := map[[2]string]float64{}
	for _, x := range HeldOut(rows, loso) {
		losoPred[[2]string{x.Row, x.Metric}] = x.Predicted
	}
	var compared []aicFigure
	var cannot []cannotFigure
	for _, x := range all {
		k := [2]string{x.Row, x.Metric}
		_, excluded := Excluded(x, x.Engine)
		l, ok := aic[k]
		if !ok {
			if !excluded {
				cannot = append(cannot, cannotFigure{x, cannotReason(byID[x.Row], x, status)})
			}
			continue
		}
		m, err := catalog.LookupModel(byID[x.Row].Model.Catalog)
		if err != nil {
			t.Fatal(err)
		}
		lp, ok := losoPred[k]
		if !ok { // HeldOut leaves excluded figures out; no constant was fitted to them
			lp = x.Predicted
		}
		compared = append(compared, aicFigure{Target: x, LOSO: lp, AIC: l.Pred, MoE: m.NumExperts > 0, Excluded: excluded,
			What: Describe(byID[x.Row])})
	}
	groups := map[string][]aicFigure{}
	for _, c := range compared {
		groups[aicGroupKey(c)] = append(groups[aicGroupKey(c)], c)
	}
	stats := map[string]aicStat{}
	for k, fs := range groups {
		stats[k] = statOf(fs)
	}
	var cannotErr []float64
	for _, c := range cannot {
		cannotErr = append(cannotErr, math.Abs(relErr(c.Predicted, c.Published)))
	}
	for _, k := range sortedKeys(stats) {
		s := stats[k]
		fmt.Printf("aiconfigurator comparison %-16s %2d figures: vlaunch closer or equal on %2d (LOSO %2d); median |err| vlaunch %3.0f%% (LOSO %3.0f%%), aiconfigurator %3.0f%%\n",
			k, s.N, s.Wins, s.WinsLOSO, 100*s.VLaunch, 100*s.LOSO, 100*s.AIC)
	}
	if os.Getenv("AICMP_STANDING") != "" {
		for _, k := range sortedKeys(stats) {
			s := stats[k]
			fmt.Printf("\t%q: {N: %d, Wins: %d, WinsLOSO: %d, VLaunch: %.4f, LOSO: %.4f, AIC: %.4f},\n", k, s.N, s.Wins, s.WinsLOSO, s.VLaunch, s.LOSO, s.AIC)
		}
		fmt.Printf("cannot follow median %.4f\n", median(cannotErr))
	}
	fmt.Printf("aiconfigurator cannot follow: %d figures, vlaunch median |err| %.0f%%\n", len(cannot), 100*median(cannotErr))
	golden.Check(t, aicComparisonDoc, []byte(aicDoc(prov, lines, compared, stats, cannot, byID)))

	for _, k := range sortedKeys(aicStanding) {
		want, got := aicStanding[k], stats[k]
		switch {
		case got.N != want.N:
			t.Errorf("%s: %d figures compared, %d when the predictions were committed: re-run tools/aicmp and update aicStanding", k, got.N, want.N)
		case got.Wins < want.Wins:
			t.Errorf("%s: vlaunch is at least as close as aiconfigurator on %d of %d figures, %d before (regression)", k, got.Wins, got.N, want.Wins)
		case got.VLaunch > want.VLaunch+aicSlack:
			t.Errorf("%s: vlaunch's median |error| %.1f%%, %.1f%% before (regression; aiconfigurator %.1f%%)", k, 100*got.VLaunch, 100*want.VLaunch, 100*got.AIC)
		}
	}
	for k := range stats {
		if _, ok := aicStanding[k]; !ok {
			t.Errorf("group %s has no standing in aicStanding", k)
		}
	}
	if m := median(cannotErr); m > aicCannotFollowMedian+aicSlack {
		t.Errorf("where aiconfigurator cannot follow: vlaunch's median |error| %.1f%%, %.1f%% before (regression)", 100*m, 100*aicCannotFollowMedian)
	}
}

// cannotFigure is a vlaunch target aiconfigurator has no prediction for,
// and why.
type cannotFigure struct {
	Target
	Reason string
}

// cannotReason says why aiconfigurator has no prediction for figure x of row r.
func cannotReason(r published.Row, x Target, status map[string]aicLine) string {
	if x.Metric == "ttft_ms.p99" {
		return "P99 TTFT (aiconfigurator predicts one TTFT per batch, no distribution)"
	}
	if l, ok := status[r.ID]; ok && l.ok() {
		return "figure " + x.Metric + " not among aiconfigurator's agg outputs"
	}
	if l, ok := status[r.ID]; ok && !l.ok() {
		s := l.Status
		if strings.HasPrefix(s, "aiconfigurator failed") {
			detail := "error"
			if _, after, ok := strings.Cut(s, "Failed to query "); ok {
				if what, _, ok := strings.Cut(after, " data"); ok {
					detail = "no " + what + " table for it"
				}
			} else if strings.Contains(s, "OOM") {
				detail = "its memory check rejects the batch"
			}
			return fmt.Sprintf("aiconfigurator fails on %s %s on %s: %s", r.Model.Catalog, r.Model.Weights, r.Hardware.GPU, detail)
		}
		if i := strings.Index(s, ":"); i > 0 && strings.HasPrefix(s, "not expressed") {
			s = strings.TrimSpace(s[i+1:])
			if j := strings.Index(s, ":"); j > 0 {
				s = s[:j]
			}
			return "not expressed: " + s
		}
		return s
	}
	switch e := r.Engine.Name; {
	case e != "vllm" && e != "sglang":
		return "engine " + e + " (not compared)"
	}
	return "GPU " + r.Hardware.GPU + " (no aiconfigurator tables here)"
}

func sortedKeys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func pct(e float64) string { return fmt.Sprintf("%+.0f%%", 100*e) }

// aicDoc renders docs/aiconfigurator-comparison.md.
func aicDoc(prov []string, lines []aicLine, compared []aicFigure, stats map[string]aicStat, cannot []cannotFigure, byID map[string]published.Row) string {
	var b strings.Builder
	b.WriteString("# vlaunch and NVIDIA's aiconfigurator on the published rows\n\n")
	b.WriteString("Generated by `go test ./estimate/replay -run TestAIConfiguratorComparison -update`; do not edit. aiconfigurator's\n")
	b.WriteString("predictions are committed in [tools/aicmp/aiconfigurator-predictions.csv](../tools/aicmp/aiconfigurator-predictions.csv)\n")
	b.WriteString("(how they were made: [tools/aicmp/README.md](../tools/aicmp/README.md)); vlaunch's are recomputed on every run by\n")
	b.WriteString("the replay (`estimate/replay`, the same model as `vlaunch check`). Issue #28's first done-when item: on published rows\n")
	b.WriteString("both can express, vlaunch is at least as close as aiconfigurator, and keeps its lead where aiconfigurator cannot follow.\n\n")
	b.WriteString("aiconfigurator, as run:\n\n")
	for _, p := range prov {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	b.WriteString("\nErrors are prediction / published − 1. *vlaunch* is the global constants (`perf.DefaultEfficiency`): on calibration-split\n")
	b.WriteString("rows it was fitted to the very figure, so it is in-sample there. *vlaunch LOSO* is the fair column on those rows: the\n")
	b.WriteString("constants fitted without the row's source (`estimate/replay/testdata/loso.json`); on holdout rows it equals *vlaunch*.\n")
	b.WriteString("aiconfigurator was never fitted to any of these figures.\n\n")

	b.WriteString("## Standing\n\n")
	b.WriteString("| group | figures | median \\|err\\| vlaunch | vlaunch LOSO | aiconfigurator | vlaunch at least as close | LOSO at least as close |\n|---|---|---|---|---|---|---|\n")
	var allFs []aicFigure
	for _, k := range sortedKeys(stats) {
		s := stats[k]
		fmt.Fprintf(&b, "| %s | %d | %.0f%% | %.0f%% | %.0f%% | %d of %d | %d of %d |\n", k, s.N, 100*s.VLaunch, 100*s.LOSO, 100*s.AIC, s.Wins, s.N, s.WinsLOSO, s.N)
	}
	allFs = append(allFs, compared...)
	tot := statOf(allFs)
	fmt.Fprintf(&b, "| **all** | %d | %.0f%% | %.0f%% | %.0f%% | %d of %d | %d of %d |\n", tot.N, 100*tot.VLaunch, 100*tot.LOSO, 100*tot.AIC, tot.Wins, tot.N, tot.WinsLOSO, tot.N)
	var behind []string
	for _, k := range sortedKeys(stats) {
		if s := stats[k]; s.VLaunch > s.AIC {
			behind = append(behind, fmt.Sprintf("%s (median %.0f%% vs %.0f%%, at least as close on %d of %d)", k, 100*s.VLaunch, 100*s.AIC, s.Wins, s.N))
		}
	}
	fmt.Fprintf(&b, "\nToday vlaunch is at least as close as aiconfigurator on %d of %d compared figures (%d of %d with leave-one-source-out\n", tot.Wins, tot.N, tot.WinsLOSO, tot.N)
	if len(behind) == 0 {
		behind = []string{"none"}
	}
	fmt.Fprintf(&b, "constants). Groups where its median |error| is the larger: %s.\n", strings.Join(behind, "; "))
	var cannotErr []float64
	in := 0
	for _, c := range cannot {
		e := math.Abs(relErr(c.Predicted, c.Published))
		cannotErr = append(cannotErr, e)
		if e <= target {
			in++
		}
	}
	fmt.Fprintf(&b, "\nWhere aiconfigurator cannot follow (below): %d figures, vlaunch's median |error| %.0f%%, %d within ±30%%.\n", len(cannot), 100*median(cannotErr), in)

	b.WriteString("\n## Where aiconfigurator is closer\n\n")
	b.WriteString("Figures where aiconfigurator's |error| is smaller than vlaunch's (global constants), by the gap in percentage points,\n")
	b.WriteString("largest first. Groups marked *excluded* are figures vlaunch's calibration excludes (another engine, or a mechanism the\n")
	b.WriteString("model lacks: `estimate/replay/exclude.go`).\n\n")
	b.WriteString("| group | row | figure | published | vlaunch | aiconfigurator | gap (points) |\n|---|---|---|---|---|---|---|\n")
	var losses []aicFigure
	for _, c := range compared {
		if math.Abs(relErr(c.Predicted, c.Published)) > math.Abs(relErr(c.AIC, c.Published)) {
			losses = append(losses, c)
		}
	}
	gap := func(c aicFigure) float64 {
		return math.Abs(relErr(c.Predicted, c.Published)) - math.Abs(relErr(c.AIC, c.Published))
	}
	sort.SliceStable(losses, func(i, j int) bool { return gap(losses[i]) > gap(losses[j]) })
	for _, c := range losses {
		fmt.Fprintf(&b, "| %s | %s | %s | %s %s | %s | %s | %.0f |\n", aicGroupKey(c), c.Row, c.Metric, num(c.Published), c.Unit,
			pct(relErr(c.Predicted, c.Published)), pct(relErr(c.AIC, c.Published)), 100*gap(c))
	}

	b.WriteString("\n## Every compared figure\n\n")
	b.WriteString("| row | split | what ran | figure | published | vlaunch | vlaunch LOSO | aiconfigurator | closer |\n|---|---|---|---|---|---|---|---|---|\n")
	sort.SliceStable(compared, func(i, j int) bool {
		if a, b := aicGroupKey(compared[i]), aicGroupKey(compared[j]); a != b {
			return a < b
		}
		return false
	})
	for _, c := range compared {
		ev, el, ea := relErr(c.Predicted, c.Published), relErr(c.LOSO, c.Published), relErr(c.AIC, c.Published)
		closer := "vlaunch"
		if math.Abs(ev) > math.Abs(ea) {
			closer = "**aiconfigurator**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s %s | %s (%s) | %s (%s) | %s (%s) | %s |\n", c.Row, c.Split, c.What, c.Metric,
			num(c.Published), c.Unit, num(c.Predicted), pct(ev), num(c.LOSO), pct(el), num(c.AIC), pct(ea), closer)
	}

	b.WriteString("\n## How each row was put to aiconfigurator\n\n")
	b.WriteString("| row | aiconfigurator setup | status |\n|---|---|---|\n")
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l.Row] {
			continue
		}
		seen[l.Row] = true
		setup := l.Setup
		if setup == "" {
			setup = "–"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", l.Row, setup, strings.ReplaceAll(l.Status, "|", "/"))
	}

	b.WriteString("\n## Where aiconfigurator cannot follow\n\n")
	b.WriteString("Every other figure vlaunch targets (excluded figures left out, as in the calibration docs), by reason; vlaunch's errors\n")
	b.WriteString("at the global constants.\n\n")
	b.WriteString("| reason | figures | vlaunch within ±30% | vlaunch median \\|err\\| |\n|---|---|---|---|\n")
	by := map[string][]float64{}
	for _, c := range cannot {
		by[c.Reason] = append(by[c.Reason], math.Abs(relErr(c.Predicted, c.Published)))
	}
	for _, k := range sortedKeys(by) {
		n := 0
		for _, e := range by[k] {
			if e <= target {
				n++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.0f%% |\n", k, len(by[k]), n, 100*median(by[k]))
	}
	b.WriteString(aicCaveats)
	return b.String()
}

// aicCaveats is the doc's closing section: what the two predictions mean
// and where they are not like for like.
const aicCaveats = `
## Caveats

- aiconfigurator's agg estimate is a fixed batch (the row's concurrency, per attention-DP rank) of fixed-length
  requests: TTFT is the prefill of one request's prompt in mixed steps plus no queueing, no API server and no
  client; throughput is batch / request latency × output length. vlaunch simulates the benchmark run itself (closed
  loop, arrivals, chunked prefill, API server, KV capacity). ShareGPT rows are given to aiconfigurator at their mean
  lengths.
- aiconfigurator's tables are vLLM 0.19.0 and SGLang 0.5.10 measurements; the rows ran other releases (0.7–0.19,
  SGLang 0.4–0.5.12). vlaunch models some release differences (V0/V1, async scheduling); aiconfigurator predicts
  its table's release whatever the row ran.
- aiconfigurator v0.9.0 is run, not the commit tools/aicdata reads (its estimator is pure Python; later releases need
  their compiled Rust core). Its tables are the same measurements v0.9.0 shipped (the parquet conversion commit,
  converted back to CSV), not the newer vLLM 0.24.0 tables. 72 of the 107 converted tables are byte-identical to
  v0.9.0's (sha256 of its LFS pointers); vLLM's MLA module tables (the vLLM DeepSeek rows) and H100 vLLM context
  attention are among the 35 whose formatting differs slightly and whose values could not be checked
  (tools/aicmp/README.md).
- Defaults kept on aiconfigurator's side: the context-token budget per step is the prompt length, quantisation is
  inferred from the model's config (FP8 block weights for DeepSeek-R1, MXFP4 for gpt-oss), an FP8 KV cache only
  where the row states one. Stand-in checkpoints: Llama-3.1-70B (FP8: nvidia/Llama-3.1-70B-Instruct-FP8) for
  Llama-3.3-70B, nvidia/DeepSeek-V3.1-NVFP4 for DeepSeek-R1 NVFP4 (same architectures).
- NVIDIA NIM rows: the source does not say which engine the NIM profile ran; aiconfigurator's vLLM tables stand in.
  vlaunch excludes these rows from its fit and bands (another engine) and replays them with its default for engines
  other than vLLM (SGLang's: prefill-first, eager prefill steps); its TTFT under load there is 2–34× the published.
  aiconfigurator refuses concurrency ≥ 100 at 5K/500 (its memory check calls the batch out of memory) where the
  engine queued.
`

// TestReadAICPredictions checks the predictions file's parser: provenance
// lines, predictions, rows without one, and the malformed files it rejects.
func TestReadAICPredictions(t *testing.T) {
	head := "row,metric,aic_predicted,status,aic_system,aic_backend,aic_version,tp,attention_dp,moe_tp,moe_ep,batch_per_rank,isl,osl,kvcache_quant\n"
	good := "# made by hand\n# second line\n" + head +
		"r1,tpot_ms.mean,12.5,ok,h100_sxm,vllm,0.19.0,8,1,8,1,4,1024,1024,auto\n" +
		"r2,,,\"aiconfigurator failed: KeyError: x, y\",h100_sxm,vllm,0.19.0,1,1,1,1,4,233,221,auto\n" +
		"r3,,,not expressed: load burst,,,,,,,,,,,\n"
	prov, lines, err := readAICPredictions(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(prov) != 2 || prov[0] != "made by hand" {
		t.Errorf("provenance %q", prov)
	}
	if len(lines) != 3 || !lines[0].ok() || lines[0].Pred != 12.5 || lines[1].ok() || lines[2].ok() || lines[2].Setup != "" {
		t.Fatalf("lines %+v", lines)
	}
	if want := "h100_sxm vllm 0.19.0, TP8 DP1 MoE TP8×EP1, batch 4/rank, 1024/1024, KV auto"; lines[0].Setup != want {
		t.Errorf("setup %q, want %q", lines[0].Setup, want)
	}
	for name, bad := range map[string]string{
		"empty":          "",
		"missing column": "row,metric,aic_predicted,status\nr1,tpot_ms.mean,1,ok\n",
		"not a number":   head + "r1,tpot_ms.mean,fast,ok,h100_sxm,vllm,0.19.0,8,1,8,1,4,1024,1024,auto\n",
		"negative":       head + "r1,tpot_ms.mean,-3,ok,h100_sxm,vllm,0.19.0,8,1,8,1,4,1024,1024,auto\n",
		"no row":         head + ",tpot_ms.mean,3,ok,h100_sxm,vllm,0.19.0,8,1,8,1,4,1024,1024,auto\n",
		"short line":     head + "r1,tpot_ms.mean,3\n",
	} {
		if _, _, err := readAICPredictions(strings.NewReader(bad)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
