package calibrate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/fitter"
)

// TestUnchangedConstantSaysWhy (fix40d): a constant the fit was allowed to
// move but left where it was printed "unchanged" with no reason; the
// report now carries fitter.Outcome.Unchanged's reason into the text and
// the markdown, without the "it is moved by" note of refused constants.
func TestUnchangedConstantSaysWhy(t *testing.T) {
	why := "no value in its range [0.2, 0.9] lowers the worst error (132.0%): the value furthest off does not depend on it"
	var r Report
	r.fill([]fitter.Param{{Name: "expert_gemm", Start: 0.211, Lower: 0.2, Upper: 0.9}}, nil,
		fitter.Outcome{X: []float64{0.211}, Fitted: []bool{true}, Unchanged: []fitter.Refusal{{Name: "expert_gemm", Reason: why}}})
	var text, md strings.Builder
	r.WriteText(&text)
	r.WriteMarkdown(&md)
	flat := strings.Join(strings.Fields(text.String()), " ")
	if !strings.Contains(flat, "unchanged: "+why) || strings.Contains(flat, "it is moved by") {
		t.Errorf("text:\n%s", text.String())
	}
	if !strings.Contains(md.String(), "| unchanged: "+why) {
		t.Errorf("markdown:\n%s", md.String())
	}
}
