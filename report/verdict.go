package report

import (
	"math"

	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// Band is a prediction interval around an SLO figure, in the figure's unit
// (Low 0 when open below, High +Inf when open above).
type Band struct{ Low, High float64 }

// sloBand is the one place the renderers read a verdict's prediction band
// (`slo[].band`): the text headline, the HTML verdict list and the TTFT
// chart all show it.
func sloBand(v slo.Verdict) (Band, bool) {
	if v.Band == nil {
		return Band{}, false
	}
	return Band{Low: v.Band.Low, High: v.Band.High}, true
}

// verdictClass maps a verdict onto the three the reports distinguish:
// pass, fail, and anything else (the estimator's "uncertain") in between.
func verdictClass(v string) string {
	switch v {
	case slo.VerdictPass, slo.VerdictFail:
		return v
	}
	return "uncertain"
}

// bandText words a band in the figure's unit: an open side (Low 0 below,
// High +Inf above; package band) is left out — "≥ 305 tokens/s" is a band
// with no upper bound, "unbounded" one with neither.
func bandText(b Band, unit string) string { return textfmt.Band(b.Low, b.High, unit) }

// bounded reports whether the band has both sides.
func (b Band) bounded() bool { return b.Low > 0 && !math.IsInf(b.High, 1) }
