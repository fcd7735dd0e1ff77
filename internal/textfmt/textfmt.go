// Package textfmt formats numbers and switches the same way in every
// vlaunch report: the estimator's derivations (notes, verdict
// explanations) and the renderers print the same figures, so they share
// one spelling of each.
package textfmt

import (
	"fmt"
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

// Quantity formats an SLO figure in its unit: seconds with two decimals,
// anything else (tokens/s) as a whole number followed by the unit.
func Quantity(x float64, unit string) string {
	if unit == "s" {
		return fmt.Sprintf("%.2f s", x)
	}
	return fmt.Sprintf("%.0f %s", x, unit)
}
