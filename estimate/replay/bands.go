package replay

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/band"
)

// Bands computes the raw band of every class and regime from held-out
// targets: the CoverLow and CoverHigh quantiles of published/predicted,
// the source with the largest error on the wider side, and the assumption
// that source's errors point at (assumptions maps a source to it). A
// current class whose regime has fewer than band.MinSources sources gets
// the band of every current class's figures of that regime (Pooled).
func Bands(held []Target, assumptions map[string]string) []band.Band {
	type key struct {
		c band.Class
		r band.Regime
	}
	by := map[key][]Target{}
	pool := map[band.Regime][]Target{}
	for _, t := range held {
		by[key{t.Class, t.Regime}] = append(by[key{t.Class, t.Regime}], t)
		if t.Class != band.Legacy {
			pool[t.Regime] = append(pool[t.Regime], t)
		}
	}
	var out []band.Band
	for _, c := range band.Classes {
		for _, r := range regimes {
			ts, pooled := by[key{c, r}], false
			if c != band.Legacy && len(sourcesOf(ts)) < band.MinSources {
				ts, pooled = pool[r], true
			}
			if len(ts) == 0 {
				continue
			}
			b := bandOf(r, ts)
			b.Class, b.Pooled = c, pooled
			b.Assumption = assumptions[b.Dominant]
			out = append(out, b)
		}
	}
	return out
}

// bandOf is the band of one regime's held-out targets.
func bandOf(r band.Regime, ts []Target) band.Band {
	ratios := make([]float64, len(ts))
	srcs := map[string]bool{}
	for i, t := range ts {
		ratios[i] = math.Log(t.Published / t.Predicted)
		srcs[t.Source] = true
	}
	sorted := slices.Clone(ratios)
	sort.Float64s(sorted)
	b := band.Band{Regime: r, Low: math.Exp(quantile(sorted, band.CoverLow)), High: math.Exp(quantile(sorted, band.CoverHigh)), N: len(ts)}
	for s := range srcs {
		b.Sources = append(b.Sources, s)
	}
	sort.Strings(b.Sources)
	wide := math.Log(b.High) > -math.Log(b.Low) // published above prediction on the wider side
	worst := 0.0
	for i, t := range ts {
		if (ratios[i] > 0) == wide && math.Abs(ratios[i]) > worst {
			worst, b.Dominant = math.Abs(ratios[i]), t.Source
		}
	}
	return b
}

// quantile is the linear-interpolated q-quantile of sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	pos := q * float64(len(sorted)-1)
	i := int(pos)
	if i+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	f := pos - float64(i)
	return sorted[i]*(1-f) + sorted[i+1]*f
}

// Inside reports whether a target's published value lies inside the band of
// its prediction.
func Inside(t Target, b band.Band) bool {
	lo, hi := b.Range(t.Predicted)
	return t.Published >= lo && t.Published <= hi
}

// builder makes bands from held-out targets (Bands alone, or Calibrated).
type builder func(held []Target) []band.Band

// Coverage is the fraction of held-out targets inside bands built by build
// without their own source (leave one source out), per regime and in all.
// A regime with no other source in the target's class has no band to
// check against, and the target is not counted.
func Coverage(held []Target, build builder) (all float64, per map[band.Regime]float64) {
	return coverageOf(classCounts(held, build))
}

// coverageOf sums counts by class into the share per regime and in all.
func coverageOf(counts map[band.Class]map[band.Regime]Count) (all float64, per map[band.Regime]float64) {
	byRegime := map[band.Regime]Count{}
	var total Count
	for _, perClass := range counts {
		for r, c := range perClass {
			x := byRegime[r]
			x.In, x.N = x.In+c.In, x.N+c.N
			byRegime[r] = x
			total.In, total.N = total.In+c.In, total.N+c.N
		}
	}
	per = map[band.Regime]float64{}
	for r, c := range byRegime {
		per[r] = c.Share()
	}
	return total.Share(), per
}

