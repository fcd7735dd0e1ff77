package pd

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// dsv4Pool is DeepSeek-V4-Pro on one B200 rank with the given
// max_num_batched_tokens.
func dsv4Pool(t *testing.T, mbt int) *input.Input {
	t.Helper()
	in := testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v4-pro", GPU: "b200", TP: 8, VLLMVersion: "0.22.1", MaxModelLen: 32768, Concurrency: 1})
	in.MaxNumBatchedTokens = mbt
	return in
}

// TestHandoffDSV4IgnoresBatchedTokens (qa41 D4): DeepSeek-V4's hand-off is
// the finished prompt's KV — its whole-sequence caches per token and its
// windowed caches' last pages once — so it does not move with either
// pool's max_num_batched_tokens (the prefill chunk a running sequence
// reserves beside its window), and it grows by the per-token figure per
// token. Before, it was the amortised max_model_len figure (which holds one
// chunk in flight per sequence) × the prompt: 157,486 B/token at 8192
// batched tokens, 11,669 at 256.
func TestHandoffDSV4IgnoresBatchedTokens(t *testing.T) {
	small, big := dsv4Pool(t, 256), dsv4Pool(t, 8192)
	a := newTransfer(big, small, 8000, false, 2, 2)
	b := newTransfer(small, big, 8000, false, 2, 2)
	c := newTransfer(big, big, 8000, false, 2, 2)
	for _, x := range []Transfer{b, c} {
		if x.BytesPerToken != a.BytesPerToken || x.BytesPerRequest != a.BytesPerRequest || x.PerPrefillRankBytes != a.PerPrefillRankBytes || x.PerDecodeRankBytes != a.PerDecodeRankBytes {
			t.Errorf("hand-off moves with max_num_batched_tokens: %d B/token, %.0f B (prefill rank %.0f, decode rank %.0f); with other settings %d, %.0f (%.0f, %.0f)",
				x.BytesPerToken, x.BytesPerRequest, x.PerPrefillRankBytes, x.PerDecodeRankBytes, a.BytesPerToken, a.BytesPerRequest, a.PerPrefillRankBytes, a.PerDecodeRankBytes)
		}
	}
	// Replicated on every TP rank: a rank holds the whole copy.
	if a.PerPrefillRankBytes != a.BytesPerRequest || a.PerDecodeRankBytes != a.BytesPerRequest {
		t.Errorf("per rank %.0f / %.0f, want the whole copy %.0f (DeepSeek-V4 replicates its cache)", a.PerPrefillRankBytes, a.PerDecodeRankBytes, a.BytesPerRequest)
	}
	if a.WindowBytesPerRequest <= 0 || a.BytesPerToken <= 0 || a.BytesPerToken > 11669 {
		t.Fatalf("%d B/token + %.0f B of windows: want a positive per-token figure below the smallest amortised one (11,669) and windows once", a.BytesPerToken, a.WindowBytesPerRequest)
	}
	// Twice the prompt: the windows stay, the per-token part doubles.
	d := newTransfer(big, big, 16000, false, 2, 2)
	grow := (d.BytesPerRequest - a.BytesPerRequest) / float64(d.Tokens-a.Tokens)
	if d.WindowBytesPerRequest != a.WindowBytesPerRequest || math.Abs(grow-float64(a.BytesPerToken)) > 1 {
		t.Errorf("8,000 → 16,000 tokens: windows %.0f → %.0f B, growth %.1f B/token; want the windows fixed and growth %d B/token",
			a.WindowBytesPerRequest, d.WindowBytesPerRequest, grow, a.BytesPerToken)
	}
}

// TestSameNodeLinkQA41 (qa41 D8): inside a node a hand-off moves at the
// spec's per-GPU, one-direction NVLink bandwidth times the ranks of the
// narrower side: TP 2 prefill to TP 4 decode at 450 GB/s is 900 GB/s (two
// GPUs send every byte), not four links' 1800.
func TestSameNodeLinkQA41(t *testing.T) {
	q := func(tp int) *input.Input {
		return testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100-sxm", TP: tp, KVCacheDType: "auto", Weights: "auto", Concurrency: 1})
	}
	pre, dec := q(2), q(4)
	pre.Network.IntraGBytesPerS, dec.Network.IntraGBytesPerS = 450, 450
	tr := newTransfer(pre, dec, 4000, true, 1, 1)
	if tr.LinkGBytesPerS != 900 {
		t.Fatalf("same-node link %.0f GB/s, want 900 (2 prefill ranks × 450)", tr.LinkGBytesPerS)
	}
	want := tr.LatencyS + tr.PostS + tr.PerPrefillRankBytes/450e9
	if math.Abs(tr.AloneS-want) > 1e-12 {
		t.Errorf("alone %.6f s, want %.6f (a prefill rank's %.1f MB through its own 450 GB/s link)", tr.AloneS, want, tr.PerPrefillRankBytes/1e6)
	}
	if r := newTransfer(dec, pre, 4000, true, 1, 1); r.LinkGBytesPerS != 900 {
		t.Errorf("TP 4 → TP 2: %.0f GB/s, want 900 (2 decode ranks receive)", r.LinkGBytesPerS)
	}
}

// TestTTFTPartsJSONSum (qa41 D10): the JSON's ttft_parts numbers at the top
// level are exactly Sum's terms (the read notice nested inside decode
// admission), so they add up to the mean as the text's parts do.
func TestTTFTPartsJSONSum(t *testing.T) {
	p := TTFTParts{FrontendS: 0.0227, PrefillQueueS: 0.414, PrefillS: 0.594, RouterS: 6e-6, TransferS: 0.00073,
		DecodeAdmitS: 0.0478, FirstDecodeS: 0.0194, DecodeAdmit: AdmitParts{ReadNoticeS: 0.0187}}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range m {
		if f, ok := v.(float64); ok {
			sum += f
		}
	}
	if math.Abs(sum-p.Sum()) > 1e-12 {
		t.Errorf("JSON parts %s sum to %.6f, mean %.6f", b, sum, p.Sum())
	}
	if _, ok := m["read_notice_s"]; ok {
		t.Errorf("read_notice_s beside the parts: %s", b)
	}
	if w, ok := m["decode_admit_of_which"].(map[string]any); !ok || w["read_notice_s"] != 0.0187 {
		t.Errorf("the read notice is not nested in decode admission: %s", b)
	}
}
