package svg

import (
	"math"
	"strconv"
)

// Scale maps data values onto a pixel range and proposes tick values.
type Scale struct {
	Lo, Hi     float64 // data domain
	From, To   float64 // pixel range (To < From for a y axis)
	Log        bool
	Base       float64 // log ticks at powers of Base (10 when 0)
	tickValues []float64
}

// NewScale builds a scale over the data values vs (plus extra values that
// must be visible, such as targets), padded to rounded ends. A linear scale
// starts at zero when zero is true; a log scale ignores non-positive values.
func NewScale(vs []float64, log, zero bool, base float64) Scale {
	s := Scale{Log: log, Base: base}
	if s.Base <= 1 {
		s.Base = 10
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) || (log && v <= 0) {
			continue
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if math.IsInf(lo, 1) { // no usable value
		lo, hi = 0, 1
		if log {
			lo = 1
		}
	}
	if log {
		s.Lo = math.Pow(s.Base, math.Floor(math.Log(lo)/math.Log(s.Base)+1e-9))
		s.Hi = math.Pow(s.Base, math.Ceil(math.Log(hi)/math.Log(s.Base)-1e-9))
		if s.Hi <= s.Lo {
			s.Hi = s.Lo * s.Base
		}
		s.tickValues = logTicks(s.Lo, s.Hi, s.Base)
		return s
	}
	if zero {
		lo = math.Min(lo, 0)
		hi = math.Max(hi, 0)
	}
	if hi == lo {
		hi = lo + math.Max(1, math.Abs(lo))
	}
	step := niceStep((hi - lo) / 5)
	s.Lo, s.Hi = math.Floor(lo/step+1e-9)*step, math.Ceil(hi/step-1e-9)*step
	for v := s.Lo; v <= s.Hi+step/2; v += step {
		s.tickValues = append(s.tickValues, math.Round(v/step)*step)
	}
	return s
}

// Pos maps a data value to pixels (clamped to the domain).
func (s Scale) Pos(v float64) float64 {
	t := s.frac(v)
	return s.From + t*(s.To-s.From)
}

// Inside says whether v lies within the domain.
func (s Scale) Inside(v float64) bool {
	if s.Log && v <= 0 {
		return false
	}
	return v >= s.Lo*(1-1e-9) && v <= s.Hi*(1+1e-9)
}

func (s Scale) frac(v float64) float64 {
	var t float64
	if s.Log {
		if v <= 0 {
			return 0
		}
		t = math.Log(v/s.Lo) / math.Log(s.Hi/s.Lo)
	} else {
		t = (v - s.Lo) / (s.Hi - s.Lo)
	}
	return math.Max(0, math.Min(1, t))
}

// Ticks are the values to label.
func (s Scale) Ticks() []float64 { return s.tickValues }

// niceStep rounds x up to 1, 2 or 5 × a power of ten.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// logTicks are the powers of base from lo to hi, thinned to at most eight.
func logTicks(lo, hi, base float64) []float64 {
	var out []float64
	for v := lo; v <= hi*(1+1e-9); v *= base {
		out = append(out, v)
	}
	for len(out) > 8 {
		var thin []float64
		for i := 0; i < len(out); i += 2 {
			thin = append(thin, out[i])
		}
		out = thin
	}
	return out
}

// Compact formats a tick value briefly: 1500 → 1.5k, 2000000 → 2M, 0.25 → 0.25.
func Compact(v float64) string {
	a := math.Abs(v)
	switch {
	case a >= 1e6:
		return trim(v/1e6) + "M"
	case a >= 1e3:
		return trim(v/1e3) + "k"
	}
	return trim(v)
}

func trim(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', -1, 64)
}
