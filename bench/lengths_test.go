package bench

import (
	"math"
	"testing"
)

// The per-request length lists give the spread of the lengths; anything
// unusable leaves it unknown without failing the result.
func TestParseLengths(t *testing.T) {
	base := `{"num_prompts":4,"duration":10,"completed":4,"total_input_tokens":8,"total_output_tokens":20,"request_rate":"inf"`
	for _, c := range []struct {
		extra           string
		inCV, outCV     float64
		inKnown, outKnw bool
	}{
		{`,"input_lens":[1,3,1,3],"output_lens":[5,5,5,5]`, 0.5, 0, true, true},
		{`,"input_lens":null`, 0, 0, false, false},
		{`,"input_lens":[2]`, 0, 0, false, false},    // one request: no spread
		{`,"input_lens":[0,0]`, 0, 0, false, false},  // no mean
		{`,"input_lens":[1,-3]`, 0, 0, false, false}, // not a count
		{`,"input_lens":"x","output_lens":[1,3]`, 0, 0.5, false, true},
		{``, 0, 0, false, false},
	} {
		rs, err := Parse("x.json", []byte(base+c.extra+"}"))
		if err != nil {
			t.Errorf("%s: %v", c.extra, err)
			continue
		}
		s := rs[0].Shape
		if s.InputCVKnown != c.inKnown || s.OutputCVKnown != c.outKnw || math.Abs(s.InputCV-c.inCV) > 1e-9 || math.Abs(s.OutputCV-c.outCV) > 1e-9 {
			t.Errorf("%s: shape %+v, want CV %v/%v known %v/%v", c.extra, s, c.inCV, c.outCV, c.inKnown, c.outKnw)
		}
	}
}
