package replay

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// ttftLow runs TestTTFTLowConcurrency, an analysis (issue #28, ttftlow45)
// that prints and asserts nothing, skipped by default:
// go test ./estimate/replay -run TestTTFTLowConcurrency -ttftlow -v
var ttftLow = flag.Bool("ttftlow", false, "print the low-concurrency TTFT misses of ttftlow45 part by part, and the API-server stall per arrival that the vLLM client's ITL and TPOT imply (analysis)")

// ttftLowRows are the rows issue #28's low-concurrency TTFT misses name
// (ttftlow45), then the rows that fit beside them: same engine, release
// or client at one to eight sessions.
var ttftLowRows = []string{
	"gs-qwen3-8b-h100-vllm-tp1-sharegpt-c1", "gs-qwen3-8b-h100-vllm-tp1-sharegpt-c2",
	"gs-qwen3-8b-h100-vllm-tp1-sharegpt-c4", "gs-qwen3-8b-h100-vllm-tp1-sharegpt-c8",
	"ixpr3363-dsr1-b200-sglang-tp8-1k1k-c1", "ixpr3363-dsr1-b200-sglang-tp8-1k1k-c4",
	"ixpr3363-dsr1-b200-sglang-tp8-1k1k-c8", "ixpr3363-dsr1-b200-sglang-tp8-8k1k-c1",
	"sglcb-step35-flash-h200-sglang-tp4ep4-1k1k-c1", "sglcb-qwen3-235b-b200-sglang-tp8-1k1k-c1",
	"sglcb-qwen3-235b-b200-sglang-tp8-8k1k-c1", "sglcb-llama31-70b-a100-sglang-tp8-1k1k-c1",
	"sglcb-llama31-70b-a100-sglang-tp8-8k1k-c1", "ixpr832-minimax-m25-h100-vllm-tp4ep4-1k1k-c4",
	"jzhang-qwen25-72b-h100x2-vllm-tp16-ray-57in512out-c1",
	// beside them
	"ixpr3175-dsr1-b300-sglang-tp8-1k1k-c1", "ixpr3175-dsr1-b300-sglang-tp8-1k1k-c4",
	"ixpr3175-dsr1-b300-sglang-tp8-1k1k-c8", "ixpr3175-dsr1-b300-sglang-tp8-8k1k-c1",
	"ixpr832-minimax-m25-h100-vllm-tp8ep8-1k1k-c4", "jzhang-qwen25-72b-h100-vllm-tp8-57in512out-c1",
	"jzhang-qwen25-72b-h100x2-vllm-tp8pp2-ray-57in512out-c1", "vllmpr20759-llama31-70b-bf16-b200-tp4-sonnet-poisson1",
	"gpustack-dsr1-h200-vllm-tp8-sharegpt-c4", "gs-glm46-h200-vllm-tp8-sharegpt-c4",
	"gpustack-oss120b-h100-vllm-tp1-sharegpt-c4", "gpustack-oss120b-h100-vllm-tp2-async-sharegpt-c4",
}

