package memory

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// withMarlinLayer runs f with UseMarlinMoELayer set to on, restoring it.
func withMarlinLayer(t *testing.T, on bool, f func()) {
	t.Helper()
	was := UseMarlinMoELayer
	UseMarlinMoELayer = on
	defer func() { UseMarlinMoELayer = was }()
	f()
}

// vllm#28228's Kimi-Linear-48B AWQ at TP 2 on RTX 3090s, 64,000 batched
// tokens, by hand. Marlin's caches: 64,000 × top-k 8 × (max(2 × 512, 2,304)
// + 512) × 2 B = 2,883,584,000 B = 2.686 GiB — not one 32,768-token chunk.
// The layer: + 64,000 × 3 × 2,304 × 2 B = 0.824 GiB (residual, MoE input,
// the one shared expert's output; the summed output, 0.275 GiB, comes only
// once cache2, 0.488 GiB, is freed: vllm.MarlinMoEPath.SumAfterCaches at
// 0.11.1) = 3.510 GiB, the peak (the forward pass, the dense layer's 64,000 × (3 × 2,304 + 3 ×
// 9,216 / 2) × 2 B, is 2.472 GiB; the sampler 8 rows is small), with no
// Triton workspace beside it. Off (the default), the peak keeps the Triton
// path's workspace: 32,768 × 8 × (3 × 512 + 2,304) × 2 B = 1.875 GiB added
// to the forward pass, 4.347 GiB.
func TestMarlinMoELayerKimiLinear(t *testing.T) {
	// The hand count above is the layer without the compiled graph's held
	// inputs (pieces_test.go adds those).
	withPieceInputs(t, false, func() { marlinMoELayerKimiLinear(t) })
}

func marlinMoELayerKimiLinear(t *testing.T) {
	in := kimiLinearLogInput(t)
	const (
		caches  = 64000.0 * 8 * (2304 + 512) * 2 / GiB
		hidden3 = 64000.0 * 3 * 2304 * 2 / GiB
		forward = 64000.0 * (3*2304 + 3*9216/2) * 2 / GiB
		triton  = 32768.0 * 8 * (3*512 + 2304) * 2 / GiB
	)
	term, ok := marlinMoELayer(in)
	if !ok {
		t.Fatal("Kimi-Linear's INT4 experts at 0.11.1 on SM 8.6 not read as Marlin with whole-batch caches")
	}
	within(t, "Marlin MoE layer GiB", term.GiB, hidden3+caches, 1e-9)
	if !strings.Contains(term.Formula, "2.69 GiB") || !strings.Contains(term.Formula, "shared experts") {
		t.Errorf("formula %q does not show the 2.69 GiB caches and the shared experts' output", term.Formula)
	}
	withMarlinLayer(t, true, func() {
		a := PeakActivation(in, Estimate(in).Stages[0].Stage)
		within(t, "forward GiB", a.ForwardGiB, forward, 1e-9)
		if a.MoEWorkspaceGiB != 0 {
			t.Errorf("Triton workspace %.3f GiB charged beside Marlin's caches", a.MoEWorkspaceGiB)
		}
		within(t, "peak GiB (on)", a.PeakGiB, hidden3+caches, 1e-9)
	})
	withMarlinLayer(t, false, func() {
		a := PeakActivation(in, Estimate(in).Stages[0].Stage)
		if a.MarlinLayerGiB != 0 {
			t.Errorf("off: Marlin layer %.3f GiB charged", a.MarlinLayerGiB)
		}
		within(t, "Triton workspace GiB (off)", a.MoEWorkspaceGiB, triton, 1e-9)
		within(t, "peak GiB (off)", a.PeakGiB, forward+triton, 1e-9)
	})
}

