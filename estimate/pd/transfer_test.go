package pd

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
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

// The hand-off's path and its posting: cuda_ipc within a node at the
// measured 4.067 µs per descriptor (regions × blocks × reads, as vLLM 0.11
// posts them), nothing priced where the release's descriptor count is not
// known, TCP when UCX_TLS leaves no RDMA transport, and the NICs on an
// NVLink domain.
func TestTransferPath(t *testing.T) {
	quick := func(tp int, version string) *input.Input {
		return testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100-sxm", TP: tp, PP: 1, DP: 1, KVCacheDType: "auto",
			Weights: "auto", Concurrency: 1, VLLMVersion: version})
	}
	pre, dec := quick(8, "0.11.0"), quick(4, "0.11.0")
	blocks := 4096 / dec.BlockSize

	// Same node: cuda_ipc; P TP 8 over D TP 4 reads two prefill ranks.
	tr := newTransfer(pre, dec, 4096, true, 1, 1)
	if want := 80 * 2 * blocks * 2; tr.Transport != transportCUDAIPC || tr.Descriptors != want {
		t.Fatalf("same node: %q, %d descriptors; want cuda_ipc, %d", tr.Transport, tr.Descriptors, want)
	}
	if want := float64(tr.Descriptors) * 4.067e-6; math.Abs(tr.PostS-want) > 1e-12 {
		t.Errorf("posting %.6f s, want %.6f", tr.PostS, want)
	}
	if base := tr.LatencyS + tr.WireBytes/(tr.LinkGBytesPerS*1e9); math.Abs(tr.AloneS-base-tr.PostS) > 1e-12 {
		t.Errorf("alone %.6f s, want line rate %.6f + posting %.6f", tr.AloneS, base, tr.PostS)
	}

	// A release not known to post per block or to merge: nothing priced.
	if tr := newTransfer(quick(8, "0.20.0"), quick(4, "0.20.0"), 4096, true, 1, 1); tr.PostS != 0 || tr.Descriptors != 0 {
		t.Errorf("vLLM 0.20: posting %g s over %d descriptors, want none priced", tr.PostS, tr.Descriptors)
	}
	// vLLM 0.28 merges a fresh prompt's contiguous blocks: one per region.
	if tr := newTransfer(quick(8, "0.28.0"), quick(4, "0.28.0"), 4096, true, 1, 1); tr.Descriptors != 80*2*2 {
		t.Errorf("vLLM 0.28: %d descriptors, want %d (regions × reads)", tr.Descriptors, 80*2*2)
	}

	// Across nodes on InfiniBand with the GB200 recipes' UCX_TLS: TCP.
	for _, in := range []*input.Input{pre, dec} {
		in.Network.InterKind, in.Network.InterGbitPerSPerNIC, in.Network.NICsPerNode = "infiniband", 400, 8
	}
	ib := newTransfer(pre, dec, 4096, false, 1, 1)
	if ib.Transport != transportIB || ib.Descriptors != 80*2*blocks*2 || ib.LinkGBytesPerS <= tcpGBytesPerS {
		t.Fatalf("InfiniBand: %q, %d descriptors, %.2f GB/s", ib.Transport, ib.Descriptors, ib.LinkGBytesPerS)
	}
	dec.Env = map[string]string{"UCX_TLS": "cuda_copy,cuda_ipc,tcp"}
	tcp := newTransfer(pre, dec, 4096, false, 1, 1)
	if tcp.Transport != transportTCP || tcp.LinkGBytesPerS != tcpGBytesPerS || tcp.PostS != 0 || tcp.AloneS <= 10*ib.AloneS {
		t.Errorf("UCX_TLS without RDMA: %q at %.2f GB/s, posting %g, %.3f s (RDMA %.3f s)", tcp.Transport, tcp.LinkGBytesPerS, tcp.PostS, tcp.AloneS, ib.AloneS)
	}
	dec.Env = nil

	// An NVLink domain spanning the nodes: still the NICs, and the notes say why.
	dec.Network.NVLinkDomainGPUs = 72
	nv := newTransfer(pre, dec, 4096, false, 1, 1)
	if nv.Link != "inter-node NICs" || nv.AloneS != ib.AloneS || !strings.Contains(strings.Join(nv.Why, " "), "fabric handle") {
		t.Errorf("MNNVL: over %s in %.4f s (NICs %.4f s), why %q", nv.Link, nv.AloneS, ib.AloneS, nv.Why)
	}
}

// TestTransferSplitByDecodeDCP: the prompt's KV is the same with a decode
// pool at DCP 8 (BytesPerRequest), but each decode rank pulls the 1/8 of
// the tokens its DCP rank holds (vllm.KVTransferDCPSource), so an MLA
// decode instance at TP8 + DCP8 pulls one copy instead of eight.
func TestTransferSplitByDecodeDCP(t *testing.T) {
	pre, dec := dcpPair(t, 1), dcpPair(t, 1)
	base := newTransfer(pre, dec, 8000, false, 1, 1)
	dec8 := dcpPair(t, 8)
	got := newTransfer(pre, dec8, 8000, false, 1, 1)
	if got.BytesPerRequest != base.BytesPerRequest {
		t.Errorf("bytes per request %v, want %v (DCP does not change the prompt's KV)", got.BytesPerRequest, base.BytesPerRequest)
	}
	if got.PerDecodeRankBytes*8 != base.PerDecodeRankBytes {
		t.Errorf("per decode rank %v, want %v / 8", got.PerDecodeRankBytes, base.PerDecodeRankBytes)
	}
	if got.WireBytes != got.BytesPerRequest || base.WireBytes != 8*base.BytesPerRequest {
		t.Errorf("wire %v / %v, want one copy with DCP8 (%v) and eight without", got.WireBytes, base.WireBytes, got.BytesPerRequest)
	}
}

