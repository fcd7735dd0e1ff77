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
// (textfmt.Versus), an unbounded prediction said in words, and none at all
// for a deployment that does not start (slo.Verdict.NotPredicted).
func SLOFigures(v slo.Verdict) (target, predicted string) {
	target, predicted = textfmt.Versus(v.Target, v.Predicted, v.Unit)
	switch {
	case v.NotPredicted != "":
		predicted = notPredictedText(v)
	case v.Unbounded:
		predicted = unboundedText
	}
	return target, predicted
}

// notPredictedText is the place of a verdict's prediction when it has none:
// "not predicted: vLLM does not start (EST102)" (newuser40 spec 06 printed
// "predicted 0 s" there, a figure of a run with no KV cache).
func notPredictedText(v slo.Verdict) string { return "not predicted: " + v.NotPredicted }

// predictedWords is "predicted X" as headlines word a prediction, or the
// reason there is none.
func predictedWords(v slo.Verdict, pred string) string {
	if v.NotPredicted != "" {
		return pred
	}
	return "predicted " + pred
}
