package pd

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/vlaunch/vlaunch/estimate/sim"
)

// UseHandoffDistribution: the KV hand-off enters TTFT's percentiles as a
// distribution (Transfer.handoff), not as a constant at its mean. Two
// things spread it, both already in the transfer's mean (Transfer.at):
//
//   - the boundary-node mixture (UseSharedNodeBlend): a share f of the
//     hand-offs stays inside a node the pools share (cuda_ipc over NVLink,
//     e.g. 1.97 ms for plan/testdata/pd/pd-boundary-3x8h100.yaml's 12,000
//     token prompt), the rest, 1 − f, crosses the NICs (17.70 ms alone):
//     a two-point mixture, of which the mean (15.95 ms at f = 1/9) is
//     neither point;
//   - the NICs' sharing: Transfer.at stretches a NIC transfer's wire time
//     w to w ÷ (1 − u) at NIC utilisation u (processor sharing: the
//     M/G/1-PS mean response time of a job of size w, Kleinrock,
//     "Time-shared systems: a theoretical treatment", JACM 14(2), 1967;
//     Harchol-Balter, Performance Modeling and Design of Computer Systems,
//     2013, M/G/1/PS). The extra time, w·u ÷ (1 − u) on average, is taken
//     to be distributed as the M/M/1 queue's waiting time of that mean:
//     none with probability 1 − u (a Poisson arrival finds the NICs idle
//     with probability 1 − u), else exponential of mean w ÷ (1 − u):
//     P(W > t) = u·exp(−t(1 − u)/w) (Kleinrock, Queueing Systems Vol. I,
//     1975, the M/M/1 waiting time; Kingman, "On queues in heavy traffic",
//     JRSS B 24(2), 1962: in heavy traffic a single-server queue's wait
//     tends to an exponential whatever the service law). An approximation,
//     checked against no measurement: the law of one PS response time among
//     transfers of its own size has no closed form.
//
// The pools' waits are convolved with it as convolveHandoff says: the old
// percentile plus the shift the hand-off's spread makes on the pools'
// distributions joined linearly between their quantile points (the
// nearest rank over triples would land a percentile on the edge of a
// pool's last-hundredth lump plus the hand-off's largest deviation).
//
// The means are unchanged (the mean of a sum is the sum of the means:
// Scenario.TTFT.Mean and TTFTParts are computed as before); only TTFT's
// percentiles move. A hand-off with neither (pools on one node over
// NVLink, or a transfer at no NIC load) is the constant it was, to the
// bit. A closed loop whose NICs bind (Transfer.Saturated) keeps the
// constant from Little's law: how that wait spreads is not modelled.
// false convolves the pools' waits with the mean hand-off, as before.
//
// The evidence is the model's own (no published P/D run in
// published/pd.yaml splits TTFT by hand-off or shares a node between the
// pools; on those runs, NICs at most 4% busy, no figure moves by 0.5 ms).
// On the boundary example (TestHandoffBoundaryExample): one session, every
// percentile +1.78 ms (the NIC path's 17.97 ms for 8/9 of hand-offs, not
// the 16.2 ms blend; +1.50 ms with the NIC wait); 96 sessions (NICs 22%
// busy), p50 0.3429 → 0.3458 s, p99 1.0257 → 1.0274 s; 32 sessions, p99
// 0.4005 → 0.4086 s. Small against the pools' own spread, as it should
// be: the hand-off's spread is tens of ms.
var UseHandoffDistribution = true

// UseNICWaitDistribution (under UseHandoffDistribution): a transfer over
// loaded NICs takes the M/M/1 wait's distribution described there; false
// keeps each path at its mean time (the lone transfer stretched by
// 1 ÷ (1 − u), Transfer.at), so that only the two paths' mixture spreads
// the hand-off (and pools on nodes of their own keep a constant). The
// wait's law is the approximation of the two: a separate switch for the
// integrator.
var UseNICWaitDistribution = true

// handoffBins is how many equal-probability bins stand for the exponential
// part of a NIC wait (each at its bin's conditional mean, so the points'
// mean is the wait's mean).
const handoffBins = 20

