package sim

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestAdmitsWhatFits: the simulator admits as many sequences of n tokens
// as memory's capacity section says one rank's pool holds
// (memory.Report.SequencesFit), for a Gated DeltaNet hybrid (state pages
// per sequence), a sliding-window model (windowed groups bounded by the
// window and the tokens in flight) and a plain GQA model — not the pool's
// tokens ÷ n, which overcounts the hybrid and undercounts the windowed
// model. Every request is admitted in one step (a token budget for all of
// them), so the running count is the KV limit alone.
func TestAdmitsWhatFits(t *testing.T) {
	cases := []struct {
		name     string
		o        resolve.QuickOptions
		n        int
		tokensOK bool // pool tokens ÷ whole blocks of n give the same count
	}{
		{"hybrid qwen3-next", resolve.QuickOptions{Model: "qwen3-next-80b-a3b", GPU: "h100", TP: 4, VLLMVersion: "0.12.0", MaxModelLen: 32768}, 5120, false},
		{"sliding window gpt-oss", resolve.QuickOptions{Model: "gpt-oss-120b", GPU: "h100", TP: 2, MaxModelLen: 65536}, 60000, false},
		{"packed deepseek-v4-flash", resolve.QuickOptions{Model: "deepseek-v4-flash", GPU: "h200", TP: 8, EP: true, MaxModelLen: 65536}, 16384, false},
		{"sliding window gemma-4", resolve.QuickOptions{Model: "gemma-4-26b-a4b", GPU: "h100", TP: 1, MaxModelLen: 65536}, 60000, false},
		{"plain GQA llama", resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", TP: 1, MaxModelLen: 32768}, 5000, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, ds := input.Quick(c.o)
			if ds.HasErrors() {
				t.Fatalf("quick: %v", ds)
			}
			m := memory.Estimate(&in)
			want := m.SequencesFit(c.n)
			if want < 2 {
				t.Fatalf("SequencesFit(%d) = %d: the case tests nothing", c.n, want)
			}
			bs := max(1, in.BlockSize)
			byTokens := int(m.KVTokensPerRank) / bs / ((c.n + bs - 1) / bs)
			if (byTokens == want) != c.tokensOK {
				t.Errorf("pool tokens ÷ n give %d against SequencesFit %d: the case does not tell the cost models apart as it should", byTokens, want)
			}
			cfg := Config{Step: constStep(0.01), DP: 1, MaxNumSeqs: 4 * want,
				MaxNumBatchedTokens: math.MaxInt32, KVTokensPerRank: int(m.KVTokensPerRank), BlockSize: in.BlockSize,
				KV: KVCost(m.SeqCost()), InputTokens: c.n, OutputTokens: 2, Sessions: want + 20, Requests: 10, Seed: 1}
			if got := MaxRunning(cfg, c.n); got != want {
				t.Errorf("MaxRunning = %d, want SequencesFit %d", got, want)
			}
			t.Logf("SequencesFit(%d) = %d; pool tokens ÷ n = %d", c.n, want, byTokens)
			s := newSimulator(cfg)
			s.admitArrivals(s.now)
			s.handOver()
			s.schedule()
			if got := len(s.ranks[0].running); got != want {
				t.Errorf("admitted %d sequences of %d tokens, want SequencesFit %d (pool tokens ÷ n: %d)", got, c.n, want, byTokens)
			}
			// Each sequence costs what the capacity section counts
			// (memory's running count, KVLayout.RunCost).
			if got, want := int64(s.kv.units(c.n)), m.SeqCost().Bytes(c.n); got != want {
				t.Errorf("a sequence costs %d, the capacity's running count %d", got, want)
			}
		})
	}
}

// TestKVModelUpto: a sequence's cost changes only past upto, at every
// length, for a layout with a growing, a windowed and a fixed part.
func TestKVModelUpto(t *testing.T) {
	cfg := Config{KVTokensPerRank: 1 << 20, KV: KVCost{Fixed: 7, TokenBytes: 3, Terms: []KVTerm{
		{Bytes: 5, Block: 16}, {Bytes: 11, Block: 64, Cap: 150}, {Bytes: 2, Block: 544}}}}
	m := newKVModel(cfg)
	for n := 1; n < 3000; n++ {
		u, up := m.units(n), m.upto(n)
		if up < n {
			t.Fatalf("upto(%d) = %d", n, up)
		}
		for k := n; k <= min(up, 3000); k++ {
			if m.units(k) != u {
				t.Fatalf("units(%d) = %d differs from units(%d) = %d within upto %d", k, m.units(k), n, u, up)
			}
		}
		if up < 3000 && m.units(up+1) == u {
			t.Fatalf("units does not grow past upto(%d) = %d", n, up)
		}
		if want := memory.SeqCost(cfg.KV).Bytes(n); int64(u) != want {
			t.Fatalf("units(%d) = %d, memory.SeqCost.Bytes %d", n, u, want)
		}
	}
}
