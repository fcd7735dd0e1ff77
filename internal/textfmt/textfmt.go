// Package textfmt formats numbers and switches the same way in every
// vlaunch report: the estimator's derivations (notes, verdict
// explanations) and the renderers print the same figures, so they share
// one spelling of each.
package textfmt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Thousands formats n with comma separators (70272 → "70,272").
func Thousands(n int64) string {
	s := fmt.Sprintf("%d", n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// OnOff spells a switch the way vLLM's flags read ("on" / "off").
func OnOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// Quantity formats an SLO figure in its unit: a duration in seconds
// ("s") as Seconds does, anything else (tokens/s) as Count does followed
// by the unit.
func Quantity(x float64, unit string) string {
	if unit == "s" {
		return Seconds(x)
	}
	return withUnit(Count(x), unit)
}

// Versus formats an SLO's target and prediction in its unit, as Quantity
// does unless that would print two different values alike: then both are
// printed in the target's unit with as many decimals as it takes to tell
// them apart (target 25 ms, predicted 25.04 ms: "25.00 ms" and
// "25.04 ms"), so a verdict never contradicts the figures beside it.
func Versus(target, predicted float64, unit string) (string, string) {
	t, p := Quantity(target, unit), Quantity(predicted, unit)
	if t != p || target == predicted || !finite(target) || !finite(predicted) {
		return t, p
	}
	scale, name := 1.0, unit
	if unit == "s" {
		scale, name = secondsUnit(target)
	}
	// Start at the decimals that state the target as written (a 1.5 s
	// target is never shown as "2 s" beside a 1.497 s prediction shown as
	// "1 s", qa42), then add digits until the two differ. float64 carries
	// about 16 significant digits: past them two values that differ
	// cannot be printed apart.
	for d := exactDecimals(target * scale); d <= 16; d++ {
		t, p = fixed(target*scale, d), fixed(predicted*scale, d)
		if t != p {
			break
		}
	}
	return withUnit(t, name), withUnit(p, name)
}

// exactDecimals is the fewest decimals (at most 16) that print x as the
// number it is, to one part in 10^12.
func exactDecimals(x float64) int {
	for d := 0; d < 16; d++ {
		if v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', d, 64), 64); err == nil && math.Abs(v-x) <= 1e-12*math.Max(1, math.Abs(x)) {
			return d
		}
	}
	return 16
}

func withUnit(num, unit string) string {
	if unit == "" {
		return num
	}
	return num + " " + unit
}

// Range formats an interval in its unit as Quantity does, the unit said
// once when both ends share it ("50.7–53.6 ms", "800 ms–1.2 s"), one
// figure when both ends print alike (an interval narrower than the
// figures' precision).
func Range(lo, hi float64, unit string) string {
	l, h := Quantity(lo, unit), Quantity(hi, unit)
	if l == h {
		return l
	}
	ln, lu, lok := strings.Cut(l, " ")
	_, hu, hok := strings.Cut(h, " ")
	if lok && hok && lu == hu {
		return ln + "–" + h
	}
	return l + "–" + h
}

// PluralS is the English plural suffix for a count: "" for 1, "s" otherwise
// ("1 result", "3 results").
func PluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Band words a prediction band [lo, hi] in the figure's unit, an open side
// left out: lo ≤ 0 is no lower bound, hi = +Inf no upper one ("≥ 305
// tokens/s" has no upper bound, "unbounded" neither). check's verdicts
// (report) and the what-it-would-take lines (estimate/slo) word bands so.
func Band(lo, hi float64, unit string) string {
	open := math.IsInf(hi, 1)
	switch {
	case lo <= 0 && open:
		return "unbounded"
	case open:
		return "≥ " + Quantity(lo, unit)
	case lo <= 0:
		return "≤ " + Quantity(hi, unit)
	}
	return Range(lo, hi, unit)
}
