package report

import "github.com/vlaunch/vlaunch/estimate/slo"

// Band is a prediction interval around an SLO figure, in the figure's unit.
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
