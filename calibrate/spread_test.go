package calibrate

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/estimate/sim"
)

// A replay spreads lengths as measured where the client saved them, as the
// calibration replays ShareGPT rows where it did not, else not at all.
func TestLengthSpread(t *testing.T) {
	measured := lengthSpread(bench.Shape{Dataset: "sharegpt", InputCV: 0.2, OutputCV: 0.4, InputCVKnown: true, OutputCVKnown: true})
	if h := math.Sqrt(3) * 0.4; math.Abs(measured.Lo-(1-h)) > 1e-9 || math.Abs(measured.Hi-(1+h)) > 1e-9 {
		t.Errorf("measured spread %+v, want the output's (CV 0.4)", measured)
	}
	if got := lengthSpread(bench.Shape{Dataset: "ShareGPT"}); got != sim.ConversationSpread {
		t.Errorf("sharegpt without lengths: %+v", got)
	}
	if got := lengthSpread(bench.Shape{Dataset: "random"}); got != (sim.Spread{}) {
		t.Errorf("random: %+v, want none", got)
	}
	if got := sim.UniformSpread(1); got.Lo != 0 || math.Abs(got.Hi-(1+math.Sqrt(3))) > 1e-9 {
		t.Errorf("UniformSpread(1) = %+v: cut at zero", got)
	}
}
