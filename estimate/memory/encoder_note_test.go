package memory

import (
	"math"
	"strings"
	"testing"
)

// TestWeightsNoteCountsEncoder (user QA 39, finding 1): the weights note of
// Gemma-4-31B said "31.4B of the model's 30.8B parameters sit on each
// GPU". Nothing is counted twice: the 31.38B per GPU are the language
// model's 30.81B (its tied embedding 262,144 × 5,376 = 1.409B once) plus
// the vision tower, whole on every GPU, that the model's count
// (catalog.Model.ParamCounts) leaves out: input_proj 884,736 + position
// table 2 × 10,240 × 1,152 + 27 layers × 20,187,792 + standardize 2,304 +
// embed_vision 1,152 × 5,376 = 575,743,536. The published sizes agree:
// "30.7B dense + ~550M vision encoder" (Gemma 4 31B, llmradar.eu's licence
// page, reviewed 2026-04-17; NVIDIA's NIM card for google/gemma-4-31b-it:
// "Total Parameters: 30.7B" for the language model). The note must say so.
func TestWeightsNoteCountsEncoder(t *testing.T) {
	in := qa39Gemma(t)
	r := Estimate(in)
	const encoder = 884736 + 2*10240*1152 + 27*20187792 + 2304 + 1152*5376
	enc := 0.0
	for _, w := range r.Weights {
		if w.Component == CompEncoder {
			enc += w.ParamsPerGPU
		}
	}
	if math.Abs(enc-encoder) > 1 {
		t.Fatalf("encoder %.0f parameters, want %d", enc, encoder)
	}
	if d := r.ParamsPerGPU - enc - r.Params.Total; math.Abs(d) > 1e6 {
		t.Errorf("per GPU %.4gB − encoder %.4gB = %.4gB, not the language model's %.4gB", r.ParamsPerGPU/1e9, enc/1e9, (r.ParamsPerGPU-enc)/1e9, r.Params.Total/1e9)
	}
	text := weightsNote(in, &r).Text
	for _, want := range []string{"31.4B parameters sit on each GPU", "30.8B of the language model's 30.8B", "0.58B of its encoder"} {
		if !strings.Contains(text, want) {
			t.Errorf("weights note lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "of the model's 30.8B parameters sit") {
		t.Errorf("weights note still puts more parameters on a GPU than the model has:\n%s", text)
	}
}
