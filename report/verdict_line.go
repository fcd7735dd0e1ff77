package report

import (
	"strings"

	"github.com/vlaunch/vlaunch/estimate/slo"
)

// VerdictLine is one SLO verdict as check's text report heads it: the
// verdict, the SLO's name, target, prediction with its accuracy band (when
// the estimator gives one) and binding resource. check's SLO section and
// generate's printed verdicts both print it, so the two never differ (qa39:
// generate left the band out).
func VerdictLine(v slo.Verdict) string {
	return strings.ToUpper(v.Verdict) + " " + sloHeadline(v)
}
