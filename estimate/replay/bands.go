package replay

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/vlaunch/vlaunch/estimate/band"
)

// Bands is the band of every class and regime from held-out targets, by
// one rule (a two-level error model): log(published/predicted) of a
// figure is its source's effect plus noise within the source, so the band
// for a new setup is the 80% predictive interval of a new source's figure
// — centred on the mean of the sources' median errors, half-width a
// Student-t quantile on k−1 degrees of freedom (k sources) times
// √(between-source variance × (1 + 1/k) + pooled within-source variance).
// A current class whose regime has fewer than band.MinSources sources
// takes the figures of every current class of that regime (Pooled),
// widened to the predictive interval of its own sources alone where it
// has two or more and theirs is wider (ownSpread: the pool does not know
// how far this class's sources disagree), and stretched to hold every
// figure of the class's own sources (stretch);
// a band still built from fewer than band.MinSources sources is open on
// both sides (it says nothing), and a side beyond band.MaxFactor is open
// (the sources disagree by more than a band can say). assumptions maps a
// source to what its errors point at.
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
			if pooled {
				ownSpread(&b, by[key{c, r}])
				stretch(&b, by[key{c, r}])
			}
			b.Assumption = assumptions[b.Dominant]
			out = append(out, b)
		}
	}
	return out
}

// ownSpread widens pooled band b to the predictive interval of its
// class's own sources alone (own), when there are at least two of them:
// the same rule as every band (bandOf: Student's t on k−1 degrees of
// freedom for k sources), centred on the own sources' mean and scaled by
// their own spread, and b keeps whichever side is wider. The pool carries
// the other classes' between-source variance, which need not be this
// class's (moe bursts' sources agree within ±5%, dense bursts' differ by
// 1.4× between two GPUs): with two or three sources of its own, the t
// quantile (3.08 on one degree of freedom, 1.89 on two) is what says how
// little they pin the class down. One own source has no spread to
// estimate: stretch alone holds its figures.
func ownSpread(b *band.Band, own []Target) {
	if len(sourcesOf(own)) < 2 {
		return
	}
	o := bandOf(b.Regime, own)
	if o.Low < b.Low {
		b.Low, b.OwnSpread = o.Low, true
	}
	if o.High > b.High {
		b.High, b.OwnSpread = o.High, true
	}
	if b.OwnSpread {
		// The own sources now set the band, so one of them names what it
		// is most unsure of (Bands fills its Assumption).
		b.OwnDisagree, b.Dominant = o.Disagree, o.Dominant
	}
}

// stretch widens pooled band b to hold every figure of its class's own
// sources (own): the pool does not know the class's offset, and those few
// figures are the only direct evidence of it. Beyond names the source that
// set a stretched side; a side stretched past band.MaxFactor opens.
func stretch(b *band.Band, own []Target) {
	b.Own = len(sourcesOf(own))
	for _, t := range own {
		x := t.Published / t.Predicted
		if x > b.High {
			b.High, b.Beyond = x, t.Source
		}
		if x < b.Low {
			b.Low, b.Beyond = x, t.Source
		}
	}
	b.OpenLow = b.OpenLow || b.Low < 1/band.MaxFactor
	b.OpenHigh = b.OpenHigh || b.High > band.MaxFactor
}

// Cover is the share of a new source's figures the bands aim to hold: the
// predictive interval runs from its 10% to its 90% quantile.
const Cover = 0.80