// A model whose experts stay on Triton is unchanged by the switch:
// Qwen3-30B-A3B in BF16 on one H100 at 0.11.1 (unquantized experts), and
// the Kimi-Linear checkpoint once an all-to-all backend is in effect
// (MarlinExperts through the modular kernel, whose workspaces are the
// shared, chunked ones vlaunch already charges).
func TestMarlinMoELayerLeavesTritonAlone(t *testing.T) {
	qwen := oneH100(t, "qwen3-30b-a3b")
	kimiEP := kimiLinearLogInput(t)
	kimiEP.All2AllBackend = "allgather_reducescatter"
	for name, in := range map[string]*input.Input{"qwen3-30b-a3b bf16": qwen, "kimi-linear with an all-to-all backend": kimiEP} {
		if _, ok := marlinMoELayer(in); ok {
			t.Errorf("%s: read as Marlin with whole-batch caches", name)
		}
		var on, off Activation
		withMarlinLayer(t, true, func() { on = PeakActivation(in, Estimate(in).Stages[0].Stage) })
		withMarlinLayer(t, false, func() { off = PeakActivation(in, Estimate(in).Stages[0].Stage) })
		if on.PeakGiB != off.PeakGiB || on.MoEWorkspaceGiB != off.MoEWorkspaceGiB || on.MoEWorkspaceGiB == 0 {
			t.Errorf("%s: peak %.3f / %.3f GiB, workspace %.3f / %.3f (on / off); want equal and a Triton workspace", name, on.PeakGiB, off.PeakGiB, on.MoEWorkspaceGiB, off.MoEWorkspaceGiB)
		}
	}
}

