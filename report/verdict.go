package report

import "github.com/vlaunch/vlaunch/estimate/slo"

// Band is a prediction interval around an SLO figure, in the figure's unit.
type Band struct{ Low, High float64 }

// sloBand is the one place the renderers read a verdict's prediction band.
// The estimator gives none yet; when it does (#10: `slo[].band`), this
// returns it and the text headline, the HTML verdict list and the TTFT
// chart all show it.
func sloBand(slo.Verdict) (Band, bool) { return Band{}, false }

// verdictClass maps a verdict onto the three the reports distinguish:
// pass, fail, and anything else (the estimator's "uncertain") in between.
func verdictClass(v string) string {
	switch v {
	case slo.VerdictPass, slo.VerdictFail:
		return v
	}
	return "uncertain"
}
