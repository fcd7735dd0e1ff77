package bench

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: any bytes give results or an error, never a panic, and every
// result is usable downstream (positive counts and shape, a known load).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"duration":1,"completed":1,"total_input_tokens":1,"total_output_tokens":1,"request_rate":Infinity,"total_output_tokens_retokenized":1}`))
	f.Add([]byte(`{"benchmarks":[{"type_":"generative_benchmark","args":{"strategy":{"type_":"poisson","rate":NaN}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, r := range rs {
			if r.Completed <= 0 || !(r.DurationS > 0) || !(r.Shape.OutputTokens > 0) || !(r.OutputTokPerS > 0) {
				t.Fatalf("unusable result accepted: %+v", r)
			}
			switch r.Load.Kind {
			case LoadClosedLoop, LoadBurst, LoadPoisson, LoadOther:
			default:
				t.Fatalf("unknown load kind %q", r.Load.Kind)
			}
			if r.Load.Kind == LoadOther && r.Load.Unsupported == "" {
				t.Fatalf("unsupported load without a reason: %+v", r.Load)
			}
		}
	})
}