// TestTTFTLowConcurrency prints, for each row of ttftLowRows, the
// published mean / median / P99 TTFT against the simulated mean and its
// parts (front end, engine queue, prefill to the first token), the
// published TPOT against the simulated one, and the published TPOT per
// simulated TPOT (a step the model prices too cheap shows there too).
// Then, for every closed loop of two or more sessions measured with vLLM's
// client, the API-server stall each arrival implies (stallPerArrival).
func TestTTFTLowConcurrency(t *testing.T) {
	if !*ttftLow {
		t.Skip("analysis: run with -ttftlow")
	}
	byID := map[string]published.Row{}
	rows := targetableRows(t)
	for _, r := range rows {
		byID[r.ID] = r
	}
	var b strings.Builder
	b.WriteString("| row | engine | pub mean / median / P99 | pred mean | pub − pred | front end | queue | prefill | TPOT pub / pred |\n|---|---|---|---|---|---|---|---|---|\n")
	ms := func(s float64) float64 { return s * 1e3 }
	for _, id := range ttftLowRows {
		r, ok := byID[id]
		if !ok {
			fmt.Fprintf(&b, "| %s | not targetable | | | | | | | |\n", id)
			continue
		}
		o, _, _, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil || o.Sim == nil {
			fmt.Fprintf(&b, "| %s | not simulated (%v) | | | | | | | |\n", id, err)
			continue
		}
		s, f := o.Sim, r.Figures
		fmt.Fprintf(&b, "| %s | %s %s | %s / %s / %s | %.1f | %+.1f | %.1f | %.1f | %.1f | %s / %.2f |\n",
			id, r.Engine.Name, r.Engine.Version, f.TTFTMs.Mean, f.TTFTMs.Median, f.TTFTMs.P99, ms(s.TTFT.Mean),
			f.TTFTMs.Mean.V-ms(s.TTFT.Mean), ms(s.TTFTParts.FrontendS), ms(s.TTFTParts.QueueS), ms(s.TTFTParts.PrefillS),
			f.TPOTMs.Mean, ms(s.TPOT.Mean))
	}
	t.Logf("low-concurrency TTFT, part by part (ms):\n%s", b.String())

	var c strings.Builder
	c.WriteString("| row | engine | sessions | TPOT mean | ITL mean / median / P99 | ITL mean / TPOT mean | merged gaps | lost per arrival and stream | stall per arrival (ms; 0: at most about a step) |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		st, ok := stallPerArrival(r)
		if !ok {
			continue
		}
		f := r.Figures
		fmt.Fprintf(&c, "| %s | %s %s %s | %d | %s | %s / %s / %s | %.3f | %.0f | %.2f | %.1f |\n", r.ID, r.Engine.Name, r.Engine.Version,
			r.Workload.API, r.Load.Concurrency.Int(), f.TPOTMs.Mean, f.ITLMs.Mean, f.ITLMs.Median, f.ITLMs.P99,
			f.ITLMs.Mean.V/f.TPOTMs.Mean.V, st.merged, st.lost, st.stallMs)
	}
	t.Logf("vLLM-client closed loops: API-server stall per arrival implied by ITL against TPOT:\n%s", c.String())
}

// arrivalStall is what a closed loop's published ITL and TPOT imply of
// the API server's stalls (stallPerArrival).
type arrivalStall struct {
	// merged is how many token gaps the client did not see as gaps of
	// their own: they came in one chunk with the token before.
	merged float64
	// lost is merged per arrival and running stream.
	lost float64
	// stallMs is the stall that loses that many gaps, (lost + 1) × TPOT,
	// when lost is at least a half; below that a stall is at most about
	// one step (0 here).
	stallMs float64
}