// handoffPoint is one value of the hand-off time, S seconds, and its
// probability P.
type handoffPoint struct{ S, P float64 }

// handoff is the distribution of t's time at its operating rate (t is
// Transfer.at's result, Utilization set): the same-node path with
// probability SameNodeShare and the NIC path with the rest, each path its
// lone time plus, where it runs over loaded NICs, the wait nicWait
// spreads. One point, TimeS, when nothing spreads it or
// UseHandoffDistribution is off.
func (t Transfer) handoff() []handoffPoint {
	one := []handoffPoint{{t.TimeS, 1}}
	if !UseHandoffDistribution || t.Saturated || t.Overlap != nil { // an overlapped push: its mean only

		return one
	}
	if t.closed { // closedNIC: the finite-source queue found
		if UseNICWaitDistribution && len(t.closedPts) > 1 {
			return t.closedPts
		}
		return one
	}
	u := 0.0
	if t.MaxRatePerS > 0 {
		u = t.Utilization
	}
	var pts []handoffPoint
	if s := t.SameNode; t.SameNodeShare > 0 && s != nil {
		su := 0.0
		if s.MaxRatePerS > 0 { // the same-node path runs over the NICs too (Transfer.at)
			su = u
		}
		pts = append(nicWait(s.LatencyS+s.PostS, s.AloneS-s.LatencyS-s.PostS, su, t.SameNodeShare),
			nicWait(t.LatencyS+t.PostS, t.NICAloneS-t.LatencyS-t.PostS, u, 1-t.SameNodeShare)...)
	} else {
		pts = nicWait(t.LatencyS+t.PostS, t.AloneS-t.LatencyS-t.PostS, u, 1)
	}
	if len(pts) == 1 {
		return one
	}
	return pts
}

// nicWait is one path's time, fixed + w plus the wait of a transfer of
// wire time w on NICs at utilisation u (UseHandoffDistribution: none with
// probability 1 − u, else exponential of mean w ÷ (1 − u), in handoffBins
// equal-probability bins at their conditional means), at total
// probability weight. One point when u or w is 0.
func nicWait(fixed, w, u, weight float64) []handoffPoint {
	if u <= 0 || w <= 0 {
		return []handoffPoint{{fixed + w, weight}}
	}
	if !UseNICWaitDistribution {
		return []handoffPoint{{fixed + w/(1-u), weight}} // the mean, as Transfer.at
	}
	pts := []handoffPoint{{fixed + w, weight * (1 - u)}}
	m := w / (1 - u)
	// g(p) = ∫₀ᵖ −ln(1 − q) dq, the exponential's quantile function (per
	// unit mean) integrated: a bin's mean is m·(g(b) − g(a)) ÷ (b − a).
	g := func(p float64) float64 {
		if p >= 1 {
			return 1
		}
		return (1-p)*math.Log1p(-p) + p
	}
	for i := range handoffBins {
		a, b := float64(i)/handoffBins, float64(i+1)/handoffBins
		pts = append(pts, handoffPoint{fixed + w + m*(g(b)-g(a))*handoffBins, weight * u / handoffBins})
	}
	return pts
}

// handoffMean is the points' mean.
func handoffMean(h []handoffPoint) float64 {
	s := 0.0
	for _, p := range h {
		s += p.S * p.P
	}
	return s
}

