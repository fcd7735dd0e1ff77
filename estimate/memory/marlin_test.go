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
// The layer: + 64,000 × 4 × 2,304 × 2 B = 1.099 GiB (residual, MoE input,
// the one shared expert's output, the summed output) = 3.784 GiB, the
// peak (the forward pass, the dense layer's 64,000 × (3 × 2,304 + 3 ×
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
		hidden4 = 64000.0 * 4 * 2304 * 2 / GiB
		forward = 64000.0 * (3*2304 + 3*9216/2) * 2 / GiB
		triton  = 32768.0 * 8 * (3*512 + 2304) * 2 / GiB
	)
	term, ok := marlinMoELayer(in)
	if !ok {
		t.Fatal("Kimi-Linear's INT4 experts at 0.11.1 on SM 8.6 not read as Marlin with whole-batch caches")
	}
	within(t, "Marlin MoE layer GiB", term.GiB, hidden4+caches, 1e-9)
	if !strings.Contains(term.Formula, "2.69 GiB") || !strings.Contains(term.Formula, "shared experts") {
		t.Errorf("formula %q does not show the 2.69 GiB caches and the shared experts' output", term.Formula)
	}
	withMarlinLayer(t, true, func() {
		a := PeakActivation(in, Estimate(in).Stages[0].Stage)
		within(t, "forward GiB", a.ForwardGiB, forward, 1e-9)
		if a.MoEWorkspaceGiB != 0 {
			t.Errorf("Triton workspace %.3f GiB charged beside Marlin's caches", a.MoEWorkspaceGiB)
		}
		within(t, "peak GiB (on)", a.PeakGiB, hidden4+caches, 1e-9)
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