// stallPerArrival reads a stall of the API server's event loop from a
// vLLM-client closed loop's figures. vLLM's client times one ITL per
// streamed chunk (vllm/benchmarks/lib/endpoint_request_func.py at
// v0.11.0: `output.itl.append(timestamp - most_recent_timestamp)` per
// message) and TPOT per token ((latency − TTFT) / (output − 1)); the
// server's RequestOutputCollector merges a request's outputs while its
// stream waits on a busy event loop (vllm/v1/engine/output_processor.py,
// `put`: `self.output.add(output, aggregate=...)`). So a loop blocked for
// d ms while the engine keeps stepping delivers d / TPOT tokens of each
// running stream in one chunk, d / TPOT − 1 gaps fewer: the ITL mean
// rises above the TPOT mean while the TPOT (the engine's pace) does not.
// With G = n × (out − 1) token gaps, the chunks are G × TPOT / ITL; the
// gaps missing over n arrivals, each meeting c − 1 running streams, are
// lost per stream, and the stall is (lost + 1) × TPOT. A stall shorter
// than a step merges nothing, so a ratio near 1 bounds the stall by
// about one step and no more. The TPOT mean is per request, not per token (short
// requests weigh more), so a few percent either way is noise; SGLang's
// client spreads a multi-token chunk's gap over its tokens
// (bench_serving.py `adjust_itl`), so only vLLM's client counts.
func stallPerArrival(r published.Row) (arrivalStall, bool) {
	f, w, ld := r.Figures, r.Workload, r.Load
	c := ld.Concurrency.Int()
	n := f.CompletedRequests
	if !n.Positive() {
		n = ld.NumPrompts
	}
	if ld.Kind != published.LoadClosedLoop || w.Client != "vllm-bench-serve" || c < 2 || !n.Positive() ||
		!f.TPOTMs.Mean.Positive() || !f.ITLMs.Mean.Positive() || !w.OutputTokensMean.Positive() {
		return arrivalStall{}, false
	}
	gaps := n.V * (w.OutputTokensMean.V - 1)
	merged := gaps * (1 - f.TPOTMs.Mean.V/f.ITLMs.Mean.V)
	st := arrivalStall{merged: merged, lost: merged / (n.V * float64(c-1))}
	if st.lost >= 0.5 {
		st.stallMs = (st.lost + 1) * f.TPOTMs.Mean.V
	}
	return st, true
}

// TestStallPerArrival checks the stall arithmetic by hand: 100 requests of
// 221 output tokens (22,000 gaps) at 4 sessions, TPOT 8 ms, ITL 8.8 ms:
// chunks 22,000 × 8 / 8.8 = 20,000, so 2,000 gaps merged, 2,000 / (100 × 3)
// = 6.67 lost per arrival and running stream, a stall of 7.67 × 8 = 61.3
// ms. A run whose ITL equals its TPOT, or loses under half a gap per
// stream, reads no stall; SGLang's client and a single session read
// nothing.
func TestStallPerArrival(t *testing.T) {
	n := published.N
	row := func(client string, conc, itl float64) published.Row {
		var r published.Row
		r.Load.Kind, r.Load.Concurrency = published.LoadClosedLoop, n(conc)
		r.Workload.Client, r.Workload.OutputTokensMean = client, n(221)
		r.Figures.CompletedRequests, r.Figures.TPOTMs.Mean, r.Figures.ITLMs.Mean = n(100), n(8), n(itl)
		return r
	}
	got, ok := stallPerArrival(row("vllm-bench-serve", 4, 8.8))
	if !ok || math.Abs(got.merged-2000) > 1e-6 || math.Abs(got.lost-20.0/3) > 1e-9 || math.Abs(got.stallMs-184.0/3) > 1e-6 {
		t.Errorf("stallPerArrival = %+v, %v; want 2000 merged gaps, 6.67 lost, 61.33 ms", got, ok)
	}
	// ITL 8.04: 22,000 × (1 − 8 / 8.04) = 109.5 merged, 0.365 a stream: under a step.
	if got, ok := stallPerArrival(row("vllm-bench-serve", 4, 8.04)); !ok || got.lost >= 0.5 || got.stallMs != 0 {
		t.Errorf("ITL 0.5%% above TPOT: %+v, %v; want no stall beyond a step", got, ok)
	}
	if got, ok := stallPerArrival(row("vllm-bench-serve", 4, 8)); !ok || got.merged != 0 || got.stallMs != 0 {
		t.Errorf("ITL = TPOT: %+v, %v; want no stall", got, ok)
	}
	if _, ok := stallPerArrival(row("sglang-bench-serving", 4, 8.8)); ok {
		t.Error("SGLang's client spreads a chunk's gap over its tokens: want no reading")
	}
	if _, ok := stallPerArrival(row("vllm-bench-serve", 1, 8.8)); ok {
		t.Error("one session meets no running stream: want no reading")
	}
}
