package slo

import (
	"fmt"
	"math"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// Load is what a TTFT verdict of an open loop (Poisson arrivals at
// workload.arrival_rate_per_s) needs to carry the capacity's error into its
// band (loadBand): the utilisation of the part whose queue the request
// waits in, and the TTFT on an idle system (the part that does not queue).
// The zero Load (a closed loop, a finite burst: their queue is finite)
// leaves the band as judge makes it.
type Load struct {
	// Utilization is the arrival rate over the predicted sustainable rate
	// of the queue's server (below 1: at or above it the verdict is the
	// overload's, not a band's).
	Utilization float64
	// SustainableRatePerS is that predicted sustainable rate (for the text;
	// 0: not said).
	SustainableRatePerS float64
	// IdleS is the TTFT without waiting: the prompt on an idle system.
	IdleS float64
	// Part names the queue's server: "deployment" (the default),
	// "prefill pool", "decode pool".
	Part string
}

// UseLoadBand switches loadBand on: an open loop's TTFT band carries the
// capacity's band through the queue's ρ/(1−ρ) growth (issue #28, "honest
// bands"). Off, a TTFT band is the held-out TTFT errors alone, which do not
// know the load.
var UseLoadBand = true

// openLoad is the Load of a simulated scenario: its utilisation when it is
// an open loop (not a closed loop's sessions, not a finite burst), with the
// prompt's idle TTFT; the zero Load otherwise, and for an open loop the
// client's cap holds below its rate (SimScenario.ClientCapHolds): the
// client's queue takes the excess and the engine's holds at most the cap,
// finite as a closed loop's.
func openLoad(s *SimScenario, idleS float64) Load {
	if s == nil || s.Sessions > 0 || s.Burst > 0 || s.RatePerS <= 0 || s.ClientCapHolds {
		return Load{}
	}
	return Load{Utilization: s.Utilization, SustainableRatePerS: s.SustainableRatePerS, IdleS: idleS, Part: "deployment"}
}

// JudgeTTFT judges a TTFT verdict of percentile q (p50, p95, p99) as
// Judge does, then widens its band by the load's queueing (loadBand) —
// for a prediction made outside this package (package pd's disaggregated
// TTFT, plan's P/D evaluation).
func JudgeTTFT(v *Verdict, in *input.Input, q string, ok bool, l Load) {
	judgeTTFT(v, in, q, ok, l)
}

// judgeTTFT is judge with the TTFT regime of q, and the band widened by
// the open loop's queueing (loadBand).
func judgeTTFT(v *Verdict, in *input.Input, q string, ok bool, l Load) {
	judge(v, in, ttftRegime(q), false, ok)
	if !UseLoadBand || v.Band == nil || l.Utilization <= 0 || l.Utilization >= 1 {
		return
	}
	// The capacity's band is the steady loads' throughput band
	// (band.Throughput): since band.ThroughputBurst took the finite bursts'
	// throughput figures (bound by ingest, the burst's prefill and its
	// tail, not by the steady decode an open loop's capacity is), it holds
	// closed and open loops only.
	capBand, _ := sloBand(in, band.Throughput)
	widenForLoad(v, l, capBand, classOf(in))
}

// widenForLoad widens v's band (judge's, empirical) by the load's queueing
// with the capacity band capBand of class c (loadBand), keeping the wider
// of the two on each side, says why in BandBasis, and judges v again.
func widenForLoad(v *Verdict, l Load, capBand band.Band, c band.Class) {
	w := loadBand(v.Predicted, l.IdleS, l.Utilization, capBand)
	part := partOr(l.Part)
	at := fmt.Sprintf("; under this open loop's arrivals the %s is at utilisation %.2f%s, and its capacity's band (the throughput errors of %s deployments) is %s",
		part, l.Utilization, rateText(l.SustainableRatePerS), c, capText(capBand))
	switch {
	case w.OpenHigh && capBand.OpenLow:
		v.BandBasis += at + fmt.Sprintf(": with no lower bound on the capacity the arrivals could exceed what the %s sustains: the queue could grow without bound, so the band has no upper bound", part)
	case w.OpenHigh:
		v.BandBasis += at + fmt.Sprintf(": at the low edge of the capacity band (×%.2f) the arrivals would exceed what the %s sustains (utilisation %.2f): the queue could grow without bound, so the band has no upper bound",
			capBand.Low, part, w.UHigh)
	case w.High > v.Band.High || w.Low < v.Band.Low:
		v.BandBasis += at + fmt.Sprintf(": the queueing part of the TTFT (%s beyond the idle %s) grows like an M/G/1 queue's wait, ρ/(1−ρ) (Pollaczek–Khinchine), "+
			"and at the capacity band's edges the utilisation is %.2f–%.2f and that wait ×%.2f–×%.2f of the predicted, which sets the band's %s",
			textfmt.Seconds(w.QueueS), textfmt.Seconds(l.IdleS), w.ULow, w.UHigh, w.GrowLow, w.GrowHigh, sidesText(w.Low < v.Band.Low, w.High > v.Band.High))
	}
	v.Band.High = max(v.Band.High, w.High)
	v.Band.Low = min(v.Band.Low, w.Low)
	rejudge(v, false)
}

// rejudge sets v's verdict from its band: pass when the whole band meets
// the target, fail when none of it does, uncertain otherwise. higher says
// the figure must reach the target (throughput) rather than stay under it.
func rejudge(v *Verdict, higher bool) {
	meets := func(x float64) bool {
		if higher {
			return x >= v.Target
		}
		return x <= v.Target
	}
	switch lo, hi := v.Band.Low, v.Band.High; {
	case meets(lo) && meets(hi):
		v.Verdict = VerdictPass
	case !meets(lo) && !meets(hi):
		v.Verdict = VerdictFail
	default:
		v.Verdict = VerdictUncertain
	}
}

// queueGrowth is the M/G/1 queue's mean wait at utilisation x in units of
// the mean residual service time, x/(1−x): the Pollaczek–Khinchine formula
// E[T_Q] = ρ/(1−ρ) · E[S²]/(2E[S]) (M. Harchol-Balter, Performance
// Modeling and Design of Computer Systems, Cambridge 2013, ch. 23;
// L. Kleinrock, Queueing Systems vol. 1, Wiley 1975, §5.6). +Inf at or
// above 1: the queue grows without bound.
func queueGrowth(x float64) float64 {
	if x >= 1 {
		return math.Inf(1)
	}
	return x / (1 - x)
}

// LoadWidening is what loadBand derives: the TTFT band the capacity's own
// band implies, with its steps.
type LoadWidening struct {
	// QueueS is the queueing part of the prediction (the prediction less
	// the idle TTFT, at least 0).
	QueueS float64
	// ULow and UHigh are the lowest and highest utilisation the capacity
	// band allows, u/High (at its high edge) and u/Low (at its low edge);
	// GrowLow and GrowHigh the factors the queueing part takes there,
	// queueGrowth(u/High)/queueGrowth(u) and queueGrowth(u/Low)/queueGrowth(u).
	ULow, UHigh       float64
	GrowLow, GrowHigh float64
	// Low and High are the TTFT band: idle + QueueS × GrowLow and
	// idle + QueueS × GrowHigh; OpenHigh (High +Inf) when the low edge of
	// the capacity puts the utilisation at 1 or more (or the capacity band
	// has no lower bound).
	Low, High float64
	OpenHigh  bool
}

// loadBand carries the capacity's band into the TTFT of an open loop at
// utilisation u (0 < u < 1) whose prediction p is the idle TTFT plus a
// queueing part. Under Poisson arrivals the TTFT is mostly that queue's
// wait when u is high, and the wait grows like an M/G/1 queue's,
// ρ/(1−ρ) (queueGrowth): a small error in the deployment's capacity
// moves it without bound. The capacity's band (the steady throughput
// regime's held-out errors of the deployment's class — band.Throughput,
// closed and open loops only; a finite burst's throughput is
// band.ThroughputBurst —, capBand: published capacity
// within ×Low–×High of the prediction) puts the true utilisation between
// u/High and u/Low. At the low edge, u/Low ≥ 1 means the arrivals could
// exceed what the deployment sustains: the band's high side is open.
// Otherwise the queueing part grows by queueGrowth(u/Low)/queueGrowth(u)
// on the high side and shrinks by queueGrowth(u/High)/queueGrowth(u) on
// the low side; the idle part is held (its own error is the TTFT band's).
// Only ρ/(1−ρ) is propagated: the residual service time E[S²]/(2E[S]) of
// Pollaczek–Khinchine is held at the prediction's, which understates the
// high side by up to a further ×1/Low. Continuous batching admits arrivals
// into the running batch, so below saturation the simulation's own TTFT
// grows more slowly than ρ/(1−ρ): between u = 0.3 and 0.6 this growth is
// 1.2–2.5× the simulation's at u/Low (TestLoadBandHoldsSlowerSimulation),
// a conservative side. There is no threshold: at low
// utilisation the queueing part and its growth are both small, and the
// caller keeps the wider of this band and the empirical one on each side.
func loadBand(p, idle, u float64, capBand band.Band) LoadWidening {
	q := max(0, p-idle)
	base := p - q // the idle part, never above the prediction
	lo, hi := math.Min(1, capBand.Low), math.Max(1, capBand.High)
	w := LoadWidening{QueueS: q, ULow: u / hi, UHigh: math.Inf(1)}
	if !capBand.OpenLow && lo > 0 {
		w.UHigh = u / lo
	}
	if capBand.OpenHigh {
		w.ULow = 0
	}
	g := queueGrowth(u)
	w.GrowLow = queueGrowth(w.ULow) / g
	w.GrowHigh = queueGrowth(w.UHigh) / g
	w.Low = base + q*w.GrowLow
	if w.UHigh >= 1 {
		w.OpenHigh, w.High = true, math.Inf(1)
		return w
	}
	w.High = base + q*w.GrowHigh
	return w
}

// capText is the capacity band as "×Low–×High", an open side said.
func capText(b band.Band) string {
	lo, hi := fmt.Sprintf("×%.2f", b.Low), fmt.Sprintf("×%.2f", b.High)
	if b.OpenLow {
		lo = "unbounded below"
	}
	if b.OpenHigh {
		hi = "unbounded above"
	}
	return lo + "–" + hi
}

// partOr is the queue's server's name, "deployment" when unnamed.
func partOr(s string) string {
	if s == "" {
		return "deployment"
	}
	return s
}

// rateText is " of a predicted sustainable x requests/s", or "" unknown.
func rateText(r float64) string {
	if r <= 0 {
		return ""
	}
	return fmt.Sprintf(" of a predicted sustainable %s requests/s", textfmt.Rate(r))
}

// sidesText names the band's sides the queueing set.
func sidesText(low, high bool) string {
	switch {
	case low && high:
		return "both sides"
	case low:
		return "low side"
	}
	return "high side"
}
