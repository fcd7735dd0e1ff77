package pd

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

const pdExample = "deepseek-v3-pd-32xh20"

// DeepSeek-V3's MLA latent: (kv_lora_rank 512 + qk_rope_head_dim 64) × 2 B
// × 61 layers = 70,272 B per token, one copy per decode TP rank.
func TestTransferBytesMLA(t *testing.T) {
	in := testinput.Example(t, pdExample)
	pre, dec := testinput.Pools(t, in.Resolved())
	tr := newTransfer(&pre, &dec, 1000, false, 2, 2)
	if tr.BytesPerToken != 70272 {
		t.Fatalf("bytes per token %d, want 70,272", tr.BytesPerToken)
	}
	if tr.Tokens != 1024 { // 1000 tokens in whole blocks of 64
		t.Errorf("tokens %d, want 1024 (whole blocks)", tr.Tokens)
	}
	want := 70272.0 * 1024
	for name, got := range map[string]float64{"request": tr.BytesPerRequest, "prefill rank": tr.PerPrefillRankBytes,
		"decode rank": tr.PerDecodeRankBytes, "wire": tr.WireBytes} {
		if got != want {
			t.Errorf("%s bytes %.0f, want %.0f (TP 1 on both sides)", name, got, want)
		}
	}
	// RoCE under vLLM 0.11: one descriptor per MLA layer (61 regions) and
	// block (16), posted at rc_x's measured 0.352 µs each (#55434).
	if tr.Transport != transportRoCE || tr.Descriptors != 61*16 {
		t.Fatalf("transport %q, %d descriptors; want rc_x (RoCE), 976", tr.Transport, tr.Descriptors)
	}
	post := 976 * 0.352e-6
	if math.Abs(tr.PostS-post) > 1e-15 {
		t.Errorf("posting %.9f s, want %.9f", tr.PostS, post)
	}
	// 25 Gbit/s, one NIC per node: 3.125 GB/s, 10 µs.
	alone := 10e-6 + post + want/3.125e9
	if math.Abs(tr.AloneS-alone) > 1e-12 {
		t.Errorf("alone %.6f s, want %.6f", tr.AloneS, alone)
	}
}

// GQA: the whole model's K and V heads; each decode TP rank pulls its
// heads, and heads replicate when TP exceeds the KV heads.
func TestTransferBytesGQA(t *testing.T) {
	quick := func(model string, tp int) resolve.QuickOptions {
		return resolve.QuickOptions{Model: model, GPU: "h100-sxm", TP: tp, PP: 1, DP: 1, KVCacheDType: "auto", Weights: "auto", Concurrency: 1}
	}
	pre := testinput.Quick(t, quick("llama-3.1-70b", 4))
	dec := testinput.Quick(t, quick("llama-3.1-70b", 8))
	tr := newTransfer(pre, dec, 4096, false, 1, 1)
	whole := 80.0 * 2 * 8 * 128 * 2 // layers × K,V × KV heads × head_dim × bf16
	if float64(tr.BytesPerToken) != whole {
		t.Fatalf("llama-3.1-70b bytes per token %d, want %.0f", tr.BytesPerToken, whole)
	}
	n := float64(tr.Tokens)
	if tr.PerPrefillRankBytes != whole*n/4 || tr.PerDecodeRankBytes != whole*n/8 || tr.WireBytes != whole*n {
		t.Errorf("per P rank %.0f, per D rank %.0f, wire %.0f; want %.0f, %.0f, %.0f",
			tr.PerPrefillRankBytes, tr.PerDecodeRankBytes, tr.WireBytes, whole*n/4, whole*n/8, whole*n)
	}
	// Qwen3-235B has 4 KV heads: at TP 8 each head sits on two ranks, so
	// the decode ranks pull twice the model's KV.
	q := testinput.Quick(t, quick("qwen3-235b-a22b-fp8", 8))
	tq := newTransfer(q, q, 4096, false, 1, 1)
	if tq.WireBytes != 2*tq.BytesPerRequest {
		t.Errorf("qwen3 TP 8 wire %.0f, want twice the request's %.0f", tq.WireBytes, tq.BytesPerRequest)
	}
}

// Fair sharing: the transfer slows as the NICs fill and saturates at what
// they carry.
func TestTransferSharing(t *testing.T) {
	in := testinput.Example(t, pdExample)
	pre, dec := testinput.Pools(t, in.Resolved())
	tr := newTransfer(&pre, &dec, 1024, false, 2, 2)
	prev := tr.AloneS
	for _, f := range []float64{0.1, 0.5, 0.9} {
		x := tr.at(f * tr.MaxRatePerS)
		if x.TimeS <= prev || x.Saturated {
			t.Errorf("at %.0f%% of the NICs: %.4f s (before %.4f), saturated %t", 100*f, x.TimeS, prev, x.Saturated)
		}
		prev = x.TimeS
	}
	if !tr.at(tr.MaxRatePerS).Saturated {
		t.Error("at the NICs' rate the transfer is not saturated")
	}
	same := newTransfer(&pre, &dec, 1024, true, 2, 2)
	if same.Link != "NVLink" || same.AloneS >= tr.AloneS {
		t.Errorf("pools on one node: %s %.4f s, want NVLink faster than %.4f s", same.Link, same.AloneS, tr.AloneS)
	}
}
