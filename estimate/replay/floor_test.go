package replay

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

func TestP99Outliers(t *testing.T) {
	// numpy's percentile(x, 99) sits at sorted index 0.99 (n − 1); the
	// values past ⌊0.99 (n − 1)⌋ may exceed it.
	for _, c := range []struct{ n, k int }{
		{1, 0},   // the one value is the P99
		{10, 1},  // index 8.91: the 10th value may be above
		{80, 1},  // 78.21
		{100, 1}, // 98.01
		{320, 4}, // 315.81: indices 316..319
		{500, 5}, // 494.01: 495..499
	} {
		if got := p99Outliers(c.n); got != c.k {
			t.Errorf("p99Outliers(%d) = %d, want %d", c.n, got, c.k)
		}
	}
}

func TestFirstWaveFloor(t *testing.T) {
	for _, c := range []struct {
		name              string
		c, n, free        int
		w, l, tokS        float64
		wantMean, wantP99 float64
	}{
		// Four 1,000-token prompts at once, one cached, 100 µs a token:
		// 3,000 tokens in three full prompts finish at 0.1, 0.2, 0.3 s
		// (sum 0.6 s, mean over 4 = 0.15 s); one request may sit above a
		// P99 of 4 (index 2.97), so two prompts' 2,000 tokens are done by
		// it: 0.2 s.
		{"burst of equal prompts", 4, 4, 1, 4000, 1000, 1e-4, 0.15, 0.2},
		// The same wave in a run of 100 requests: the sum spreads over
		// 100 (6 ms); one outlier of 100 (index 98.01), so again 0.2 s.
		{"closed loop", 4, 100, 1, 4000, 1000, 1e-4, 0.006, 0.2},
		// 2,500 tokens (after the cached 1,000) of prompts ≤ 1,000: two
		// full ones and 500, shortest first: 0.05 + 0.15 + 0.25 = 0.45 s;
		// over 4: 0.1125 s; P99: 2,500 − 1 × 1,000 = 1,500 tokens: 0.15 s.
		{"partial prompt", 4, 4, 1, 3500, 1000, 1e-4, 0.1125, 0.15},
		// A wave no larger than its outlier and cached prompts has no P99
		// floor: 2 prompts, 1 cached, 1 outlier of 2.
		{"tiny wave", 2, 2, 1, 2000, 1000, 1e-4, 0.05, 0},
		// Everything cached: no floor.
		{"all cached", 1, 10, 1, 1000, 1000, 1e-4, 0, 0},
	} {
		m, p := firstWaveFloor(c.c, c.n, c.free, c.w, c.l, c.tokS)
		if math.Abs(m-c.wantMean) > 1e-9 || math.Abs(p-c.wantP99) > 1e-9 {
			t.Errorf("%s: floor mean %.6f s, P99 %.6f s; want %.6f, %.6f", c.name, m, p, c.wantMean, c.wantP99)
		}
	}
}