// sourcesOf lists the targets' sources, sorted.
func sourcesOf(ts []Target) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range ts {
		if !seen[t.Source] {
			seen[t.Source] = true
			out = append(out, t.Source)
		}
	}
	sort.Strings(out)
	return out
}

// find is the band of a class and regime among bands.
func find(bands []band.Band, c band.Class, r band.Regime) (band.Band, bool) {
	for _, b := range bands {
		if b.Class == c && b.Regime == r {
			return b, true
		}
	}
	return band.Band{}, false
}

// Calibrated is Bands widened by each class's and regime's Margins: the
// bands vlaunch uses. The quantiles of the pooled figures alone are too
// narrow for a new source — errors within a source move together
// (GPUStack's 33 figures share one release, one client and one API
// server), so the spread of the other sources' figures understates how
// far a whole new setup can be off.
func Calibrated(held []Target, assumptions map[string]string) []band.Band {
	bands := Bands(held, assumptions)
	m := Margins(held)
	for i := range bands {
		bands[i] = bands[i].Margined(m[classRegime{bands[i].Class, bands[i].Regime}])
	}
	return bands
}

// CoverTarget is the leave-one-source-out coverage Margins aims at: about
// four in five figures of a setup the bands were not built from fall
// inside them (issue 10).
const CoverTarget = 0.80

// marginStep and maxMargin are the grid of log margins Margins searches
// (1% steps up to ×e, beyond which a band says nothing).
const (
	marginStep = 0.01
	maxMargin  = 1.0
)

// classRegime keys a margin.
type classRegime struct {
	c band.Class
	r band.Regime
}

// Margins is, per class and regime, the smallest log margin on the grid
// with which the 10–90% bands of the other sources cover at least
// CoverTarget of the class's figures of that regime, leave one source out
// (every class gets the coverage it claims, not the pool). A class and
// regime with no figure to check takes the largest margin of its regime:
// it is no better known than the others.
func Margins(held []Target) map[classRegime]float64 {
	out := map[classRegime]float64{}
	for _, r := range regimes {
		var widest float64
		var unchecked []band.Class
		for _, c := range band.Classes {
			m, ok := marginOf(held, c, r)
			if !ok {
				unchecked = append(unchecked, c)
				continue
			}
			out[classRegime{c, r}] = m
			widest = math.Max(widest, m)
		}
		for _, c := range unchecked {
			out[classRegime{c, r}] = widest
		}
	}
	return out
}

// regimes lists the regimes in the tables' order.
var regimes = []band.Regime{band.Throughput, band.TPOT, band.TTFTMean, band.TTFTP99}

// marginOf searches class c's margin in regime r; ok is false when no
// figure of it can be checked leave one source out.
func marginOf(held []Target, c band.Class, r band.Regime) (float64, bool) {
	var rs []Target
	for _, t := range held {
		if t.Regime == r {
			rs = append(rs, t)
		}
	}
	// Each source's figures against the raw bands of the others: the
	// margin only widens them, so the raw bands are computed once.
	type check struct {
		t Target
		b band.Band
	}
	var checks []check
	for _, src := range sourcesOf(rs) {
		var rest, own []Target
		for _, t := range rs {
			switch {
			case t.Source != src:
				rest = append(rest, t)
			case t.Class == c:
				own = append(own, t)
			}
		}
		if len(own) == 0 {
			continue
		}
		bands := Bands(rest, nil)
		for _, t := range own {
			if b, ok := find(bands, c, r); ok {
				checks = append(checks, check{t, b})
			}
		}
	}
	if len(checks) == 0 {
		return 0, false
	}
	for m := 0.0; m < maxMargin; m += marginStep {
		in := 0
		for _, ch := range checks {
			if Inside(ch.t, ch.b.Margined(m)) {
				in++
			}
		}
		if float64(in) >= CoverTarget*float64(len(checks)) {
			return m, true
		}
	}
	return maxMargin, true
}

