package pd

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/slo"
)

// A decode pool without a KV connector computes each prompt itself
// (EvaluateDecodeRecomputes): no KV moves, its first token waits for at
// least the prompt's idle compute on the decode engine, its decodes share
// steps with other prompts (TPOT no lower than pure decoding's), its
// capacity is below the pure decode pool's, and the report says so.
func TestDecodeRecomputes(t *testing.T) {
	c := propertyBases[0] // Llama-3.1-70B, 2 × TP4 prefill : 1 × TP8 decode on H100
	c.in, c.out, c.conc, c.gbit, c.nics, c.latUs, c.version, c.maxLen = 3000, 150, 16, 400, 8, 2, "0.11.0", 16384
	pre, dec := c.inputs(t)
	plain, _ := Evaluate(&pre, &dec, false, "", slo.Options{Seed: 1})
	re, _ := EvaluateDecodeRecomputes(&pre, &dec, false, "", slo.Options{Seed: 1})
	if plain.DecodeRecomputes || !re.DecodeRecomputes {
		t.Fatalf("DecodeRecomputes: %v plain, %v recomputing", plain.DecodeRecomputes, re.DecodeRecomputes)
	}
	p, r := plain.Scenario(c.in), re.Scenario(c.in)
	if p == nil || r == nil {
		t.Fatal("no scenario")
	}
	if r.Transfer.TimeS != 0 || r.TTFTParts.TransferS != 0 || r.TTFTParts.DecodeAdmit.ReadNoticeS != 0 {
		t.Errorf("recomputing: a KV transfer of %v s (notice %v s), want none", r.TTFTParts.TransferS, r.TTFTParts.DecodeAdmit.ReadNoticeS)
	}
	if p.TTFTParts.TransferS <= 0 {
		t.Errorf("plain: no transfer (%v s)", p.TTFTParts.TransferS)
	}
	idle := re.Decode.sm.PrefillIdle(c.in, max(1, re.Decode.in.MaxNumBatchedTokens)).TTFTS
	// The idle figure includes the API server's share, the part only the
	// prompt's steps: at least half of it.
	if r.TTFTParts.FirstDecodeS < idle/2 || r.TTFTParts.FirstDecodeS <= 5*p.TTFTParts.FirstDecodeS {
		t.Errorf("recomputing: first decode step %.1f ms, want the prompt's compute (idle TTFT %.1f ms; plain first step %.1f ms)",
			r.TTFTParts.FirstDecodeS*1e3, idle*1e3, p.TTFTParts.FirstDecodeS*1e3)
	}
	if r.TPOT.Mean < p.TPOT.Mean {
		t.Errorf("recomputing: TPOT %.2f ms below pure decoding's %.2f ms", r.TPOT.Mean*1e3, p.TPOT.Mean*1e3)
	}
	if !(re.Decode.CapacityPerS < plain.Decode.CapacityPerS) || re.Decode.CapacityPerS <= 0 {
		t.Errorf("decode capacity %.2f/s recomputing, %.2f/s plain: want lower and positive", re.Decode.CapacityPerS, plain.Decode.CapacityPerS)
	}
	// 1 / (1/prefill + 1/decode): below both.
	if pc := re.Decode.prefillCapacity(c.in); re.Decode.CapacityPerS >= pc {
		t.Errorf("decode capacity %.2f/s not below its prompt capacity %.2f/s", re.Decode.CapacityPerS, pc)
	}
	if d := r.TTFTParts.Sum() - r.TTFT.Mean; d > 1e-9 || d < -1e-9 {
		t.Errorf("recomputing: parts add up to %v s, TTFT %v s", r.TTFTParts.Sum(), r.TTFT.Mean)
	}
	t.Logf("plain: %.2f req/s, TPOT %.2f ms, first step %.1f ms; recomputing: %.2f req/s, TPOT %.2f ms, first step %.1f ms (idle prompt %.1f ms), capacity %.2f vs %.2f /s",
		p.RequestsPerS, p.TPOT.Mean*1e3, p.TTFTParts.FirstDecodeS*1e3, r.RequestsPerS, r.TPOT.Mean*1e3, r.TTFTParts.FirstDecodeS*1e3, idle*1e3, re.Decode.CapacityPerS, plain.Decode.CapacityPerS)
	said := strings.Join(re.Notes, "\n")
	if !strings.Contains(said, "no KV connector") || strings.Contains(said, "KV hand-off:") {
		t.Errorf("notes do not say the decode engines recompute:\n%s", said)
	}
}
