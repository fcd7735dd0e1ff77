package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// readyTimes sends n requests of input prompt tokens at the given arrival
// times through a front end f and returns when each reaches the engine.
func readyTimes(f Frontend, arrivals []float64, input int) []float64 {
	s := &simulator{cfg: Config{Frontend: f}}
	for _, a := range arrivals {
		s.arrive(simReq{arrival: a, input: input})
	}
	out := make([]float64, len(s.ingest))
	for i, q := range s.ingest {
		out[i] = q.ready
	}
	return out
}

func nearS(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// A burst of 64 prompts whose handlers cost nothing on the loop: the
// micro-batching tokenizer takes 32 at once (vllm.TokenizerMaxBatch, the
// batch full before its wait runs out) and encodes them in parallel, as
// long as one prompt's 5 ms; the next 32 once the thread is free: 5 and
// 10 ms. One thread encoding them one after another hands the k-th over
// at 5k ms, and the loop doing it too (the zero Tokenizer) the same.
func TestTokenizerMicrobatchBurst(t *testing.T) {
	burst := make([]float64, 64)
	f := Frontend{PromptTokenS: 1e-6, ReadyDelayS: 2e-3, Tokenizer: vllm.TokenizeMicrobatch}
	got := readyTimes(f, burst, 5000)
	for i, r := range got {
		want := 5e-3
		if i >= vllm.TokenizerMaxBatch {
			want = 10e-3
		}
		if !nearS(r, want) {
			t.Fatalf("micro-batched: request %d ready at %.4f s, want %.4f s", i, r, want)
		}
	}
	for _, tk := range []vllm.PromptTokenizer{vllm.TokenizeThread, vllm.TokenizeOnLoop} {
		f.Tokenizer, f.ReadyDelayS = tk, 0
		got = readyTimes(f, burst, 5000)
		for i, r := range got {
			if want := 5e-3 * float64(i+1); !nearS(r, want) {
				t.Fatalf("tokenizer %d: request %d ready at %.4f s, want %.4f s", tk, i, r, want)
			}
		}
	}
}

// Beside the loop: a lone request waits for its handler (4 ms), the
// batcher's wait (2 ms) and its encode (5 ms). In a burst whose handlers
// take 4 ms each, the thread encodes one prompt while the loop parses the
// next: the last of 64 is handed over about one encode after the loop's
// 256 ms, where the loop encoding too takes 64 × 9 ms. A request put
// within the wait joins the batch in progress and is handed over with it.
func TestTokenizerBesideLoop(t *testing.T) {
	f := Frontend{RequestS: 4e-3, PromptTokenS: 1e-6, ReadyDelayS: 2e-3, Tokenizer: vllm.TokenizeMicrobatch}
	if got := readyTimes(f, []float64{1}, 5000); !nearS(got[0], 1+4e-3+2e-3+5e-3) {
		t.Fatalf("a lone request ready at %.4f s, want 1.011 s", got[0])
	}
	got := readyTimes(f, make([]float64, 64), 5000)
	last := got[len(got)-1]
	if last < 64*4e-3+5e-3 || last > 64*4e-3+2*(2e-3+5e-3) {
		t.Fatalf("micro-batched: the burst's last request ready at %.4f s, want one or two batches after the loop's 0.256 s", last)
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			t.Fatalf("ready times decrease at %d: %.4f after %.4f", i, got[i], got[i-1])
		}
	}
	// requests 2 (put at 8 ms, after batch 1's dispatch at 6 ms) and 3
	// (put at 12 ms, within batch 2's wait: taken at 11, dispatched at 13)
	// share batch 2, encoded 13–18 ms
	if !nearS(got[1], 18e-3) || !nearS(got[2], 18e-3) {
		t.Fatalf("requests 2 and 3 ready at %.4f and %.4f s, want both 0.018 s (one batch)", got[1], got[2])
	}
	f.Tokenizer, f.ReadyDelayS = vllm.TokenizeOnLoop, 0
	if onLoop := readyTimes(f, make([]float64, 64), 5000); !nearS(onLoop[63], 64*9e-3) {
		t.Fatalf("on the loop: the burst's last request ready at %.4f s, want 0.576 s", onLoop[63])
	}
}

// The event loop's work, which the streamed outputs queue behind, is the
// handlers' alone where a thread encodes the prompts.
func TestTokenizerThreadLeavesLoop(t *testing.T) {
	f := Frontend{RequestS: 1e-3, PromptTokenS: 1e-6, Tokenizer: vllm.TokenizeThread}
	s := &simulator{cfg: Config{Frontend: f}}
	s.arrive(simReq{arrival: 1, input: 5000})
	if !nearS(s.feFree, 1+1e-3) {
		t.Fatalf("loop busy until %.4f s, want 1.001 s (the handler, not the encode)", s.feFree)
	}
	if r := s.ingest[0].ready; !nearS(r, 1+1e-3+5e-3) {
		t.Fatalf("ready at %.4f s, want 1.006 s", r)
	}
}
