package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// Kimi-Linear-48B-A3B-Instruct on 2 × RTX 3090, a public start-up log:
// vllm-project/vllm#28228 (johnr14, 2025-11-06; the fixture
// logs/testdata/real/v0.11.x-28228-kimi-linear-tp2-kv.txtar). Command:
// vllm serve cyankiwi/Kimi-Linear-48B-A3B-Instruct-AWQ-4bit
// --gpu-memory-utilization 0.95 --max_model_len 120000 --tensor_parallel 2
// --enable_prefix_caching --max_num_batched_tokens 64000 --max-num-seqs 8
// --dtype float16, PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True. The
// issue's environment names PyTorch 2.9.0+cu128 and no vLLM version: a main
// build between 0.11.0 (torch 2.8, before vLLM's Kimi Linear support) and
// 0.11.1 (2025-11-18, the first release with both), whose rules vlaunch
// applies. Logged per GPU: "Model loading took 14.2491 GiB", "Available KV
// cache memory: 2.30 GiB", "Add 1 padding layers, may waste at most 5.00%
// KV cache memory", "GPU KV cache size: 75,840 tokens", "Maximum
// concurrency for 120,000 tokens per request: 2.48x".
const (
	kimiLinearLogWeightsGiB = 14.2491
	kimiLinearLogAvailGiB   = 2.30
	kimiLinearLogTokens     = 75840
	kimiLinearLogConc       = 2.48
	kimiLinearLogMaxLen     = 120000
)

// kimiLinearBlock is one block of the hybrid layout at TP 2, by hand: the
// MLA layers' 576 values × 2 B = 1,152 B per token and layer; a KDA layer's
// state per sequence conv 3 × 4,096 / 2 × 3 = 18,432 values × 2 B + the
// float32 recurrent 16 × 128 × 128 × 4 B = 1,085,440 B; vLLM raises the MLA
// block to 64 × ceil(1,085,440 / (64 × 1,152)) = 960 tokens (page 1,105,920
// B, the state padded to it); 7 MLA and 20 KDA layers make groups of 7: one
// attention group and ceil(20 / 7) = 3 state groups, 21 slots for 20 layers
// — the log's "Add 1 padding layers" (1 / 20 = 5%) — so a block is 7 pages.
const kimiLinearBlock = 7 * 960 * 1152

// kimiLinearBlocksPerRequest: a 120,000-token request takes ceil(120,000 /
// 960) = 125 attention blocks and one state page in each of the 3 state
// groups (no mamba prefix caching in that release).
const kimiLinearBlocksPerRequest = 125 + 3

