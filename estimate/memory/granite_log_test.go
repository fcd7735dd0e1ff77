package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestGraniteH1BLogV0190EndToEnd reproduces a public vLLM 0.19.0 start-up
// of ibm-granite/granite-4.0-h-1b (granitemoehybrid without experts:
// 36 Mamba-2 and 4 attention layers, each followed by a 4,096-wide SwiGLU
// MLP) on an RTX 3060 12GB (CUDA total 11.63 GiB, printed by the same
// author's earlier start-up on that host), BF16, --gpu-memory-utilization
// 0.6, --max-model-len 4096, --max-num-seqs 2, --max-num-batched-tokens
// 2048, --enforce-eager (published/vllm-memory-logs.yaml,
// granite4-h-1b-rtx3060-v0190; the log is quoted in a public write-up,
// code index id 62458215816). The RTX 3060 is not in the catalog: the RTX
// 3090 with the logged total stands in, which moves no memory figure.
//
// By hand: weights 1,461,538,368 parameters × 2 B = 2.7222 GiB (logged
// "Model loading took 2.72 GiB"). KV: an attention page is 2 × 4 KV heads ×
// 128 × 2 B = 2,048 B a token; a Mamba-2 layer's state is conv 3 × (3,072
// + 2 × 128) × 2 B + temporal 48 × 64 × 128 × 2 B = 806,400 B, so vLLM
// raises the attention block to ceil(806,400 / 2,048) rounded up to 16 =
// 400 tokens (logged "Setting attention block size to 400 tokens") and pads
// the state page to 819,200 B (+1.59%, logged). 4 attention and 36 Mamba
// layers make groups of 4: 1 attention group and 9 state groups, a block
// of 4 pages (3,276,800 B); "GPU KV cache size" = blocks // 10 × 400; a
// 4,096-token request takes 11 attention pages and one per state group,
// 20 blocks. Logged: 4.09 GiB, 53,200 tokens (133 × 400, so 1,330–1,339
// blocks), 66.95x (= 1,339 / 20).
func TestGraniteH1BLogV0190EndToEnd(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/granite-4.0-h-1b.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatal(err)
	}
	g, _ := catalog.LookupGPU("rtx-3090")
	gpu := *g
	gpu.MemoryMiB = 11.63 * 1024
	in := &input.Input{Model: m, GPU: &gpu, VLLMVersion: "0.19.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util, seqs, batched := 0.6, 2, 2048
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 4096,
		MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched, EnforceEager: true}); ds.HasErrors() {
		t.Fatal(ds)
	}
	kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
	if kv.HybridBlock != 400 || kv.StatePages != 1 || kv.Layers != 4 || kv.MambaLayers != 36 {
		t.Fatalf("block %d, state pages %d, %d attention and %d Mamba layers", kv.HybridBlock, kv.StatePages, kv.Layers, kv.MambaLayers)
	}
	const state = 3*(3072+2*128)*2 + 48*64*128*2
	if kv.StateBytesPerSeq != 36*state {
		t.Errorf("state %d B per sequence, want 36 × %d", kv.StateBytesPerSeq, state)
	}
	const block = 4 * 400 * 2048
	if got := kv.SequenceBytes(4096, 400); got != 20*block {
		t.Errorf("one 4,096-token request %d B, want 20 blocks", got)
	}
	if tokens, ok := kv.ReportedTokens(1339*block, 4096, false); !ok || tokens != 53200 {
		t.Errorf("GPU KV cache size %d from 1,339 blocks, the log says 53,200", tokens)
	}

	rep := Estimate(in)
	s := rep.Stages[0]
	if w := 1461538368 * 2.0 / GiB; math.Abs(s.WeightsGiB-w) > 1e-9 || math.Abs(s.WeightsGiB-2.72)/2.72 > 0.03 {
		t.Errorf("weights %.4f GiB (by hand %.4f), the log says 2.72", s.WeightsGiB, w)
	}
	avail := 0.6*11.63 - s.WeightsGiB - s.Activation.PeakGiB - s.NonTorchGiB
	if math.Abs(s.AvailableKVGiB-avail) > 1e-9 || math.Abs(s.AvailableKVGiB-4.09)/4.09 > 0.10 {
		t.Errorf("available %.3f GiB, the log says 4.09", s.AvailableKVGiB)
	}
	blocks := math.Floor(s.AvailableKVGiB * GiB / block)
	if want := int64(blocks) / 10 * 400; rep.KVTokensLogged != want || math.Abs(float64(want)-53200)/53200 > 0.10 {
		t.Errorf("GPU KV cache size %d predicted (by hand %d), the log says 53,200", rep.KVTokensLogged, want)
	}
	if c := rep.MaxConcurrencyAtMaxModelLen; math.Abs(c-66.95)/66.95 > 0.10 {
		t.Errorf("maximum concurrency %.2f predicted (by hand %.2f), the log says 66.95x", c, blocks/20)
	}
	t.Logf("weights %.4f / 2.72, peak %.4f, non-torch %.2f, available %.3f / 4.09, tokens %d / 53,200, concurrency %.2f / 66.95",
		s.WeightsGiB, s.Activation.PeakGiB, s.NonTorchGiB, s.AvailableKVGiB, rep.KVTokensLogged, rep.MaxConcurrencyAtMaxModelLen)
}

// TestGraniteHSmallBlock: vLLM's hybrid alignment for
// Granite-4.0-H-Small (catalog/testdata/hf/granite-4.0-h-small.reconstructed.json)
// as a public start-up logs it (ROCm/ROCm#5590, vLLM 0.11.1rc6.dev115 on a
// Strix Halo APU, which hung before the KV lines): "Setting attention block
// size to 528 tokens" and "Padding mamba page size by 0.69%". By hand: a
// Mamba-2 layer's state is conv 3 × 8,448 × 2 B + temporal 128 × 64 × 128
// × 2 B = 2,147,840 B; an attention page 2 × 8 × 128 × 2 B = 4,096 B a
// token; 16 × ceil(2,147,840 / 65,536) = 528 tokens, a page of 2,162,688 B.
// On TP 4 (2 KV heads, 32 Mamba heads a rank, the one group repeated) the
// state is 3 × 2,304 × 2 + 32 × 64 × 128 × 2 = 538,112 B against 1,024 B a
// token: 528 tokens again. The log's "Model loading took 78.4272 GiB" is
// not a weights figure to compare (unified memory: the 32.2B BF16
// parameters are 59.99 GiB), so only the alignment is checked.
func TestGraniteHSmallBlock(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/granite-4.0-h-small.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		tp    int
		state int64
	}{{1, 36 * 2147840}, {4, 36 * 538112}} {
		g, _ := catalog.LookupGPU("mi300x")
		in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.1", Layout: input.Layout{TP: tt.tp, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
		util := 0.9
		if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 131072}); ds.HasErrors() {
			t.Fatal(ds)
		}
		kv := KVBytes(in, Stage{First: 0, End: m.NumLayers})
		if kv.HybridBlock != 528 || kv.StateBytesPerSeq != tt.state || kv.BytesPerToken != int64(4*2*8/tt.tp*128*2) {
			t.Errorf("TP%d: block %d, state %d B (want %d), %d B a token", tt.tp, kv.HybridBlock, kv.StateBytesPerSeq, tt.state, kv.BytesPerToken)
		}
		if tt.tp == 1 {
			if w := Estimate(in).Stages[0].WeightsGiB; math.Abs(w*GiB-32207337984*2) > 1 {
				t.Errorf("weights %.4f GiB, by hand %.4f", w, 32207337984*2/GiB)
			}
		}
	}
}