// dcpPair is DeepSeek-V3 (MLA) at TP8 on H200 with decode context parallel
// size dcp, as one pool's input.
func dcpPair(t *testing.T, dcp int) *input.Input {
	t.Helper()
	y := `apiVersion: vlaunch/v1
kind: Deployment
model: {name: deepseek-v3}
hardware:
  gpu: h200
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 8}
parallelism: {tensor: 8}
workload: {concurrency: 64, max_model_len: 32768, input_tokens: 8000, output_tokens: 2000}
vllm:
  version: "0.31.0"
  decode_context_parallel_size: ` + strconv.Itoa(dcp) + "\n"
	in := testinput.FromYAML(t, "dcp.yaml", y)
	return &in
}

// QA finding (session 37): the hand-off said "8 KV heads per GPU" of
// gpt-oss-120b's decode pool at TP 4, where vLLM puts 2 on a GPU
// (ModelConfig.get_num_kv_heads: max(1, total // TP)). The formula is the
// whole model's (wholeModelKV, at TP 1), so it counts the model's heads,
// and says what a GPU of each pool holds; the bytes per rank use the same
// per-GPU counts. By hand:
//
//	Qwen3-235B: 4 KV heads, head_dim 128, 94 layers, bf16 KV:
//	  2 × 4 × 128 × 2 × 94 = 192,512 B per token; TP 2 on both pools holds
//	  2 heads a GPU: 96,256 B × 4,000 tokens = 385,024,000 B per rank; the
//	  decode instance's 2 TP ranks pull 770,048,000 B, the request's KV.
//	gpt-oss-120b: 8 KV heads, head_dim 64, 36 layers, bf16 KV:
//	  2 × 8 × 64 × 2 × 36 = 73,728 B per token; prefill TP 2 holds 4 heads
//	  (36,864 B × 8,000 = 294,912,000 B per rank), decode TP 4 holds 2
//	  (18,432 B × 8,000 = 147,456,000 B per rank, × 4 ranks = 589,824,000 B
//	  pulled); a 16-token page of one layer is 16 × 2 × heads × 64 × 2 B:
//	  32,768 B at TP 1, 16,384 B on a prefill GPU, 8,192 B on a decode GPU.
func TestHandoffHeadsPerGPUQA37(t *testing.T) {
	for _, c := range []struct {
		file                                string
		perToken                            int64
		perPrefillRank, perDecodeRank, wire float64
		text                                []string
	}{
		{qa37[0].file, 192512, 385024000, 385024000, 770048000,
			[]string{"2 (K,V) × 4 KV heads × head_dim 128 × 2 B × 94 layers", "KV heads on a GPU: 2 at TP 2 on the prefill pool, 2 at TP 2 on the decode pool"}},
		{qa37[1].file, 73728, 294912000, 147456000, 589824000,
			[]string{"2 (K,V) × 8 KV heads × head_dim 64 × 2 B × 36 layers", "every page 32768 B at TP 1 (16384 B on a prefill GPU, 8192 B on a decode GPU)",
				"KV heads on a GPU: 4 at TP 2 on the prefill pool, 2 at TP 4 on the decode pool"}},
	} {
		r, _ := qa37Eval(t, c.file, nil)
		x := r.Scenarios[0].Transfer
		if x.BytesPerToken != c.perToken || x.PerPrefillRankBytes != c.perPrefillRank || x.PerDecodeRankBytes != c.perDecodeRank || x.WireBytes != c.wire {
			t.Errorf("%s: %d B per token, %.0f per prefill rank, %.0f per decode rank, %.0f pulled; want %d, %.0f, %.0f, %.0f",
				c.file, x.BytesPerToken, x.PerPrefillRankBytes, x.PerDecodeRankBytes, x.WireBytes, c.perToken, c.perPrefillRank, c.perDecodeRank, c.wire)
		}
		if strings.Contains(x.Formula, "per GPU") {
			t.Errorf("%s: the whole model's formula counts heads per GPU: %s", c.file, x.Formula)
		}
		for _, w := range c.text {
			if !strings.Contains(x.Formula, w) {
				t.Errorf("%s: formula %q lacks %q", c.file, x.Formula, w)
			}
		}
	}
	// Heads replicate when TP exceeds them (Qwen3-235B's 4 at TP 8: one a
	// GPU, each on 2 GPUs); an MLA latent is whole on every TP rank, as
	// memory's formula already says.
	q := testinput.Quick(t, resolve.QuickOptions{Model: "qwen3-235b-a22b-fp8", GPU: "h100-sxm", TP: 8, PP: 1, DP: 1, KVCacheDType: "auto", Weights: "auto", Concurrency: 1})
	if f := newTransfer(q, q, 4096, false, 1, 1).Formula; !strings.Contains(f, "KV heads on a GPU: 1 at TP 8 (each head replicated on 2 GPUs) on the prefill pool") {
		t.Errorf("qwen3 TP 8: %s", f)
	}
	in := testinput.Example(t, pdExample)
	pre, dec := testinput.Pools(t, in.Resolved())
	if f := newTransfer(&pre, &dec, 1000, false, 2, 2).Formula; !strings.HasSuffix(f, "replicated on every TP rank") || strings.Contains(f, "KV heads") {
		t.Errorf("DeepSeek-V3 (MLA): %s", f)
	}
}
