package memory

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestPPKVCheckHandNumbers: Llama-3.1-70B (80 layers, 8 KV heads of 128,
// bf16 KV) at PP 4 on H100s, max_model_len 131072. By hand: one token of
// one layer is 2 (K,V) × 8 × 128 × 2 B = 4096 B; a stage holds 20 layers,
// 81920 B/token, so one sequence is 81920 × 131072 = 10 GiB per stage and
// 4 × 10 = 40 GiB with all 80 layers — what the whole-model check of
// 0.14.0–0.16.0 demands against the smallest stage's KV memory (≈35 GiB here, so
// it refuses while every stage holds its 10 GiB). The longest
// max_model_len it passes is the largest multiple of the 16-token block
// with 327680 B/token ≤ that memory.
func TestPPKVCheckHandNumbers(t *testing.T) {
	const gib = int64(1) << 30
	for _, c := range []struct {
		version string
		want    diag.Severity
		none    bool // no EST109
	}{
		{"0.13.0", diag.Error, true},  // before PR #29431
		{"0.14.0", diag.Error, false}, // confirmed by vllm#32105 (0.14.0rc2)
		{"0.15.0", diag.Error, false}, // confirmed by vllm#32105 (0.15.0rc1)
		{"0.16.0", diag.Error, false}, // the v0.16.0 tag's code (89a77b10)
		{"0.17.0", diag.Error, true},  // first release with PR #33698
	} {
		in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100", PP: 4, MaxModelLen: 131072, VLLMVersion: c.version})
		r := Estimate(in)
		if !r.Capacity.OneSequenceFits {
			t.Fatalf("%s: the per-stage model must fit one sequence (stage KV %.2f GiB)", c.version, r.PerGPU.KVCacheGiB)
		}
		var got *diag.Diagnostic
		for _, d := range Findings(in, &r) {
			if d.Code == CodePPKVCheck {
				got = &d
			}
		}
		if c.none {
			if got != nil || r.PPKVCheck != nil {
				t.Errorf("%s: unexpected %+v", c.version, got)
			}
			continue
		}
		p := r.PPKVCheck
		if p == nil || got == nil || got.Severity != c.want {
			t.Fatalf("%s: got %+v / %+v, want %s", c.version, p, got, c.want)
		}
		if p.WholeSeqBytes != 40*gib || p.StageSeqBytes != 10*gib {
			t.Errorf("%s: whole %d stage %d, want 40 GiB and 10 GiB", c.version, p.WholeSeqBytes, p.StageSeqBytes)
		}
		if p.MinAvailableGiB >= 40 || p.MinAvailableGiB <= 10 {
			t.Errorf("%s: smallest stage KV %.2f GiB, the case needs 10 < it < 40", c.version, p.MinAvailableGiB)
		}
		want := int(int64(p.MinAvailableGiB*float64(gib))/327680) / 16 * 16
		if p.LargestMaxModelLen != want {
			t.Errorf("%s: largest max_model_len %d, want %d", c.version, p.LargestMaxModelLen, want)
		}
		for _, s := range []string{"PR #29431", "PR #33698", "first release with the fix: 0.17.0", "40.00 GiB", "10.00 GiB", "all 80 layers"} {
			if !strings.Contains(got.Message, s) {
				t.Errorf("%s: message lacks %q: %s", c.version, s, got.Message)
			}
		}
		if !strings.Contains(got.Hint, "max_model_len ≤ ") || !strings.Contains(got.Hint, "#33698") {
			t.Errorf("%s: hint %q", c.version, got.Hint)
		}
	}
}

// TestPPKVCheckStages: hand-built stages — 3 stages of 10, 10, 12 layers at
// 1000 B per layer and token, block 16. One 1600-token sequence is
// 32000 × 1600 = 51,200,000 B with every layer; the smallest stage has
// 0.04 GiB = 42,949,672 B, so the check refuses, and the longest length
// it passes is 42,949,672 / 32000 = 1342 tokens → 1328, the last whole
// block (cdiv rounds 1329..1342 up to 1344 tokens, 43,008,000 B > avail).
func TestPPKVCheckStages(t *testing.T) {
	st := func(layers int, avail float64) StageMemory {
		return StageMemory{KV: KVLayout{BytesPerToken: int64(1000 * layers), BytesPerTokenPerLayer: 1000, Layers: layers}, AvailableKVGiB: avail}
	}
	stages := []StageMemory{st(10, 0.05), st(10, 0.04), st(12, 0.06)}
	p := ppKVCheck(vllm.Release{Version: mustV(t, "0.15.0")}, stages, 1600, 16)
	if p == nil || !p.Refuses || p.WholeSeqBytes != 51_200_000 || p.StageSeqBytes != 12000*1600 || p.LargestMaxModelLen != 1328 {
		t.Fatalf("got %+v", p)
	}
	if ppKVCheck(vllm.Release{Version: mustV(t, "0.15.0")}, stages[:1], 1600, 16) != nil {
		t.Error("one stage: no PP, no check")
	}
}

func mustV(t *testing.T, s string) vllm.Version {
	v, err := vllm.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
