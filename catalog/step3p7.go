package catalog

import (
	"encoding/json"
	"fmt"
)

// Step-3.7 (model_type step3p7, Step3p7ForConditionalGeneration) is a
// multimodal wrapper: vLLM's vllm/model_executor/models/step3p7.py (read at
// vllm-project/vllm 22c552fa; the registry maps the architecture to it)
// builds its language model with init_vllm_registered_model from
// config.text_config — a step3p5 config, read here by fillStep3p5 like
// Step-3.5-Flash's own — and, beside it, a PerceptionEncoder from
// config.vision_config (vllm/model_executor/models/step_vl.py, read at
// 055e47c2) and vit_large_projector, a ColumnParallelLinear from the
// tower's width × 4 to the text hidden size (bias projector_bias,
// gather_output; disable_tp only with --mm-encoder-tp-mode data). A config
// without text_config (aiconfigurator's flattened copy) is not what vLLM
// reads, and stays refused (knownGaps).
//
// PerceptionEncoder, module by module (w = width, p = patch_size, g =
// image_size / p, f = int(w × mlp_ratio)):
//
//	conv1              Conv2dLayer 3 → w, kernel p, no bias: 3 p² w          whole
//	class_embedding    w, with use_cls_token                                 whole
//	positional_emb     (use_cls_token + g²) × w, with use_abs_posemb         whole
//	ln_pre, ln_post    LayerNorm 2w each, with use_ln_pre / use_ln_post      whole
//	layers × block     ln_1, ln_2 (4w); qkv_proj QKVParallelLinear 3w² + 3w;  vitBlock's split
//	                   out_proj RowParallelLinear w² + w; fc1 Column w f + f;
//	                   fc2 Row f w + w; ls_1, ls_2 (w each) with ls_init_value whole
//	vit_downsampler1   Conv2dLayer w → 2w, 3×3, bias: 18 w² + 2w              whole
//	vit_downsampler2   Conv2dLayer 2w → 4w, 3×3, bias: 72 w² + 4w             whole
//	vit_large_projector 4w × text hidden (+ text hidden with projector_bias)  split over TP
//
// The 2-D RoPE tables (PerceptionEncoderRope2D.freqs_cache) are
// non-persistent buffers, not parameters, and are not counted. The flags
// absent from a vision_config take the defaults of Step-3.7's remote-code
// config class as public copies of it state them (use_ln_pre true,
// use_ln_post false, use_abs_posemb true, use_cls_token false,
// ls_init_value 0.1; search index ids 57899631909, 56539613785): vLLM loads
// the checkpoint's own class (auto_map), whose text vlaunch has not pinned.
// The sizes (width, layers, heads, patch_size, image_size, mlp_ratio) are
// required: without one the tower is not counted and the note says so.

// perceptionEncoder counts Step-3.7's vision tower and projector from its
// vision_config (v) and the wrapper's keys (top: projector_bias); nil when
// a size is missing or out of range.
func perceptionEncoder(v, top map[string]json.RawMessage, textHidden int) *Encoder {
	s, ok := sizes(v, map[string]int{"width": 0, "layers": 0, "heads": 0, "patch_size": 0, "image_size": 0})
	if !ok || int(s["image_size"])%int(s["patch_size"]) != 0 || int(s["width"])%int(s["heads"]) != 0 {
		return nil
	}
	var ratio float64
	if json.Unmarshal(v["mlp_ratio"], &ratio) != nil || ratio <= 0 || ratio > 64 {
		return nil
	}
	w, n := s["width"], s["layers"]
	// PerceptionEncoderVisionBlock: hidden_dim = int(d_model * mlp_ratio).
	f := float64(int(w * ratio))
	g := s["image_size"] / s["patch_size"]
	cls := boolKey(v, "use_cls_token", false)
	conv1 := 3 * s["patch_size"] * s["patch_size"] * w
	var embed float64
	if cls {
		embed += w
	}
	if boolKey(v, "use_abs_posemb", true) {
		embed += (float64(boolInt(cls)) + g*g) * w
	}
	var norms float64
	if boolKey(v, "use_ln_pre", true) {
		norms += 2 * w
	}
	if boolKey(v, "use_ln_post", false) {
		norms += 2 * w
	}
	block, shard := vitBlock(w, f)
	// ls_init_value null (or 0) builds nn.Identity: no layer scale.
	var lsInit float64
	if raw, present := v["ls_init_value"]; !present {
		lsInit = 0.1
	} else if json.Unmarshal(raw, &lsInit) != nil {
		lsInit = 0
	}
	if lsInit != 0 {
		block += 2 * w
	}
	down := (w*2*w*9 + 2*w) + (2*w*4*w*9 + 4*w)
	th := float64(textHidden)
	proj := 4 * w * th
	if boolKey(top, "projector_bias", false) {
		proj += th
	}
	e := &Encoder{Kind: "perception_encoder", Params: conv1 + embed + norms + n*block + down + proj,
		ShardedParams: n*shard + proj,
		Rule: "PerceptionEncoder's blocks split over TP (QKVParallelLinear, ColumnParallelLinear, RowParallelLinear in vLLM's step_vl.py) " +
			"and vit_large_projector (ColumnParallelLinear in step3p7.py); patch and position embeddings, norms, layer scales, " +
			"row-parallel biases and the two downsampling convolutions whole on every GPU"}
	e.Derivation = fmt.Sprintf("conv1 %.0f + embeddings %.0f + norms %.0f + %.0f blocks × %.0f (MLP %.0f) + downsamplers %.0f + projector %.0f",
		conv1, embed, norms, n, block, f, down, proj)
	return e
}

// boolKey reads a boolean under key, def when it is absent or not a boolean.
func boolKey(obj map[string]json.RawMessage, key string, def bool) bool {
	var b bool
	if json.Unmarshal(obj[key], &b) != nil {
		return def
	}
	return b
}