// kimiLinearLogInput is the AWQ checkpoint at TP 2 on RTX 3090s with the
// logged settings. The checkpoint's own config.json was not read: the
// fixture writes the quantization vlaunch assumes (compressed-tensors INT4
// W4A16, group 32, symmetric, routed experts only; catalog/testdata/hf/
// README.md), which the logged weights hold to 0.1% below. --dtype float16
// sizes as BF16 (2 bytes).
func kimiLinearLogInput(t *testing.T) *input.Input {
	t.Helper()
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/kimi-linear-48b-a3b-instruct-awq-4bit.written.json")
	if err != nil {
		t.Fatal(err)
	}
	g, err := catalog.LookupGPU("rtx-3090")
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.1", Layout: input.Layout{TP: 2, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 2}}
	seqs, batched := 8, 64000
	es := resolve.EngineSettings{Util: ptrFloat(0.95), MaxNumSeqs: &seqs, MaxNumBatchedTokens: &batched,
		Weights: "auto", KVCacheDType: "auto", MaxModelLen: kimiLinearLogMaxLen}
	if ds := in.Resolve(es); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestKimiLinearLogKVFromLoggedMemory: from the logged weights and
// available memory, vlaunch's layout of the KDA + MLA hybrid prints what
// the log prints. Weights: 14.248 GiB against 14.2491 (−0.01%): the routed
// experts 26 × 256 × 3 × 2,304 × 1,024 / 2 at 0.5625 B (12.340 GiB), the
// rest BF16 (attention 0.945, vocabulary 0.703, shared experts 0.171, dense
// MLP 0.059, router 0.029). KV: the logged "2.30 GiB" is 2.295–2.305 GiB,
// 318–319 blocks of 7,741,440 B; vLLM (0.11) prints blocks // 4 groups ×
// 960 = 79 × 960 = 75,840 tokens for both, and 318 / 128 = 2.48x (319 would
// print 2.49x: the logged memory was below 2.2999 GiB).
func TestKimiLinearLogKVFromLoggedMemory(t *testing.T) {
	in := kimiLinearLogInput(t)
	r := Estimate(in)
	s := r.Stages[0]
	within(t, "weights GiB", s.WeightsGiB, kimiLinearLogWeightsGiB, 0.001)
	kv := s.KV
	p := kv.pack()
	groups, stateGroups := 0, 0
	for _, k := range p.kinds {
		groups += k.groups
		if k.state {
			stateGroups += k.groups
		}
	}
	padding := p.paddingLayers()
	if kv.HybridBlock != 960 || p.groupSize != 7 || groups != 4 || padding != 1 || p.page*int64(p.unitLayers) != kimiLinearBlock {
		t.Fatalf("layout: block %d tokens, groups of %d, %d groups (%d state), %d padding layer(s), block %d B; want 960, 7, 4 (3), 1 (the log's \"Add 1 padding layers\"), %d",
			kv.HybridBlock, p.groupSize, groups, stateGroups, padding, p.page*int64(p.unitLayers), kimiLinearBlock)
	}
	if got := kv.SequenceBytes(kimiLinearLogMaxLen, in.BlockSize); got != kimiLinearBlocksPerRequest*kimiLinearBlock {
		t.Errorf("a 120,000-token request: %d B, want %d blocks", got, kimiLinearBlocksPerRequest)
	}
	asConc, _ := in.Release().KVTokensAsConcurrency()
	if asConc == vllm.Present {
		t.Fatalf("vLLM %s read as printing max_concurrency × max_model_len; 0.11 prints blocks // groups × block", in.VLLMVersion)
	}
	for _, gib := range []float64{2.295, 2.2999} {
		avail := gib * GiB
		tok, ok := kv.ReportedTokens(avail, kimiLinearLogMaxLen, false)
		blocks := math.Floor(avail / kimiLinearBlock)
		conc := blocks / kimiLinearBlocksPerRequest
		if !ok || tok != kimiLinearLogTokens || math.Round(conc*100)/100 != kimiLinearLogConc {
			t.Errorf("from %.4f GiB: %d tokens, %.3fx; the log 75,840 and 2.48x", gib, tok, conc)
		}
	}
}

// TestKimiLinearLogEndToEnd holds the end-to-end prediction of the same
// start-up where it stands, and says so: issue #23's "available KV within
// 10%" is NOT met for kimi_linear. Since branch models42 vlaunch predicts
// 3.25 GiB available (+41%), 107,520 tokens (+42%) and 3.52x (+42%): the
// release tags show fused_marlin_moe allocating the summed output only
// after intermediate_cache2 is freed (vllm.MarlinMoEPath.SumAfterCaches,
// 0.11.1-0.19.1, and this log's build), so Marlin's layer is 0.275 GiB
// smaller than the +29% below assumed, and ≈0.94 GiB of the logged non-KV
// memory is in no tensor read. What follows is the history. vlaunch predicted 3.45 GiB available
// (+50%), so 114,240 tokens (+51%) and 3.73x (+50%); the weights (14.25
// GiB) and the KV arithmetic (TestKimiLinearLogKVFromLoggedMemory) hold, so
// the whole miss is the profiled non-KV memory: the log implies 22.40 −
// 14.25 − 2.30 = 5.85 GiB of activation peak and memory outside PyTorch at
// 64,000 batched tokens (0.95 × the 23.58 GiB vLLM logs for an RTX 3090),
// vlaunch counts 4.71 (forward 2.47 + the Triton fused-MoE workspace of one
// 32,768-token chunk 1.88 + outside PyTorch 0.36).
//
// The INT4 experts run Marlin (vllm.Release.MarlinMoE: CompressedTensors-
// WNA16MarlinMoEMethod.apply calls fused_marlin_moe without caches), which
// allocates them per call for the whole batch, 2.69 GiB, and frees them on
// return: no shared workspace. Modelled as vLLM holds them
// (marlinMoELayer: the MoE layer's live set, 3.78 GiB, compared with the
// forward pass, not added to it), the peak is 3.78 and the prediction moves
// AWAY from the log: 4.01 GiB available (+74%), 133,440 tokens (+76%),
// 4.34x (+75%) without the held inputs below — so UseMarlinMoELayer was
// left off then (on since session 32, once the held inputs are counted it
// moves this log by 0.01 GiB and brings Kimi-K2-Thinking's closer). Adding Marlin's
// caches to the forward pass instead (2.63 GiB, +14%) would stack the dense
// layer's intermediates and the MoE layer's caches, which never coexist.
// The ≈1.7 GiB the log holds beyond the Marlin layer is not the KDA
// layer's chunked kernels (KimiDeltaAttention._forward returns at once in
// the profile run: kda.py @01a7e5d9). The tensors the piecewise-compiled
// graph holds across the KDA op (UseCompiledPieceInputs, on: the old
// residual, the layer's output buffer, core_attn_out and the gate g2, 8,704
// values a token, 1.04 GiB) bring the profile's peak to vLLM's source
// tensor by tensor (kimiLinearProfilePeak, 4.86 GiB;
// TestKimiLinearProfilePeakByHand): with the switch, available 2.96 GiB
// (+29%), 97,920 tokens (+29%), 3.21x (+29%); with UseMarlinMoELayer too
// 2.97 GiB (+29%), 98,880 tokens (+30%), 3.22x (+30%) until branch models42,
// 3.25 GiB (+41%) since (above). Still outside 10%:
// ≈0.63 GiB of the logged non-KV memory is in no tensor read from the
// source (memory outside PyTorch beyond vlaunch's 0.36 GiB, or a copy the
// compiled pieces keep that the source does not show; read again at the
// log's build, pinned by its line numbers to a main build of 2025-11-05/06,
// and nothing found: docs/calibration-memory.md, "Open misses"). The test fails when
// any of these numbers moves, so the doc (docs/models-issue23.md, Kimi-K3
// row) is updated with it.
func TestKimiLinearLogEndToEnd(t *testing.T) {
	in := kimiLinearLogInput(t)
	r := Estimate(in)
	s := r.Stages[0]
	t.Logf("weights %.3f GiB (logged 14.2491); available %.3f GiB (logged 2.30, %+.0f%%); %d tokens (logged 75,840); %.2fx (logged 2.48x)",
		s.WeightsGiB, s.AvailableKVGiB, 100*(s.AvailableKVGiB/kimiLinearLogAvailGiB-1), r.KVTokensLogged, r.MaxConcurrencyAtMaxModelLen)
	within(t, "weights GiB", s.WeightsGiB, kimiLinearLogWeightsGiB, 0.001)
	// Its own tokens and concurrency follow from its own available memory
	// by the same rule as the log's.
	blocks := math.Floor(s.AvailableKVGiB * GiB / kimiLinearBlock)
	if want := int64(blocks) / 4 * 960; r.KVTokensLogged != want {
		t.Errorf("tokens %d, want %d from %.0f blocks", r.KVTokensLogged, want, blocks)
	}
	within(t, "concurrency from its blocks", r.MaxConcurrencyAtMaxModelLen, blocks/kimiLinearBlocksPerRequest, 0.01)
	if !UseCompiledPieceInputs || !UseMarlinMoELayer {
		t.Errorf("the default is the compiled graph's held inputs and Marlin's layer on; UseCompiledPieceInputs %v, UseMarlinMoELayer %v",
			UseCompiledPieceInputs, UseMarlinMoELayer)
	}
	// Each combination of the two switches, and how far it leaves the log:
	// held inputs beside the Triton workspace (which vLLM does not allocate
	// on this path) +29% (2.958 GiB); both, the default since session 32,
	// +41% (3.246; +29% before the summed output was read as coming after
	// cache2 is freed); neither +50%; Marlin's layer alone +86% (+74%
	// before).
	for _, c := range []struct {
		pieces, marlin bool
		lo, hi         float64
		known          string
	}{
		{true, false, 0.25, 0.33, "+29%"},
		{true, true, 0.36, 0.46, "+41%"},
		{false, false, 0.40, 0.60, "+50%"},
		{false, true, 0.78, 0.95, "+86%"},
	} {
		withPieceInputs(t, c.pieces, func() {
			withMarlinLayer(t, c.marlin, func() {
				r := Estimate(in)
				s := r.Stages[0]
				off := s.AvailableKVGiB/kimiLinearLogAvailGiB - 1
				t.Logf("held inputs %v, Marlin layer %v: available %.3f GiB (%+.0f%%); %d tokens (%+.0f%%); %.2fx (%+.0f%%)",
					c.pieces, c.marlin, s.AvailableKVGiB, 100*off, r.KVTokensLogged, 100*(float64(r.KVTokensLogged)/kimiLinearLogTokens-1),
					r.MaxConcurrencyAtMaxModelLen, 100*(r.MaxConcurrencyAtMaxModelLen/kimiLinearLogConc-1))
				if off < c.lo || off > c.hi {
					t.Errorf("held inputs %v, Marlin layer %v: available %.3f GiB is %+.0f%% from the logged 2.30 GiB, known %s: update docs/models-issue23.md (Kimi-K3 row), the switches' comments and this test",
						c.pieces, c.marlin, s.AvailableKVGiB, 100*off, c.known)
				}
			})
		})
	}
}