// BandTableGo renders package band's generated table.
func BandTableGo(bands []band.Band) []byte {
	var b strings.Builder
	b.WriteString("// Code generated by go test ./estimate/replay -update; DO NOT EDIT.\n\npackage band\n\n")
	b.WriteString("// Table is the band of every regime, from the held-out errors and the\n// margins that give them about 80% coverage of left-out sources\n// (docs/calibration-throughput-holdout.md).\nvar Table = []Band{\n")
	for _, x := range bands {
		fmt.Fprintf(&b, "\t{Class: %q, Regime: %q, Low: %.4f, High: %.4f, Margin: %.2f, N: %d, Pooled: %t, Sources: %#v,\n\t\tDominant: %q,\n\t\tAssumption: %q},\n",
			string(x.Class), string(x.Regime), x.Low, x.High, x.Margin, x.N, x.Pooled, x.Sources, x.Dominant, x.Assumption)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// CoverFloor is the leave-one-source-out coverage below which the
// calibration test fails: the bands no longer say what they claim.
const CoverFloor = 0.75

// Validation is the bands' coverage of figures they were not built from.
type Validation struct {
	// Raw and RawPer are the coverage, leave one source out, of the 10–90%
	// quantile bands alone (in all and per regime).
	Raw    float64
	RawPer map[band.Regime]float64
	// All and Per are the coverage of the bands vlaunch uses (Calibrated),
	// nested: for each left-out source, the quantiles and the margins are
	// both chosen from the other sources only, so no figure checked
	// helped build its band.
	All float64
	Per map[band.Regime]float64
	// PerClass is All by class and regime (a class and regime with no
	// figure checked is absent).
	PerClass map[band.Class]map[band.Regime]Count
	// Current is All over the current classes only (dense, moe, moe-ep):
	// the legacy class — engines before vLLM 0.8 / SGLang 0.5 and AMD
	// GPUs, which no constant was fitted to — misses by 2–5× in whole
	// sources at once, which no band built from the other sources covers.
	Current float64
}

// Count is how many held-out figures were checked and how many fell
// inside their band.
type Count struct{ In, N int }

// Share is In / N (0 without figures).
func (c Count) Share() float64 {
	if c.N == 0 {
		return 0
	}
	return float64(c.In) / float64(c.N)
}

// Validate computes the bands' held-out coverage.
func Validate(held []Target) Validation {
	var v Validation
	v.Raw, v.RawPer = Coverage(held, func(ts []Target) []band.Band { return Bands(ts, nil) })
	v.PerClass = classCounts(held, func(ts []Target) []band.Band { return Calibrated(ts, nil) })
	v.All, v.Per = coverageOf(v.PerClass)
	var in, n int
	for c, per := range v.PerClass {
		if c == band.Legacy {
			continue
		}
		for _, x := range per {
			in, n = in+x.In, n+x.N
		}
	}
	if n > 0 {
		v.Current = float64(in) / float64(n)
	}
	return v
}

// classCounts counts, per class and regime, the targets checked leave one
// source out (each source's figures against the bands built without it)
// and those inside their band.
func classCounts(held []Target, build builder) map[band.Class]map[band.Regime]Count {
	out := map[band.Class]map[band.Regime]Count{}
	for _, src := range sourcesOf(held) {
		var rest, own []Target
		for _, t := range held {
			if t.Source == src {
				own = append(own, t)
			} else {
				rest = append(rest, t)
			}
		}
		bands := build(rest)
		for _, t := range own {
			b, ok := find(bands, t.Class, t.Regime)
			if !ok {
				continue
			}
			if out[t.Class] == nil {
				out[t.Class] = map[band.Regime]Count{}
			}
			c := out[t.Class][t.Regime]
			c.N++
			if Inside(t, b) {
				c.In++
			}
			out[t.Class][t.Regime] = c
		}
	}
	return out
}