// convolveHandoff is convolve with the hand-off a distribution h of mean
// mean (c holds that mean): TTFT is a + b + c + (the hand-off − mean).
// The mean is convolve's, to the bit, and a one-point hand-off is convolve
// itself. A percentile is convolve's plus the shift the hand-off's spread
// makes to it on the pools' distributions made continuous (smooth): the q
// quantile of a + b + c + (h − mean) less that of a + b + c.
//
// Why not the nearest rank over every (a, b, hand-off) triple, as convolve
// takes it over the pairs: a pool's TTFTQuantiles are 100 points, each
// the upper end of its hundredth, so the pairs' p99 sits on the edge of
// the last hundredth's lump (on the boundary example, the prefill pool's
// p99 point is 0.96 s and its last 1.15 s, the decode pool's nearly a
// constant); any spread added lands the triples' p99 at that edge plus
// the hand-off's largest deviation (+88 ms there for a hand-off whose own
// p99 is 57 ms above its mean), which no continuous distribution of the
// pools' waits would give (a few ms). Joined linearly, the quantile points
// leave no such edge, and the shift is the hand-off's own effect.
func convolveHandoff(a, b sim.Result, c float64, h []handoffPoint, mean float64) sim.Percentiles {
	out := convolve(a, b, c)
	if len(h) <= 1 {
		return out
	}
	x, y := newSmooth(quantiles(a)), newSmooth(quantiles(b))
	zero := []handoffPoint{{0, 1}}
	dev := make([]handoffPoint, len(h))
	for i, p := range h {
		dev[i] = handoffPoint{p.S - mean, p.P}
	}
	lo := x.pts[0] + y.pts[0] + c - 1
	hi := x.pts[len(x.pts)-1] + y.pts[len(y.pts)-1] + c + 1
	dlo, dhi := handoffMin(dev), handoffMax(dev)
	shift := func(q float64) float64 {
		q0 := sumQuantile(x, y, c, zero, q, lo, hi)
		// P(S + d ≤ v) lies between P(S ≤ v − max d) and P(S ≤ v − min d):
		// the quantile lies between q0 + min d and q0 + max d.
		return sumQuantile(x, y, c, dev, q, q0+dlo-1e-6, q0+dhi+1e-6) - q0
	}
	out.P50 += shift(0.5)
	out.P90 = max(out.P50, out.P90+shift(0.9))
	out.P95 = max(out.P90, out.P95+shift(0.95))
	out.P99 = max(out.P95, out.P99+shift(0.99))
	return out
}

// smooth is a distribution given by sorted quantile points x₀ … x_{m−1}
// (a pool's TTFTQuantiles: point i the (i+1)/m quantile) made continuous:
// probability 1/m at x₀ and 1/m spread evenly over each [xᵢ, xᵢ₊₁], so
// the CDF runs linearly through (xᵢ, (i+1)/m). g[i] is ∫₋∞^{xᵢ} F.
type smooth struct {
	pts, g []float64
}

func newSmooth(q []float64) smooth {
	pts := slices.Clone(q)
	slices.Sort(pts)
	m := float64(len(pts))
	g := make([]float64, len(pts))
	for i := 1; i < len(pts); i++ {
		g[i] = g[i-1] + (pts[i]-pts[i-1])*(float64(2*i+1)/(2*m))
	}
	return smooth{pts, g}
}

// locate is the index of the last point ≤ z (−1: none).
func (s smooth) locate(z float64) int {
	return sort.Search(len(s.pts), func(i int) bool { return s.pts[i] > z }) - 1
}

// cdf is F(z).
func (s smooth) cdf(z float64) float64 { return s.cdfAt(z, s.locate(z)) }

// integral is ∫₋∞^z F.
func (s smooth) integral(z float64) float64 { return s.integralAt(z, s.locate(z)) }

// cdfAt is F(z), i = locate(z).
func (s smooth) cdfAt(z float64, i int) float64 {
	m := len(s.pts)
	switch {
	case i < 0:
		return 0
	case i >= m-1:
		return 1
	}
	w := s.pts[i+1] - s.pts[i] // > 0: pts[i+1] > z ≥ pts[i]
	return (float64(i+1) + (z-s.pts[i])/w) / float64(m)
}

// integralAt is ∫₋∞^z F, i = locate(z).
func (s smooth) integralAt(z float64, i int) float64 {
	m := len(s.pts)
	switch {
	case i < 0:
		return 0
	case i >= m-1:
		return s.g[m-1] + (z - s.pts[m-1])
	}
	d, w := z-s.pts[i], s.pts[i+1]-s.pts[i]
	return s.g[i] + d*float64(i+1)/float64(m) + d*d/(2*w*float64(m))
}