// bandOf is the band of one regime's held-out targets (Bands).
func bandOf(r band.Regime, ts []Target) band.Band {
	bySrc := map[string][]float64{}
	for _, t := range ts {
		bySrc[t.Source] = append(bySrc[t.Source], math.Log(t.Published/t.Predicted))
	}
	b := band.Band{Regime: r, N: len(ts), Sources: sourcesOf(ts)}
	k := len(b.Sources)
	medians := make([]float64, 0, k)
	var within float64 // sum of squared deviations from each source's median
	for _, s := range b.Sources {
		ys := slices.Clone(bySrc[s])
		sort.Float64s(ys)
		m := quantile(ys, 0.5)
		medians = append(medians, m)
		for _, y := range ys {
			within += (y - m) * (y - m)
		}
	}
	var mean float64
	for _, m := range medians {
		mean += m
	}
	mean /= float64(k)
	var between float64
	for _, m := range medians {
		between += (m - mean) * (m - mean)
	}
	if k > 1 {
		between /= float64(k - 1)
	}
	if n := len(ts) - k; n > 0 {
		within /= float64(n)
	} else {
		within = 0
	}
	lo, hi := slices.Min(medians), slices.Max(medians)
	b.Center, b.Between, b.Within, b.Disagree = mean, math.Sqrt(between), math.Sqrt(within), math.Exp(hi-lo)
	if k < 2 {
		b.Low, b.High, b.OpenLow, b.OpenHigh = math.Exp(mean), math.Exp(mean), true, true
	} else {
		h := studentT((1+Cover)/2, k-1) * math.Sqrt(between*(1+1/float64(k))+within)
		b.Low, b.High = math.Exp(mean-h), math.Exp(mean+h)
		few := k < band.MinSources
		b.OpenLow = few || b.Low < 1/band.MaxFactor
		b.OpenHigh = few || b.High > band.MaxFactor
	}
	// The source furthest out on the wider side names what the band is
	// most unsure of.
	wide := math.Log(b.High) > -math.Log(b.Low)
	worst := 0.0
	for i, s := range b.Sources {
		if (medians[i] > mean) == wide && math.Abs(medians[i]-mean) > worst {
			worst, b.Dominant = math.Abs(medians[i]-mean), s
		}
	}
	return b
}

// studentT is the p-quantile of Student's t with df degrees of freedom:
// the root of its distribution function, integrated numerically (no table
// to mistype; studentT(0.9, 3) = 1.638). Remembered: the leave-one-source-
// out validation asks for the same few quantiles thousands of times.
func studentT(p float64, df int) float64 {
	tMemo.Lock()
	defer tMemo.Unlock()
	k := tKey{p, df}
	if q, ok := tMemo.m[k]; ok {
		return q
	}
	q := studentTRoot(p, df)
	tMemo.m[k] = q
	return q
}

// tKey and tMemo remember studentT's quantiles.
type tKey struct {
	p  float64
	df int
}

var tMemo = struct {
	sync.Mutex
	m map[tKey]float64
}{m: map[tKey]float64{}}