// TestFloorSGLangCookbook derives the floors of the SGLang cookbook's
// Llama-3.1-70B runs on 8 × A100 by hand.
//
// A prompt token: Llama-3.1-70B's layer has q and o 8192 × 8192, k and v
// 8192 × 1024 (8 KV heads of 128), gate, up and down 3 × 8192 × 28672:
// 855,638,016 parameters; 80 layers 68,451,041,280; 2 FLOPs each:
// 136.902 GFLOP. Eight A100s at 312 TFLOPS dense BF16 (NVIDIA A100
// datasheet): 2.496 PFLOPS, 54.849 µs a token.
//
// 64 sessions of ~8K prompts, 320 requests, mean 3,980.9, lengths uniform
// in [1, 8000] (σ = √((8000² − 1)/12) = 2,309.4): the first wave's 64 of
// 320 have σ × √(64 × 256/319) = 16,551 tokens of spread; 3σ below
// 64 × 3,980.9 = 254,778 is 205,125 tokens; the warm-up prompt and the
// run's first (the same) come off at 8,000 each: 189,125. Four of 320 may
// sit above the P99 (index 315.81): 189,125 − 4 × 8,000 = 157,125 tokens
// by the P99: 8.618 s, against 1,913 ms published. The mean: 23 full
// prompts and 5,125 tokens, 8,000 × 23 × 24/2 + 5,125 × 24 = 2,331,000
// token-completions, 127.85 s, over 320: 399.5 ms (published 633).
//
// 100 sessions of ~1K prompts, 500 requests, mean 499.7, [1, 1000]
// (σ 288.67): σ × √(100 × 400/499) = 2,584.5; 49,970 − 7,753.6 − 2,000 =
// 40,216.4; five outliers of 500: 35,216.4 tokens, 1.932 s against 1,252 ms.
func TestFloorSGLangCookbook(t *testing.T) {
	m, err := catalog.LookupModel("llama-3.1-70b")
	if err != nil {
		t.Fatal(err)
	}
	if got := prefillFLOPsPerToken(m); math.Abs(got-136.902082560e9) > 1e6 {
		t.Fatalf("Llama-3.1-70B prompt token = %.6g FLOP, want 136.902 GFLOP", got)
	}
	rows := map[string]bool{}
	for _, r := range targetableRows(t) {
		want, ok := map[string][2]float64{
			"sglcb-llama31-70b-a100-sglang-tp8-8k1k-c64":  {0.3995, 8.618},
			"sglcb-llama31-70b-a100-sglang-tp8-1k1k-c100": {0.0909, 1.932},
		}[r.ID]
		if !ok {
			continue
		}
		rows[r.ID] = true
		f, ok := FloorOf(r)
		if !ok {
			t.Fatalf("%s: no floor", r.ID)
		}
		if math.Abs(f.TokenS-54.849e-6) > 0.01e-6 {
			t.Errorf("%s: %.3f µs a token, want 54.849", r.ID, f.TokenS*1e6)
		}
		if math.Abs(f.MeanS/want[0]-1) > 0.002 || math.Abs(f.P99S/want[1]-1) > 0.002 {
			t.Errorf("%s: floors mean %.4f s, P99 %.3f s; want %.4f, %.3f (%s)", r.ID, f.MeanS, f.P99S, want[0], want[1], f)
		}
		if p := r.Figures.TTFTMs.P99.V / 1e3; !(p < f.P99S) {
			t.Errorf("%s: published P99 %.3f s not below its floor %.3f s", r.ID, p, f.P99S)
		}
	}
	if len(rows) != 2 {
		t.Fatalf("found %d of the 2 rows", len(rows))
	}
}

// TestTTFTFloorRows lists every row's TTFT figures below their floor (a
// table for the report; run with -v) and checks that the exclusion rule
// covers each.
func TestTTFTFloorRows(t *testing.T) {
	var lines []string
	var rows, srcs = 0, map[string]bool{}
	for _, r := range targetableRows(t) {
		f, ok := FloorOf(r)
		if !ok || !(r.Figures.TTFTMs.Mean.Positive() || r.Figures.TTFTMs.P99.Positive()) {
			continue
		}
		rows++
		srcs[r.Source] = true
		for _, fig := range []struct {
			metric string
			reg    Regime
			pub    float64
		}{{"ttft_ms.mean", RegimeTTFTMean, r.Figures.TTFTMs.Mean.V}, {"ttft_ms.p99", RegimeTTFTP99, r.Figures.TTFTMs.P99.V}} {
			fl := f.floorMs(fig.reg)
			if fig.pub <= 0 || fl <= 0 || fig.pub >= fl {
				continue
			}
			x := Target{Row: r.ID, Source: r.Source, Engine: r.Engine.Name, Regime: fig.reg, Published: fig.pub, FloorMs: fl, Floor: f.String()}
			if ex, ok := Excluded(x, x.Engine); !ok || !ex.BelowFloor {
				t.Errorf("%s %s: below its floor but not excluded by the floor rule", r.ID, fig.metric)
			}
			lines = append(lines, fmt.Sprintf("| %s | %s | %s | %.0f | %.0f | ×%.2f |", r.Source, r.ID, fig.metric, fig.pub, fl, fl/fig.pub))
		}
	}
	sort.Strings(lines)
	t.Logf("%d rows of %d sources publish a TTFT with a floor; %d figures below it", rows, len(srcs), len(lines))
	t.Logf("\n| source | row | figure | published ms | floor ms | floor / published |\n|---|---|---|---|---|---|\n%s", strings.Join(lines, "\n"))
}
