package calibrate

import (
	"math"
	"sort"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/perf"
	globalfit "github.com/vlaunch/vlaunch/estimate/replay"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
)

// siblings are the published runs of the user's own deployment that the
// fit was not given: the same model on the same GPU and layout (the same
// pools, for a P/D deployment), under another load or request shape. They
// are held-out runs of that deployment as much as a result left out of the
// fit is (leave one run out), and a fit that predicts one of them worse
// than the start constants is not accepted: Anyscale's P/D deployment at
// 64 sessions (published/pd.yaml anyscale-h100-pack-p1tp4-d1tp4-c64) went
// from −2.6% to +376.9% on its TTFT median under constants fitted to the
// same deployment at 8 and 32 sessions. The other published runs of the
// GPU (other models and layouts) stay a warning (checkPublished): the fit
// describes this deployment, and the global constants describe those.
type siblings struct {
	pd  []pdRow
	col []published.Row
}

// siblingsOf finds dep's sibling runs; used are the results given to the
// fit (their own rows are left out).
func siblingsOf(dep *resolve.Deployment, used []*bench.Result) siblings {
	var s siblings
	if dep.GPU == nil {
		return s
	}
	names, legacyDep := modelNames(dep), legacy(dep)
	if dep.PD != nil {
		rows, _, _, err := pdRowsOf(dep, dep.GPU.ID, legacyDep, names, used)
		if err != nil {
			return s
		}
		for _, r := range rows {
			if samePools(r.row, dep) && catalog.MatchesAny(r.row.Model.ID, names) {
				s.pd = append(s.pd, r)
			}
		}
		return s
	}
	set, err := published.Throughput()
	if err != nil {
		return s
	}
	for _, r := range set.Rows {
		if comparable(r, dep.GPU.ID, legacyDep) && catalog.MatchesAny(r.Model.ID, names) && sameLayout(r.Layout, dep) &&
			!ownRun(r.Model, r.Workload, r.Load, names, used) {
			s.col = append(s.col, r)
		}
	}
	return s
}

// sameLayout reports whether a published layout is the deployment's.
func sameLayout(l published.Layout, dep *resolve.Deployment) bool {
	d := dep.Layout
	return l.TP.Int() == d.TP && max(1, l.PP.Int()) == d.PP && max(1, l.DP.Int()) == d.DP && (l.EP.Int() > 1) == d.EP
}

// empty reports whether there is no sibling run.
func (s siblings) empty() bool { return len(s.pd) == 0 && len(s.col) == 0 }

// errors predicts every sibling run with eff and returns each figure's
// |log error| ("row metric"), over the figures the global calibration
// claims to reproduce.
func (s siblings) errors(eff perf.Efficiency) map[string]float64 {
	var ts []globalfit.Target
	if len(s.pd) > 0 {
		ts = append(ts, predictPDRows(s.pd, &eff)...)
	}
	if len(s.col) > 0 {
		ts = append(ts, globalfit.ReproduceAll(s.col, eff, func(t globalfit.Target) bool { _, out := globalfit.Excluded(t, t.Engine); return !out })...)
	}
	out := map[string]float64{}
	for _, t := range ts {
		if t.Published > 0 {
			out[t.Row+" "+t.Metric] = logErr(t.Predicted, t.Published)
		}
	}
	return out
}

// worsenedSibling names the sibling figure whose error grew most beyond
// the published figures' precision (publishedTolerance) from before to
// after: a figure of a run of the user's deployment the fit was not given
// may not get worse at all, the figure the fit is most often wrong about
// included (the TTFT of a closed loop near a pool's saturation).
func worsenedSibling(before, after map[string]float64) (figure string, b, a float64) {
	growth := 0.0
	keys := make([]string, 0, len(before))
	for k := range before {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ea, ok := after[k]
		if !ok {
			ea = math.Log(offCap) // a figure the fitted constants cannot replay is as far off as can be
		}
		if d := ea - before[k]; d > publishedTolerance && d > growth {
			figure, b, a, growth = k, before[k], ea, d
		}
	}
	return figure, b, a
}
