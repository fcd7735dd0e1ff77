package bench

import (
	"strings"
	"testing"
)

// i20469Block is the shape of the result block pasted in
// https://github.com/vllm-project/vllm/issues/20469 (v0.9.1's
// benchmark_serving.py, --max-concurrency 1 --request-rate 1, 30 prompts of
// 16000/200 tokens): this test's own figures of that pattern — a block cut
// after Median TPOT, without the "Maximum request concurrency" line the
// client printed above it. conc, when set, is that line.
func i20469Block(conc string) string {
	return "============ Serving Benchmark Result ============\n" +
		"Successful requests:                     30\n" + conc +
		"Benchmark duration (s):                  224.00\n" +
		"Total input tokens:                      480000\n" +
		"Total generated tokens:                  6000\n" +
		"Request throughput (req/s):              0.13\n" +
		"Output token throughput (tok/s):         26.79\n" +
		"---------------Time to First Token----------------\n" +
		"Mean TTFT (ms):                          3350.00\n" +
		"Median TTFT (ms):                        3450.00\n" +
		"-----Time per Output Token (excl. 1st token)------\n" +
		"Mean TPOT (ms):                          20.60\n" +
		"Median TPOT (ms):                        20.90\n"
}

// TestLittlesLawUnstatedBurst (qa44c F1): a result that does not record its
// concurrency cap was replayed as a burst of every prompt, though its own
// figures keep one request in flight (30 / 224 s × (3.35 s + 199 × 20.6 ms)
// = 1.0): it is now replayed as the closed loop of 1 it was, and says so.
// A stated cap, a stated "None", and a burst its figures allow are kept.
func TestLittlesLawUnstatedBurst(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       Load
		note       string
	}{
		{"printed, no line", i20469Block(""), Load{Kind: LoadClosedLoop, Concurrency: 1, Prompts: 30}, "contradict a burst"},
		{"printed, cap 1", i20469Block("Maximum request concurrency:             1\n"), Load{Kind: LoadClosedLoop, Concurrency: 1, Prompts: 30}, ""},
		// v0.7.0–v0.10.0 printed "Maximum request concurrency: None"
		// above the block without a cap: a stated burst, kept as read.
		{"printed, stated None", "Maximum request concurrency: None\n" + i20469Block(""), Load{Kind: LoadBurst, Prompts: 30}, ""},
		{"JSON, no key", `{"duration":224,"completed":30,"total_input_tokens":480000,"total_output_tokens":6000,"request_rate":"inf",` +
			`"mean_ttft_ms":3350,"median_ttft_ms":3450,"mean_tpot_ms":20.6,"median_tpot_ms":20.9}`,
			Load{Kind: LoadClosedLoop, Concurrency: 1, Prompts: 30}, "contradict a burst"},
		{"JSON, null key", `{"duration":224,"completed":30,"total_input_tokens":480000,"total_output_tokens":6000,"request_rate":"inf","max_concurrency":null,` +
			`"mean_ttft_ms":3350,"median_ttft_ms":3450,"mean_tpot_ms":20.6,"median_tpot_ms":20.9}`,
			Load{Kind: LoadBurst, Prompts: 30}, ""},
		// 30 prompts in 10 s at a mean latency of 8 s: 24 in flight, a
		// burst's (at least 15.5): kept, and the note says it was checked.
		{"JSON, burst allowed", `{"duration":10,"completed":30,"total_input_tokens":30000,"total_output_tokens":6000,"request_rate":"inf",` +
			`"mean_e2el_ms":8000,"mean_ttft_ms":3000,"mean_tpot_ms":25}`,
			Load{Kind: LoadBurst, Prompts: 30}, "which its figures allow"},
	} {
		rs, err := Parse("x", []byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		notes := strings.Join(rs[0].Notes, "\n")
		if rs[0].Load != c.want {
			t.Errorf("%s: load %v, want %v (%s)", c.name, rs[0].Load, c.want, notes)
		}
		if (c.note == "") != !strings.Contains(notes, "concurrency cap") || !strings.Contains(notes, c.note) {
			t.Errorf("%s: notes %q, want one with %q", c.name, notes, c.note)
		}
	}
}

// TestMeanInFlight: Little's law from the recorded mean E2E, else from
// TTFT + (output − 1) × TPOT.
func TestMeanInFlight(t *testing.T) {
	r := Result{Completed: 100, DurationS: 50, Shape: Shape{OutputTokens: 101}, TTFT: Stat{"mean": 500}, TPOT: Stat{"median": 20}}
	if l, ok := meanInFlight(&r); !ok || l < 4.99 || l > 5.01 { // 2/s × 2.5 s
		t.Errorf("from TTFT+TPOT: %v %v, want 5", l, ok)
	}
	r.E2E = Stat{"mean": 4000}
	if l, _ := meanInFlight(&r); l < 7.99 || l > 8.01 {
		t.Errorf("from E2E: %v, want 8", l)
	}
	if _, ok := meanInFlight(&Result{Completed: 1, DurationS: 1}); ok {
		t.Error("no latency: want not ok")
	}
}

// TestPrintedNegative (qa44c F9): a negative figure in a printed summary is
// refused as negative, as the JSON path says, not as "not a number".
func TestPrintedNegative(t *testing.T) {
	for _, figure := range []string{"26.79", "3350.00"} {
		data := "Maximum request concurrency: 1\n" + strings.Replace(i20469Block(""), figure, "-"+figure, 1)
		_, err := Parse("x", []byte(data))
		if err == nil || !strings.Contains(err.Error(), "negative (-"+figure+")") || strings.Contains(err.Error(), "not a number") {
			t.Errorf("-%s: %v", figure, err)
		}
	}
	_, err := Parse("x", []byte(strings.Replace(i20469Block(""), "26.79", "abc", 1)))
	if err == nil || !strings.Contains(err.Error(), "is not a number") {
		t.Errorf("garbled: %v", err)
	}
}

// TestPrintedBackend (qa44c F4): SGLang's printed "Backend:" line is read.
func TestPrintedBackend(t *testing.T) {
	rs, err := Parse("x", []byte(strings.Replace(i20469Block(""), "Successful", "Backend:                                 sglang\nSuccessful", 1)))
	if err != nil || rs[0].Backend != "sglang" {
		t.Fatalf("%v %+v", err, rs)
	}
}