// oneH100 is catalog model name on one H100 at vLLM 0.11.1, 16,384 batched
// tokens and 32,768-token requests, as the profile-peak tests compare it.
func oneH100(t *testing.T, name string) *input.Input {
	t.Helper()
	m, err := catalog.LookupModel(name)
	if err != nil {
		t.Fatal(err)
	}
	g, err := catalog.LookupGPU("h100-sxm")
	if err != nil {
		t.Fatal(err)
	}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.11.1", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	batched := 16384
	if ds := in.Resolve(resolve.EngineSettings{MaxNumBatchedTokens: &batched, Weights: "auto", KVCacheDType: "auto", MaxModelLen: 32768}); ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// TestKimiK2ThinkingMarlinPeakByHand: what Marlin's MoE path holds at the
// profile peak of the Kimi-K2-Thinking recipe's TP8 start-up on 8 × H200
// (calibration case kimi-k2-thinking-recipe-h200-tp8; logged "Available KV
// cache memory: 46.80 GiB"), by hand. The profile runs
// max_num_batched_tokens = 8,192 tokens (0.11's API-server default on a
// GPU of 70 GiB or more) and samples max_num_seqs = 1,024 rows. Per rank:
// hidden 7,168, 384 experts of 2,048 → N = 256 at TP 8, top-k 8.
//
// Marlin's MoE call (fused_marlin_moe, whole batch, freed on return):
//   - intermediate_cache13: 8,192 × 8 × max(2 × 256, 7,168) × 2 B = 0.875 GiB;
//   - intermediate_cache2: 8,192 × 8 × 256 × 2 B = 0.03125 GiB;
//   - the summed output: 8,192 × 7,168 × 2 B = 0.109 GiB, allocated after
//     the second GEMM, so the call's peak is its end;
//   - c_tmp (use_fp32_reduce; csrc/moe/marlin_moe_wna16/ops.cu, stored copy
//     id 56003361962: min(size_n × sorted ids, SMs × 4 × moe_block × 256)
//     FP32, allocated and freed inside each GEMM): block_size_m 64 (8,192 ×
//     8 / 384 / 64 = 2.7 ≥ 0.9), 132 × 4 × 64 × 256 × 4 B = 34.6 MB, below
//     the summed output it never coexists with; a_tmp only with act-order
//     g_idx, which this checkpoint lacks (the method resets g_idx and the
//     sort indices to (E, 0) when actorder is not "group": compressed_tensors
//     _moe.py, stored copy id 191730746); the workspace, SMs × 4 int32 per
//     layer, is made in process_weights_after_loading, with the weights;
//   - the repack (gptq_marlin_moe_repack, marlin_moe_permute_scales) goes
//     through replace_parameter: one layout kept, nothing at the peak.
//
// The layer's live set (marlinMoELayer): residual, MoE input, shared
// expert output, summed output 4 × 8,192 × 7,168 × 2 B = 0.4375 GiB +
// the two caches 8,192 × 8 × (7,168 + 256) × 2 B = 0.90625 GiB + what the
// compiled graph holds across the MLA op, 8,192 × (7,168 + 8 × 128) × 2 B
// = 0.125 GiB: 1.46875 GiB. The sampler: 1,024 rows × vocab 163,840 ×
// 39 B (the PyTorch sort: the run is a main build after PR #26859, the
// case's note) + the 8,192 × 7,168 hidden states = 6.203 GiB (with
// FlashInfer's 15 B, as 0.11.0 sampled, 2.453). So Marlin's caches cannot
// set this log's peak: the sampler does. What Marlin changes is the Triton
// workspace vlaunch adds to every peak (8,192 × 8 × (3 × 256 + 7,168) × 2 B
// = 0.969 GiB): vLLM does not allocate it on this path. Available KV,
// usable 0.9 × 139.80 − weights 70.98 − non-torch 2.06 − peak: off (the
// default) 45.61 GiB (−2.5%), on 46.58 GiB (−0.5%); with FlashInfer's
// sampler (0.11.0's rule, before the case said how the build samples)
// 49.36 (+5.5%) and 50.33 (+7.5%).
func TestKimiK2ThinkingMarlinPeakByHand(t *testing.T) {
	cases, _ := loadCalibration(t)
	var c calCase
	for _, x := range cases {
		if x.ID == "kimi-k2-thinking-recipe-h200-tp8" {
			c = x
		}
	}
	if c.ID == "" {
		t.Fatal("case kimi-k2-thinking-recipe-h200-tp8 missing")
	}
	in, _, err := calInput(c)
	if err != nil {
		t.Fatal(err)
	}
	if in.MaxNumBatchedTokens != 8192 || in.MaxNumSeqs != 1024 {
		t.Fatalf("profile of %d tokens and %d rows, want 0.11's API-server defaults 8,192 and 1,024", in.MaxNumBatchedTokens, in.MaxNumSeqs)
	}
	const (
		m         = 8192.0
		cache13   = m * 8 * 7168 * 2
		cache2    = m * 8 * 256 * 2
		summed    = m * 7168 * 2
		cTmp      = 132.0 * 4 * 64 * 256 * 4
		layer     = (4*m*7168*2 + cache13 + cache2 + m*(7168+8*128)*2) / GiB
		hidden    = m * 7168 * 2 / GiB
		sortPeak  = 1024.0*163840*39/GiB + hidden
		fiPeak    = 1024.0*163840*15/GiB + hidden
		workspace = m * 8 * (3*256 + 7168) * 2 / GiB
	)
	if cTmp >= summed {
		t.Fatalf("c_tmp %.0f B is not below the summed output %.0f B", cTmp, summed)
	}
	within(t, "hand layer GiB", layer, 1.46875, 1e-12)
	term, ok := marlinMoELayer(in)
	if !ok {
		t.Fatal("Kimi-K2's INT4 experts at 0.11.0 on Hopper not read as Marlin with whole-batch caches")
	}
	within(t, "Marlin MoE layer GiB", term.GiB, layer, 1e-9)
	if layer >= fiPeak {
		t.Errorf("the Marlin layer %.3f GiB would set the peak over the sampler's %.3f", layer, fiPeak)
	}
	noSort := *in
	noSort.Env = nil
	for _, x := range []struct {
		name       string
		in         *input.Input
		marlin     bool
		peak, want float64
	}{
		{"sorting sampler, Triton workspace (default)", in, false, sortPeak + workspace, 45.607},
		{"sorting sampler, Marlin layer", in, true, sortPeak, 46.576},
		{"FlashInfer sampler, Triton workspace", &noSort, false, fiPeak + workspace, 49.357},
		{"FlashInfer sampler, Marlin layer", &noSort, true, fiPeak, 50.326},
	} {
		withMarlinLayer(t, x.marlin, func() {
			s := Estimate(x.in).Stages[0]
			within(t, x.name+": peak GiB", s.Activation.PeakGiB, x.peak, 1e-9)
			within(t, x.name+": available GiB", s.AvailableKVGiB, x.want, 1e-4)
			t.Logf("%s: peak %.3f GiB, available %.2f GiB (logged 46.80, %+.1f%%)", x.name, s.Activation.PeakGiB, s.AvailableKVGiB, 100*(s.AvailableKVGiB/46.80-1))
		})
	}
}