// studentTRoot computes studentT.
func studentTRoot(p float64, df int) float64 {
	nu := float64(df)
	lg1, _ := math.Lgamma((nu + 1) / 2)
	lg2, _ := math.Lgamma(nu / 2)
	c := math.Exp(lg1-lg2) / math.Sqrt(nu*math.Pi)
	pdf := func(x float64) float64 { return c * math.Pow(1+x*x/nu, -(nu+1)/2) }
	// cdf(x) − ½ by Simpson's rule on [0, x].
	half := func(x float64) float64 {
		const n = 2000
		h := x / n
		s := pdf(0) + pdf(x)
		for i := 1; i < n; i++ {
			s += float64(2+2*(i%2)) * pdf(float64(i)*h)
		}
		return s * h / 3
	}
	lo, hi := 0.0, 1.0
	for half(hi) < p-0.5 {
		hi *= 2
	}
	for range 60 {
		mid := (lo + hi) / 2
		if half(mid) < p-0.5 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
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
// its prediction: around the prediction, or, for a figure of a loop with
// two states (Target.StateLow, StateHigh), around both states and the
// prediction (band.Band.RangeOver).
func Inside(t Target, b band.Band) bool {
	lo, hi := t.Predicted, t.Predicted
	if t.StateLow > 0 && t.StateHigh > 0 {
		lo, hi = min(lo, t.StateLow), max(hi, t.StateHigh)
	}
	l, h := b.RangeOver(lo, hi)
	return t.Published >= l && t.Published <= h
}

// builder makes bands from held-out targets.
type builder func(held []Target) []band.Band

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

// regimes lists the regimes in the tables' order.
var regimes = []band.Regime{band.Throughput, band.ThroughputBurst, band.TPOT, band.TPOTBurst, band.TTFTMean, band.TTFTP99}

// BandTableGo renders package band's generated table.
func BandTableGo(bands []band.Band) []byte {
	var b strings.Builder
	b.WriteString("// Code generated by go test ./estimate/replay -update; DO NOT EDIT.\n\npackage band\n\n")
	b.WriteString("// Table is the band of every class and regime: the 80% predictive\n// interval of a new source's figure under a two-level model of the held-out\n// errors (docs/calibration-throughput-holdout.md).\nvar Table = []Band{\n")
	for _, x := range bands {
		fmt.Fprintf(&b, "\t{Class: %q, Regime: %q, Low: %.4f, High: %.4f, OpenLow: %t, OpenHigh: %t,\n\t\tCenter: %.4f, Between: %.4f, Within: %.4f, Disagree: %.2f, N: %d, Pooled: %t, Own: %d, OwnSpread: %t, OwnDisagree: %.2f, Beyond: %q, Sources: %#v,\n\t\tDominant: %q,\n\t\tAssumption: %q},\n",
			string(x.Class), string(x.Regime), x.Low, x.High, x.OpenLow, x.OpenHigh, x.Center, x.Between, x.Within, x.Disagree, x.N, x.Pooled, x.Own, x.OwnSpread, x.OwnDisagree, x.Beyond, x.Sources, x.Dominant, x.Assumption)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// CoverFloor is the leave-one-source-out coverage below which the
// calibration test fails in any class and regime checked (issue #28:
// ≥ 78% in every regime; a class with few sources of its own is checked
// against the pooled band with its own sources' interval, Bands).
const CoverFloor = 0.78

// Validation is the bands' coverage of figures they were not built from:
// each source's figures against the bands built without it (leave one
// source out; every band and every quantity in it computed from the other
// sources only — the rule has no fitted parameter).
type Validation struct {
	// All and Per are the share inside, in all and per regime.
	All float64
	Per map[band.Regime]float64
	// PerClass is the count by class and regime (a class and regime with
	// no figure checked is absent).
	PerClass map[band.Class]map[band.Regime]Count
	// Current is All over the current classes only (dense, moe, moe-ep).
	Current float64
}

// Count is how many held-out figures were checked, how many fell inside
// their band, and the bands they were checked against.
type Count struct {
	In, N int
	// Open is how many were checked against a band with an open side, and
	// Widths the bands' high/low ratios (+Inf when open).
	Open   int
	Widths []float64
	// Sources is how many sources the figures come from, and SourcesIn
	// how many of them have their median figure inside its band: the
	// share a band for a new source aims at.
	Sources, SourcesIn int
}

// Share is In / N (0 without figures).
func (c Count) Share() float64 {
	if c.N == 0 {
		return 0
	}
	return float64(c.In) / float64(c.N)
}

// MedianWidth is the median high/low ratio of the bands checked (+Inf when
// most were open).
func (c Count) MedianWidth() float64 {
	if len(c.Widths) == 0 {
		return 0
	}
	w := slices.Clone(c.Widths)
	sort.Float64s(w)
	return w[len(w)/2]
}

// Validate computes the bands' held-out coverage.
func Validate(held []Target) Validation {
	var v Validation
	v.PerClass = classCounts(held, func(ts []Target) []band.Band { return Bands(ts, nil) })
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
	srcs := map[band.Class]map[band.Regime]map[string]bool{}
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
		type cr struct {
			c band.Class
			r band.Regime
		}
		ratios := map[cr][]float64{}
		for _, t := range own {
			b, ok := find(bands, t.Class, t.Regime)
			if !ok {
				continue
			}
			ratios[cr{t.Class, t.Regime}] = append(ratios[cr{t.Class, t.Regime}], t.Published/t.Predicted)
			if out[t.Class] == nil {
				out[t.Class] = map[band.Regime]Count{}
				srcs[t.Class] = map[band.Regime]map[string]bool{}
			}
			if srcs[t.Class][t.Regime] == nil {
				srcs[t.Class][t.Regime] = map[string]bool{}
			}
			srcs[t.Class][t.Regime][t.Source] = true
			c := out[t.Class][t.Regime]
			c.N++
			if Inside(t, b) {
				c.In++
			}
			if b.OpenLow || b.OpenHigh {
				c.Open++
			}
			lo, hi := b.Range(1)
			c.Widths = append(c.Widths, hi/lo)
			c.Sources = len(srcs[t.Class][t.Regime])
			out[t.Class][t.Regime] = c
		}
		for k, xs := range ratios {
			b, _ := find(bands, k.c, k.r)
			sort.Float64s(xs)
			if lo, hi := b.Range(1); quantile(xs, 0.5) >= lo && quantile(xs, 0.5) <= hi {
				c := out[k.c][k.r]
				c.SourcesIn++
				out[k.c][k.r] = c
			}
		}
	}
	return out
}
