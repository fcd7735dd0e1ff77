package calibrate

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/fitter"
)

// TestWorsenedFigures: the report names every figure whose error the fit
// made worse, fitted or only shown, over or under the measurement, and
// says when the worst error over the fitted values grew (#27: a fit exited
// 0 with the worst error worse); a figure predicted as well as before, or
// better on the other side of the measurement, is not named.
func TestWorsenedFigures(t *testing.T) {
	targets := []target{
		{result: 0, metric: Throughput, measured: 200},
		{result: 0, metric: TPOT, stat: "median", measured: 20},
		{result: 0, metric: TTFT, stat: "median", measured: 100},
		{result: 0, metric: TTFT, stat: "mean", measured: 100},
	}
	tests := []struct {
		name          string
		before, after []float64
		excluded      []fitter.Exclusion
		worse         []string
		worstWorse    bool
	}{
		{"every figure better", []float64{280, 12, 300, 300}, []float64{210, 19, 110, 110}, nil, nil, false},
		{"one traded for the worst", []float64{280, 12, 300, 300}, []float64{390, 19, 110, 110}, nil,
			[]string{"r0 output tok/s"}, false},
		{"crossing the measurement, further off", []float64{190, 21, 100, 100}, []float64{200, 17, 100, 100}, nil,
			[]string{"r0 TPOT median (ms)"}, true},
		{"crossing the measurement, closer", []float64{150, 20, 100, 100}, []float64{220, 20, 100, 100}, nil, nil, false},
		{"a growth the report cannot print is no trade", []float64{200, 20, 100, 100}, []float64{200, 20.005, 100, 100}, nil, nil, false},
		{"a shown figure counts too", []float64{200, 20, 100, 100}, []float64{200, 20, 100, 150},
			[]fitter.Exclusion{{Index: 3, Reason: "out of reach"}}, []string{"r0 TTFT mean (ms)"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Report{Results: []ResultReport{{Name: "r0"}}, used: []int{0}}
			params := []fitter.Param{{Name: "step_overhead_s", Start: 1e-3, Lower: 1e-4, Upper: 1e-2}}
			out := fitter.Outcome{X: []float64{2e-3}, Fitted: []bool{true}, Before: tt.before, After: tt.after, Excluded: tt.excluded}
			out.WorstBefore, out.WorstAfter = worstOver(targets, tt.before, tt.excluded), worstOver(targets, tt.after, tt.excluded)
			r.fill(params, targets, out)
			var got []string
			for _, x := range r.Worsened {
				got = append(got, x.Figure)
			}
			if strings.Join(got, "|") != strings.Join(tt.worse, "|") || r.WorstWorsened != tt.worstWorse {
				t.Errorf("worsened %q (worst %v), want %q (worst %v)", got, r.WorstWorsened, tt.worse, tt.worstWorse)
			}
			if r.Worse() != (len(tt.worse) > 0 || tt.worstWorse) {
				t.Errorf("Worse() = %v", r.Worse())
			}
			var text bytes.Buffer
			r.WriteText(&text)
			for _, f := range tt.worse {
				if !strings.Contains(text.String(), "  "+f+": ") {
					t.Errorf("the text report does not name %s:\n%s", f, text.String())
				}
			}
			if len(tt.worse) == 0 && strings.Contains(text.String(), "worse than before") {
				t.Errorf("a warning with nothing worse:\n%s", text.String())
			}
		})
	}
}

// worstOver is the fit's worst |log error| over the targets it fits.
func worstOver(ts []target, pred []float64, excluded []fitter.Exclusion) float64 {
	skip := map[int]bool{}
	for _, e := range excluded {
		skip[e.Index] = true
	}
	w := 0.0
	for j, tg := range ts {
		if !skip[j] {
			w = math.Max(w, math.Abs(math.Log(pred[j]/tg.measured)))
		}
	}
	return w
}
