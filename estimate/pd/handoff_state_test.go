package pd

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// QA finding (session 39): Qwen3.5-397B-A17B P/D over NIXL, both pools TP 8
// on B200 (testdata/qa39-qwen35-pd-nixl-2x8b200.yaml, its config.json
// beside it). The hand-off moved 8,000 × 30,720 B = 245.76 MB and left out
// the 45 Gated DeltaNet layers' state the connector also moves (vllm
// facts_pd_state.go). By hand, from the config (60 layers, every 4th full
// attention: 15 attention and 45 GDN layers; 2 KV heads × head_dim 256;
// GDN: 16 key and 64 value heads of 128, conv kernel 4, mamba_ssm_dtype
// float32):
//
//	attention, whole model: 2 (K,V) × 2 heads × 256 × 2 B × 15 = 30,720 B/token
//	GDN layer at TP 1: conv (16·128·2 + 64·128) × (4 − 1) = 36,864 × 2 B
//	                   + recurrent 64 × 128 × 128 = 1,048,576 × 4 B = 4,268,032 B
//	state per request, whole model: 45 × 4,268,032 = 192,061,440 B
//	request: 8,000 × 30,720 + 192,061,440 = 437,821,440 B
//	a TP 8 rank: attention 1 head (2 replicated on 4 GPUs each):
//	             8,000 × 15,360 = 122,880,000 B; state 45 × 4,268,032 ÷ 8
//	             = 24,007,680 B; 146,887,680 B per rank, × 8 = 1,175,101,440 B pulled
//	attention block (memory's per-GPU rule, Blackwell head 256: multiples
//	of 32): a TP 8 page of one layer holds 1,024 B/token, a GDN layer's
//	state on the GPU 533,504 B → 32 × ⌈533,504 ÷ 32,768⌉ = 544 tokens (at
//	TP 1 it would be 2,112: no pool runs that).
func TestHandoffStateQA39(t *testing.T) {
	const file = "testdata/qa39-qwen35-pd-nixl-2x8b200.yaml"
	y, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.FromYAML(t, file, string(y))
	pre, dec := testinput.Pools(t, in.Resolved())
	tr := newTransfer(&pre, &dec, 8000, false, 1, 1)
	if tr.Tokens != 8000 || tr.BytesPerToken != 30720 {
		t.Fatalf("%d tokens × %d B, want 8,000 × 30,720", tr.Tokens, tr.BytesPerToken)
	}
	for name, c := range map[string][2]float64{
		"state":        {tr.StateBytesPerRequest, 192061440},
		"request":      {tr.BytesPerRequest, 437821440},
		"prefill rank": {tr.PerPrefillRankBytes, 146887680},
		"decode rank":  {tr.PerDecodeRankBytes, 146887680},
		"wire":         {tr.WireBytes, 1175101440},
	} {
		if c[0] != c[1] {
			t.Errorf("%s bytes %.0f, want %.0f", name, c[0], c[1])
		}
	}
	// One block, the one memory's notes state (544), not TP 1's 2,112.
	if !strings.Contains(tr.Formula, "attention block raised to 544 tokens on every GPU of both pools (TP 8)") || strings.Contains(tr.Formula, "2112") {
		t.Errorf("formula: %s", tr.Formula)
	}
	if kv := poolKV(&dec, dec.KVCacheDType); kv.HybridBlock != 544 || kv.StateBytesPerSeq != 24007680 {
		t.Errorf("memory's decode GPU: block %d, state %d B; want 544, 24,007,680", kv.HybridBlock, kv.StateBytesPerSeq)
	}
	if d := tr.describe(); !strings.Contains(d, "+ 192.1 MB of state per request = 437.8 MB per request") {
		t.Errorf("describe: %s", d)
	}
	// Off, the hand-off is the attention KV alone (the QA's 245.76 MB).
	UseHandoffState = false
	defer func() { UseHandoffState = true }()
	off := newTransfer(&pre, &dec, 8000, false, 1, 1)
	if off.BytesPerRequest != 245760000 || off.WireBytes != 983040000 || off.StateBytesPerRequest != 0 {
		t.Errorf("UseHandoffState off: request %.0f, wire %.0f, state %.0f; want 245,760,000, 983,040,000, 0",
			off.BytesPerRequest, off.WireBytes, off.StateBytesPerRequest)
	}
}

// Pools of different TP split the state by their own TP, and each names
// its own attention block. Qwen3-Next-80B (catalog): 48 layers, every 4th
// full attention (12), 36 GDN layers of 16 key and 32 value heads of 128,
// conv kernel 4, no mamba_ssm_dtype (the bf16 activation dtype):
//
//	GDN layer at TP 1: conv (16·128·2 + 32·128) × 3 = 24,576 × 2 B
//	                   + recurrent 32 × 128 × 128 = 524,288 × 2 B = 1,097,728 B
//	whole request's state: 36 × 1,097,728 = 39,518,208 B
//	prefill TP 2: 36 × 1,097,728 ÷ 2 = 19,759,104 B; decode TP 4: 9,879,552 B
//	attention: 12 × 2 × 2 heads × 256 × 2 B = 24,576 B/token whole; TP 2
//	holds 1 head (12,288 B/token), TP 4 one replicated head (12,288 B/token)
//	blocks (H100, head 256: multiples of 16; a page of one layer 1,024 B
//	per token at TP 2 and 4): TP 2 state 548,864 B → 16 × ⌈33.5⌉ = 544;
//	TP 4 state 274,432 B → 16 × ⌈16.75⌉ = 272.
func TestHandoffStateHeteroTP(t *testing.T) {
	quick := func(tp int) resolve.QuickOptions {
		return resolve.QuickOptions{Model: "qwen3-next-80b-a3b", GPU: "h100-sxm", TP: tp, PP: 1, DP: 1, KVCacheDType: "auto", Weights: "auto", Concurrency: 1}
	}
	pre, dec := testinput.Quick(t, quick(2)), testinput.Quick(t, quick(4))
	tr := newTransfer(pre, dec, 4096, false, 1, 1)
	n := float64(tr.Tokens)
	for name, c := range map[string][2]float64{
		"state":        {tr.StateBytesPerRequest, 39518208},
		"request":      {tr.BytesPerRequest, 24576*n + 39518208},
		"prefill rank": {tr.PerPrefillRankBytes, 12288*n + 19759104},
		"decode rank":  {tr.PerDecodeRankBytes, 12288*n + 9879552},
		"wire":         {tr.WireBytes, 4 * (12288*n + 9879552)},
	} {
		if c[0] != c[1] {
			t.Errorf("%s bytes %.0f, want %.0f", name, c[0], c[1])
		}
	}
	if !strings.Contains(tr.Formula, "attention block raised to 272 tokens on a decode GPU (TP 4), 544 on a prefill GPU (TP 2)") {
		t.Errorf("formula: %s", tr.Formula)
	}
	// A model without state layers moves no state.
	l := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100-sxm", TP: 8, PP: 1, DP: 1, KVCacheDType: "auto", Weights: "auto", Concurrency: 1})
	if x := newTransfer(l, l, 4096, false, 1, 1); x.StateBytesPerRequest != 0 || x.BytesPerRequest != float64(x.BytesPerToken)*float64(x.Tokens) {
		t.Errorf("llama: state %.0f, request %.0f", x.StateBytesPerRequest, x.BytesPerRequest)
	}
}
