package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/estimate/input"
)

// UseCompiledPieceInputs charges the tensors vLLM's piecewise-compiled
// graph keeps alive across an attention op (pieceInputs) to the layer live
// sets of the profile's dummy forward pass: the forward term where they
// exceed its hidden-sized "output" slot, and the Marlin MoE layer
// (marlinMoELayer) in full. On since session 31 (built on branch kdamem,
// 2026-12-06): the mechanism is vLLM's and PyTorch's (pieceInputs). On the
// one public log it changes, Kimi-Linear-48B AWQ on 2 × RTX 3090
// (vllm#28228), it narrows the miss without closing it
// (kimilinear_log_test.go: available KV +50% → +29%, against the 10%
// target; +41% since branch models42 read Marlin's summed output as coming
// after its cache2 is freed); Qwen3.6's log moves +3.0% → +2.5%, and every other start-up log
// of the memory calibration and holdout stays where it was (a plain
// decoder holds nothing beyond the forward term's residual and output).
var UseCompiledPieceInputs = true

// pieceInputs is what the split graph of vLLM's piecewise compilation
// holds, per token, while the piece after a layer's attention op runs that
// layer's MLP or MoE — elements of the activation dtype — and how it is
// made up. Zero where the release does not compile the model piecewise
// (V0, enforce_eager).
//
// Why they are held: vLLM splits the Dynamo graph at every attention op
// (CompilationConfig._attention_ops, "vllm::kda_attention" among them:
// vllm/config/compilation.py, stored copy id 21241703 of the 0.11.x
// series) and runs the pieces from one FX GraphModule, whose generated
// Python keeps each value until the call that uses it last returns; a
// tensor that crosses the split is an input of the next piece and so lives
// through all of it, the MoE call included. And under Inductor vLLM's
// custom ops are off by default (custom_ops "none" when the backend is
// inductor: vllm/config/vllm.py, stored copy id 107303291 of the
// 0.10–0.11 series), so RMSNorm's fused residual add is the native,
// functional one: it writes a new residual and leaves the old one, a piece
// input, alive.
//
// What crosses, per model:
//
//   - every model: the residual from before the attention (hidden);
//   - a plain attention or MLA layer: the op's output, heads/TP × the
//     value head width (o_proj runs in the next piece);
//   - kimi_linear (KimiDecoderLayer, kimi_linear.py @01d99586): the
//     layer's output buffer attn_output = torch.empty_like(hidden_states),
//     written by o_proj in the next piece (hidden), plus, in a KDA layer
//     (KimiDeltaAttention.forward, kda.py @01a7e5d9), the op's
//     core_attn_out and the output gate g2 the o_norm after it reads (2 ×
//     heads/TP × head_dim), or in an MLA layer the op's output; the widest
//     of the two kinds.
//
// Not modelled: other decoder layers that pass their own output buffer
// (Qwen3-Next's Gated DeltaNet), and the o_proj result an input mutation
// (output[:] = …) may keep until the piece's end.
func pieceInputs(in *input.Input) (float64, string) {
	if !UseCompiledPieceInputs || in.EnforceEager || v0Engine(in) {
		return 0, ""
	}
	m, tp := in.Model, in.Layout.TP
	h := float64(m.HiddenSize)
	vhd := m.HeadDim
	if m.IsMLA() && m.VHeadDim > 0 {
		vhd = m.VHeadDim
	}
	attn := headsPerRank(m.NumHeads, tp) * float64(vhd)
	if k := m.KimiLinear; k != nil && k.KDALayers > 0 {
		kda := 2 * headsPerRank(k.NumHeads, tp) * float64(k.HeadDim)
		cross := h + max(kda, attn)
		return h + cross, fmt.Sprintf("old residual %d + KimiDecoderLayer's output buffer %d + max(KDA core_attn_out and gate g2 2 × %.0f, MLA output %.0f)",
			m.HiddenSize, m.HiddenSize, kda/2, attn)
	}
	return h + attn, fmt.Sprintf("old residual %d + attention output %.0f", m.HiddenSize, attn)
}

// v0Engine says the deployment runs vLLM's V0 engine: the release's
// default, unless vllm.env sets VLLM_USE_V1 where the release reads it
// (vllm.Release.EngineEraWithEnv: VLLM_USE_V1=1 on 0.7.x runs V1, whose
// profile run compiles the model piecewise and sizes the fused-MoE caches
// for its batch as 0.8's V1 does; qa44c F6, the same switch resolve reads
// for the scheduler defaults). No public V1 start-up log at 0.7 was found
// to hold these terms to.
func v0Engine(in *input.Input) bool {
	return in.Release().EngineEraWithEnv(in.Env).V0Default()
}
