package report

import (
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// unboundedText stands for the prediction of a latency that grows without
// bound: the estimator leaves Predicted at 0 then, which printed as a
// figure would read as a pass.
const unboundedText = "unbounded (the queue grows)"

// SLOFigures is a verdict's target and prediction as every renderer
// prints them (text, Markdown, HTML, the bundle README, generate's
// summary): in the verdict's unit, never two different values alike
// (textfmt.Versus), an unbounded prediction said in words.
func SLOFigures(v slo.Verdict) (target, predicted string) {
	target, predicted = textfmt.Versus(v.Target, v.Predicted, v.Unit)
	if v.Unbounded {
		predicted = unboundedText
	}
	return target, predicted
}