// sumCDF is P(x + y ≤ v) for independent x and y: y's mass at its first
// point, and its uniform pieces [yᵢ, yᵢ₊₁], each averaging x's CDF over
// the piece, (∫F(v − yᵢ) − ∫F(v − yᵢ₊₁)) ÷ (yᵢ₊₁ − yᵢ). The arguments v − yᵢ
// fall as i grows: x's index is walked down once.
func sumCDF(x, y smooth, v float64) float64 {
	j := len(x.pts) - 1
	seek := func(z float64) int {
		for j >= 0 && x.pts[j] > z {
			j--
		}
		return j
	}
	z := v - y.pts[0]
	k := seek(z)
	f := x.cdfAt(z, k)
	prev := x.integralAt(z, k)
	for i := 0; i+1 < len(y.pts); i++ {
		a, b := y.pts[i], y.pts[i+1]
		z := v - b
		k := seek(z)
		if b-a <= 0 {
			f += x.cdfAt(z, k)
			continue
		}
		ib := x.integralAt(z, k)
		f += (prev - ib) / (b - a)
		prev = ib
	}
	return f / float64(len(y.pts))
}

// sumQuantile is the least v (to a nanosecond's bisection) at which
// P(x + y + c + d ≤ v) reaches q, d distributed as dev, in [lo, hi].
func sumQuantile(x, y smooth, c float64, dev []handoffPoint, q, lo, hi float64) float64 {
	cdf := func(v float64) float64 {
		f := 0.0
		for _, p := range dev {
			f += p.P * sumCDF(x, y, v-c-p.S)
		}
		return f
	}
	for hi-lo > 1e-9 {
		mid := lo + (hi-lo)/2
		if mid <= lo || mid >= hi {
			break
		}
		if cdf(mid) >= q-1e-12 {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

func handoffMin(h []handoffPoint) float64 {
	v := math.Inf(1)
	for _, p := range h {
		v = min(v, p.S)
	}
	return v
}

func handoffMax(h []handoffPoint) float64 {
	v := math.Inf(-1)
	for _, p := range h {
		v = max(v, p.S)
	}
	return v
}

// describeHandoff is the note on the hand-off's distribution (""
// when it is one point).
func (t Transfer) describeHandoff() string {
	h := t.handoff()
	if len(h) <= 1 {
		return ""
	}
	s := "TTFT's percentiles take the KV hand-off as a distribution, not its mean (UseHandoffDistribution)"
	if sn := t.SameNode; t.SameNodeShare > 0 && sn != nil {
		s += fmt.Sprintf(": %.3g of hand-offs over %s (%.2f ms alone), %.3g over the NICs (%.2f ms alone)", t.SameNodeShare, sn.Link, 1e3*sn.AloneS, 1-t.SameNodeShare, 1e3*t.NICAloneS)
	}
	if t.closed {
		s += fmt.Sprintf("; the closed loop's transfers are priced for its sessions, not an endless stream (UseClosedLoopNICMVA: mean value analysis of the NICs as a processor-sharing station, %.0f%% busy): a transfer finds k of the other sessions' on the NICs with the finite-source queue's probability and takes its wire time plus its share of theirs, at most %.2f s",
			100*t.Utilization, handoffMax(h))
	} else if t.MaxRatePerS > 0 && t.Utilization > 0 && UseNICWaitDistribution {
		s += fmt.Sprintf("; a transfer over the NICs at utilisation %.2f waits for the others in flight: none with probability %.2f, else exponentially long (the M/M/1 wait of the same mean as the NICs' fair sharing, w·u ÷ (1 − u); an approximation)", t.Utilization, 1-t.Utilization)
	}
	return s + fmt.Sprintf("; the two pools' waits are convolved with it (its mean, %.2f ms, unchanged)", 1e3*t.TimeS)
}

// handoffQuantile is the hand-off's own q quantile (nearest rank by
// probability).
func handoffQuantile(h []handoffPoint, q float64) float64 {
	s := slices.Clone(h)
	slices.SortFunc(s, func(a, b handoffPoint) int {
		switch {
		case a.S < b.S:
			return -1
		case a.S > b.S:
			return 1
		}
		return 0
	})
	c := 0.0
	for _, p := range s {
		c += p.P
		if c >= q-1e-12 {
			return p.S
		}
	}
	return s[len(s)-1].S
}
