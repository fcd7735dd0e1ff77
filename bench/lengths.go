package bench

import (
	"encoding/json"
	"math"
)

// readLengths reads the per-request length lists a client saves with its
// detailed output (vLLM --save-detailed, SGLang --output-details):
// input_lens and output_lens, one count per request. Their spread (as a
// coefficient of variation: standard deviation over mean) is what a replay
// needs beyond the mean lengths: a conversation dataset's requests range from
// a few tokens to thousands, and that spread decides queueing and the tail
// latencies. An absent, null or malformed list leaves the spread unknown
// (the mean lengths are still the totals'); a malformed list is not an
// error, since the totals already give what the result needs.
func readLengths(o *object, s *Shape) {
	s.InputCV, s.InputCVKnown = lengthsCV(o, "input_lens")
	s.OutputCV, s.OutputCVKnown = lengthsCV(o, "output_lens")
}

// lengthsCV is the coefficient of variation of a list of non-negative
// counts, ok false unless the list holds at least two and a positive mean.
func lengthsCV(o *object, key string) (float64, bool) {
	raw, ok := o.raw(key)
	if !ok {
		return 0, false
	}
	var xs []float64
	if json.Unmarshal(raw, &xs) != nil || len(xs) < 2 {
		return 0, false
	}
	var sum, sq float64
	for _, x := range xs {
		if x < 0 || x > maxCount || math.IsNaN(x) {
			return 0, false
		}
		sum += x
	}
	mean := sum / float64(len(xs))
	if mean <= 0 {
		return 0, false
	}
	for _, x := range xs {
		sq += (x - mean) * (x - mean)
	}
	return math.Sqrt(sq/float64(len(xs))) / mean, true
}
