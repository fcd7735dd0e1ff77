package catalog

import (
	"encoding/json"
	"fmt"
	"slices"
)

// Encoder is a multimodal wrapper's vision encoder (tower and projector
// into the language model) as vLLM builds it: its parameters, split into
// those vLLM shards over tensor parallelism and those every GPU holds
// whole. vLLM loads it with the language model, and the start-up log's
// "Model loading took" counts it.
type Encoder struct {
	// Kind names the encoder: "siglip" (Gemma 3), "gemma4_vision"
	// (Gemma 4), "qwen3_vl" (Qwen3-VL, Qwen3-VL-MoE, Qwen3.5, Qwen3.5-MoE),
	// "perception_encoder" (Step-3.7).
	// "moonvit" (Kimi-K2.5, Kimi-K3), "llama4_vision" (Llama 4 Scout and
	// Maverick), "minimax_vl_vision" (MiniMax-M3's minimax_m3_vl).
	Kind string `json:"kind"`
	// Params is the encoder's whole parameter count.
	Params float64 `json:"params"`
	// ShardedParams is the part vLLM splits over TP ranks (the weights of
	// its ColumnParallelLinear / QKVParallelLinear / RowParallelLinear
	// layers and the biases of the column-parallel ones); the rest
	// (patch and position embeddings, norms, row-parallel biases,
	// projectors built as plain parameters) is whole on every GPU.
	ShardedParams float64 `json:"sharded_params"`
	// Rule says how vLLM places it, with the source read.
	Rule string `json:"rule"`
	// Heads are the tower's attention heads where vLLM runs it data
	// parallel, whole on every GPU, when TP does not divide them
	// (MoonViT: is_vit_use_data_parallel(num_heads)); 0 where not read:
	// the sharded part always splits.
	Heads int `json:"heads,omitempty"`
	// Derivation is the count term by term, for the report.
	Derivation string `json:"derivation"`
	// DeepStackLevels is Qwen3-VL's number of DeepStack feature levels
	// (len(deepstack_visual_indexes)): vLLM's wrapper allocates one
	// buffer of max_num_batched_tokens × the text hidden_size per level
	// when it builds the model; 0 for the other encoders.
	DeepStackLevels int `json:"deepstack_levels,omitempty"`
	// EmbedWidth is the width of one multimodal embedding the encoder
	// returns: Qwen3-VL's out_hidden_size × (1 + DeepStack levels), its
	// merger output concatenated with one DeepStack feature per level
	// (Qwen3_VisionTransformer.forward: "torch.cat([hidden_states] +
	// deepstack_feature_lists, dim=1)  # [seq_len, hidden_size * (1 +
	// depth_of_deepstack)]"); 0 where not read.
	EmbedWidth int `json:"embed_width,omitempty"`
	// MaxVideoEmbeds is the largest video item's embeddings, Qwen3-VL's:
	// the video processor's pixel budget over all frames
	// (Qwen3VLVideoPixelBudget) per patch_size² × temporal_patch_size ×
	// spatial_merge_size² pixels; 0 where not read.
	MaxVideoEmbeds int `json:"max_video_embeds,omitempty"`
}

// Qwen3VLVideoPixelBudget is size["longest_edge"] of the Qwen3-VL
// releases' video processor (video_preprocessor_config.json, a file
// beside config.json that vlaunch does not read): 25,165,824 pixels over
// all frames of a video, as llm-d/llm-d-router#1408's benchmark reads it
// for Qwen/Qwen3-VL-30B-A3B-Instruct ("VP_MAX_PIXELS = 25_165_824 #
// video_processor.size[\"longest_edge\"]"). vLLM's smart_resize caps a
// video at it (qwen3_vl.py _get_vision_info), so the largest video is
// 25,165,824 / (16² × 2 × 2²) = 12,288 embeddings, the 153,600 / 12.5 of
// the sipeed 0.11.0 log's encoder budget.
const Qwen3VLVideoPixelBudget = 25165824

// PerGPU is the encoder's parameters on one GPU of a TP group of tp ranks.
func (e *Encoder) PerGPU(tp int) float64 {
	if e == nil {
		return 0
	}
	if tp < 1 || !e.SplitOverTP(tp) {
		tp = 1
	}
	return e.Params - e.ShardedParams + e.ShardedParams/float64(tp)
}

// SplitOverTP reports whether vLLM splits the encoder's sharded part over
// tp ranks: always, unless its Heads are known and tp does not divide them
// (vLLM then falls back to data parallelism: "The number of vision
// attention heads is not divisible by the tensor parallel size").
func (e *Encoder) SplitOverTP(tp int) bool {
	return e != nil && (e.Heads <= 0 || tp <= 1 || e.Heads%tp == 0)
}

// vitBlock is one pre-norm ViT block with LayerNorms (weight and bias),
// a fused q/k/v projection and an output projection with biases, and a
// two-matrix MLP with biases: SigLIP's SiglipEncoderLayer and Qwen3-VL's
// Qwen3_VisionBlock have this shape. sharded is what vLLM splits over TP:
// qkv (QKVParallelLinear / ColumnParallelLinear) weight and bias, the
// output projection's weight (RowParallelLinear, its bias whole), fc1
// (column) weight and bias, fc2 (row) weight.
func vitBlock(h, i float64) (total, sharded float64) {
	norms := 2 * 2 * h
	qkv := 3*h*h + 3*h
	proj := h*h + h
	fc1 := h*i + i
	fc2 := i*h + h
	return norms + qkv + proj + fc1 + fc2, qkv + h*h + fc1 + i*h
}

// readEncoder counts the vision encoder the wrapper's vision_config
// describes, for the wrappers whose vLLM module was read; nil when the
// wrapper is another, or the vision_config lacks a size it needs (the
// note then says the encoder is not counted). textHidden is the language
// model's hidden_size (the projector's output).
func readEncoder(w wrapper, textHidden int) *Encoder {
	if w.vision == nil || textHidden <= 0 {
		return nil
	}
	switch w.modelType {
	case "gemma3":
		return siglipEncoder(w.vision, textHidden)
	case "gemma4":
		return gemma4Encoder(w.vision, textHidden)
	case "qwen3_vl", "qwen3_vl_moe":
		return qwen3VLEncoder(w.vision, true)
	case "qwen3_5", "qwen3_5_moe":
		// Qwen3.5's wrappers build the same Qwen3_VisionTransformer
		// (vllm/model_executor/models/qwen3_5.py read at commit 36c110b,
		// Qwen3_5ForConditionalGeneration and its MoE sibling) and
		// allocate no DeepStack buffers (their deepstack_visual_indexes
		// are empty).
		return qwen3VLEncoder(w.vision, false)
	case "step3p7":
		return perceptionEncoder(w.vision, w.top, textHidden)
	case "kimi_k25":
		return moonViTEncoder(w.vision, textHidden, false)
	case "kimi_k3":
		return moonViTEncoder(w.vision, textHidden, true)
	case "llama4":
		return llama4Encoder(w.vision, textHidden)
	case minimaxM3Wrapper:
		return minimaxM3Encoder(w.vision, w.top, textHidden)
	}
	return nil
}

// llama4Encoder is Llama 4's vision tower and projector as vLLM builds
// them (vllm/model_executor/models/mllama4.py read at commit 60d375c:
// Llama4ForConditionalGeneration.__init__ builds Llama4VisionModel and
// Llama4MultiModalProjector with quant_config None, so they stay in the
// model dtype whatever the checkpoint's quantization):
// Llama4UnfoldConvolution's linear (num_channels × patch² × h, no bias,
// ColumnParallelLinear); class_embedding (h) and positional_embedding_vlm
// ((image_size / patch_size)² + 1 rows of h), plain parameters;
// layernorm_pre and layernorm_post (LayerNorms, 2h each); num_hidden_layers
// Llama4VisionEncoderLayers, each a ViT block (vitBlock: qkv_proj
// QKVParallelLinear with bias, o_proj RowParallelLinear with bias,
// Llama4VisionMLP fc1 ColumnParallelLinear and fc2 RowParallelLinear with
// biases, two LayerNorms); the vision_adapter's Llama4VisionMLP
// (intermediate_size → projector_input_dim → projector_output_dim, biases
// only when multi_modal_projector_bias); and the projector's linear_1
// (vision_output_dim × text hidden_size, no bias, ColumnParallelLinear).
// Llama4VisionAttention asserts that TP divides the heads (no data-parallel
// fallback), so Heads is left 0: the sharded part always splits.
func llama4Encoder(v map[string]json.RawMessage, textHidden int) *Encoder {
	s, ok := sizes(v, map[string]int{"hidden_size": 0, "intermediate_size": 0, "num_hidden_layers": 0,
		"patch_size": 0, "image_size": 0, "num_channels": 3, "projector_input_dim": 0, "projector_output_dim": 0,
		"vision_output_dim": 0})
	if !ok || int(s["image_size"])%int(s["patch_size"]) != 0 {
		return nil
	}
	h, i, n := s["hidden_size"], s["intermediate_size"], s["num_hidden_layers"]
	side := s["image_size"] / s["patch_size"]
	patch := s["num_channels"] * s["patch_size"] * s["patch_size"] * h
	cls, pos, norms := h, (side*side+1)*h, 4*h
	block, shard := vitBlock(h, i)
	pin, pout := s["projector_input_dim"], s["projector_output_dim"]
	adapter, adapterShard := i*pin+pin*pout, i*pin+pin*pout
	var bias bool
	if json.Unmarshal(v["multi_modal_projector_bias"], &bias) == nil && bias {
		adapter += pin + pout
		adapterShard += pin
	}
	proj := s["vision_output_dim"] * float64(textHidden)
	e := &Encoder{Kind: "llama4_vision",
		Params:        patch + cls + pos + norms + n*block + adapter + proj,
		ShardedParams: patch + n*shard + adapterShard + proj,
		Rule: "Llama 4's vision tower (Llama4VisionModel) and projector split over TP (QKVParallelLinear, ColumnParallelLinear, " +
			"RowParallelLinear in vLLM's mllama4.py), in the model dtype (quant_config None); class and position embeddings, " +
			"LayerNorms and row-parallel biases whole on every GPU"}
	e.Derivation = fmt.Sprintf("patch linear %.0f + class embedding %.0f + position embedding %.0f×%.0f + pre/post norms %.0f + "+
		"%.0f blocks × %.0f + adapter %.0f×%.0f + %.0f×%.0f + projector %.0f×%d",
		patch, cls, side*side+1, h, norms, n, block, i, pin, pin, pout, s["vision_output_dim"], textHidden)
	return e
}

// sizes reads the named positive integers of a vision_config, with
// defaults for those absent (a default of 0 makes the key required);
// ok is false when a required one is missing.
func sizes(v map[string]json.RawMessage, keys map[string]int) (map[string]float64, bool) {
	out := map[string]float64{}
	for k, def := range keys {
		n := intKey(v, k)
		if n == 0 {
			n = def
		}
		if n <= 0 || n > 1<<20 {
			return nil, false
		}
		out[k] = float64(n)
	}
	return out, true
}

// siglipEncoder is Gemma 3's vision tower as vLLM builds it
// (vllm/model_executor/models/gemma3_mm.py read at commit e5fa945:
// Gemma3ForConditionalGeneration.__init__ builds SiglipVisionModel and
// Gemma3MultiModalProjector unconditionally; siglip.py read at commit
// 0c028ba): a Conv2d patch embedding (3 × patch² × h + h), a learned
// position embedding (nn.Embedding) of (image_size / patch_size)² rows,
// num_hidden_layers ViT blocks, the post LayerNorm (2h; vision_use_head
// false in Gemma 3), and the projector's mm_input_projection_weight (h ×
// text hidden_size, a plain parameter) and mm_soft_emb_norm (h). The ViT
// blocks' linear layers are QKVParallelLinear, RowParallelLinear and
// ColumnParallelLinear, with disable_tp only when mm_encoder_tp_mode is
// "data" (vllm/config/multimodal.py: default "weights"). siglip.py of
// 2024 (commit 0531c22) sharded attention only with xformers and heads
// divisible by TP; vlaunch follows the newer file.
func siglipEncoder(v map[string]json.RawMessage, textHidden int) *Encoder {
	s, ok := sizes(v, map[string]int{"hidden_size": 0, "intermediate_size": 0, "num_hidden_layers": 0,
		"patch_size": 0, "image_size": 0, "num_channels": 3})
	if !ok || int(s["image_size"])%int(s["patch_size"]) != 0 {
		return nil
	}
	h, i, n := s["hidden_size"], s["intermediate_size"], s["num_hidden_layers"]
	side := s["image_size"] / s["patch_size"]
	patch := s["num_channels"]*s["patch_size"]*s["patch_size"]*h + h
	pos := side * side * h
	block, shard := vitBlock(h, i)
	post := 2 * h
	proj := h*float64(textHidden) + h
	e := &Encoder{Kind: "siglip", Params: patch + pos + n*block + post + proj, ShardedParams: n * shard,
		Rule: "SigLIP's ViT blocks split over TP (QKVParallelLinear, ColumnParallelLinear, RowParallelLinear in vLLM's siglip.py); " +
			"embeddings, norms and Gemma3MultiModalProjector whole on every GPU"}
	e.Derivation = fmt.Sprintf("patch embedding %.0f + position embedding %.0f×%.0f + %.0f blocks × %.0f + post norm %.0f + projector %.0f×%d + norm %.0f",
		patch, side*side, h, n, block, post, h, textHidden, h)
	return e
}

// gemma4Encoder is Gemma 4's vision tower as vLLM builds it
// (vllm/model_executor/models/gemma4_mm.py, read at commit 01bae21:
// AutoModel.from_config(vision_config), transformers' Gemma4VisionModel,
// its nn.Linear layers then replaced by recursive_replace_linear, whose
// replace_linear_class defaults to ReplicatedLinear in vLLM's
// transformers/utils.py; then Gemma4MultimodalEmbedder's
// embedding_projection, a ReplicatedLinear; the tower is left unquantized,
// tower_quant None, unless hidden and intermediate sizes are multiples of
// 64, and 4304 is not):
// the patch embedder's input_proj (3 × patch² × h, no bias) and its 2-D
// position_embedding_table (2 × position_embedding_size × h);
// num_hidden_layers Gemma-style layers, each q/k/v/o without bias
// (heads × head_dim), q_norm and k_norm (head_dim each; v_norm has no
// weight), four RMSNorms (h each) and a gated MLP (gate, up, down: 3 h i);
// the standardize bias and scale (2h) when standardize is set; and the
// embedder's projection (h × text hidden_size; its pre-projection norm has
// no weight). Every module is replicated: nothing is split over TP.
func gemma4Encoder(v map[string]json.RawMessage, textHidden int) *Encoder {
	s, ok := sizes(v, map[string]int{"hidden_size": 0, "intermediate_size": 0, "num_hidden_layers": 0,
		"num_attention_heads": 0, "patch_size": 0, "position_embedding_size": 0})
	if !ok {
		return nil
	}
	h, i, n := s["hidden_size"], s["intermediate_size"], s["num_hidden_layers"]
	heads := s["num_attention_heads"]
	kv := float64(firstPositive(intKey(v, "num_key_value_heads"), int(heads)))
	hd := float64(firstPositive(intKey(v, "head_dim"), int(h/heads)))
	patch := 3 * s["patch_size"] * s["patch_size"] * h
	pos := 2 * s["position_embedding_size"] * h
	attn := h*heads*hd + 2*h*kv*hd + heads*hd*h
	layer := attn + 2*hd + 4*h + 3*h*i
	var std float64
	var standardize bool
	if json.Unmarshal(v["standardize"], &standardize) == nil && standardize {
		std = 2 * h
	}
	proj := h * float64(textHidden)
	e := &Encoder{Kind: "gemma4_vision", Params: patch + pos + n*layer + std + proj,
		Rule: "Gemma 4's vision tower (transformers' Gemma4VisionModel, its linear layers replaced by vLLM's recursive_replace_linear) " +
			"and embed_vision (ReplicatedLinear): whole on every GPU (vLLM's gemma4_mm.py)"}
	e.Derivation = fmt.Sprintf("input_proj %.0f + position table 2×%.0f×%.0f + %.0f layers × %.0f + standardize %.0f + embed_vision %.0f×%d",
		patch, s["position_embedding_size"], h, n, layer, std, h, textHidden)
	return e
}

// qwen3VLEncoder is Qwen3-VL's vision transformer as vLLM builds it
// (vllm/model_executor/models/qwen3_vl.py, Qwen3_VisionTransformer, read
// at commit 002d7b9; Qwen3-VL-MoE's qwen3_vl_moe.py reuses it): a Conv3d
// patch embedding (in_channels × temporal_patch_size × patch² × h + h), a
// learned position embedding (num_position_embeddings × h), depth ViT
// blocks, the merger (LayerNorm over h, then fc1 of (h × merge²)² and fc2
// to out_hidden_size, both with bias) and one DeepStack merger per
// deepstack_visual_indexes entry (the same, its LayerNorm over h × merge²).
// The blocks' and mergers' linear layers are ColumnParallelLinear /
// RowParallelLinear (disable_tp only in mm_encoder_tp_mode "data"). The
// wrapper passes the checkpoint's quant_config to the tower (GPTQ's
// excepted, _maybe_ignore_quant_config); vlaunch counts the tower in the
// activation dtype, as a checkpoint's exclusion list usually keeps it.
func qwen3VLEncoder(v map[string]json.RawMessage, deepStackBuffers bool) *Encoder {
	s, ok := sizes(v, map[string]int{"depth": 0, "hidden_size": 0, "intermediate_size": 0, "patch_size": 0,
		"temporal_patch_size": 0, "in_channels": 3, "num_position_embeddings": 0, "out_hidden_size": 0, "spatial_merge_size": 0})
	if !ok {
		return nil
	}
	var deep []int
	if raw, present := v["deepstack_visual_indexes"]; present && json.Unmarshal(raw, &deep) != nil {
		return nil
	}
	h, i, n, out := s["hidden_size"], s["intermediate_size"], s["depth"], s["out_hidden_size"]
	merged := h * s["spatial_merge_size"] * s["spatial_merge_size"]
	patch := s["in_channels"]*s["temporal_patch_size"]*s["patch_size"]*s["patch_size"]*h + h
	pos := s["num_position_embeddings"] * h
	block, shard := vitBlock(h, i)
	mergerShard := merged*merged + merged + merged*out
	merger := 2*h + mergerShard + out
	deepMerger := 2*merged + mergerShard + out
	nd := float64(len(deep))
	e := &Encoder{Kind: "qwen3_vl", Params: patch + pos + n*block + merger + nd*deepMerger,
		ShardedParams: n*shard + (1+nd)*mergerShard,
		Rule: "Qwen3-VL's ViT blocks and mergers split over TP (ColumnParallelLinear / RowParallelLinear in vLLM's qwen3_vl.py, " +
			"mm_encoder_tp_mode \"weights\"); patch and position embeddings, norms and row-parallel biases whole on every GPU"}
	e.Derivation = fmt.Sprintf("patch embedding %.0f + position embedding %.0f + %.0f blocks × %.0f + merger %.0f + %d DeepStack mergers × %.0f",
		patch, pos, n, block, merger, len(deep), deepMerger)
	if deepStackBuffers {
		e.DeepStackLevels = len(deep)
	}
	e.EmbedWidth = int(out) * (1 + len(deep))
	e.MaxVideoEmbeds = int(Qwen3VLVideoPixelBudget / (s["patch_size"] * s["patch_size"] * s["temporal_patch_size"] *
		s["spatial_merge_size"] * s["spatial_merge_size"]))
	return e
}

// moonViTEncoder is Kimi-K2.5's and Kimi-K3's vision tower and projector
// as vLLM builds them (vllm/model_executor/models/kimi_k25_vit.py read at
// commit 055e47c2, MoonViT3dPretrainedModel and KimiK25MultiModalProjector;
// Kimi-K2.5's wrapper in kimi_k25.py read at commit 009dff45 builds both in
// the model dtype with no quant_config, and a later kimi_k25.py drops a
// compressed-tensors quant_config for them in _maybe_ignore_quant_config, so
// the INT4 checkpoint's towers stay BF16; Kimi-K3's wrapper,
// KimiK3ForConditionalGeneration in vllm/models/kimi_k3/nvidia/model.py
// read at 006193b5, builds the same two classes from kimi_k25_vit with the
// same _maybe_ignore_quant_config, so its MXFP4 checkpoint's tower is BF16
// too). The vision_config uses the remote code's vt_* names, which vLLM's
// KimiK25VisionConfig and KimiK3VisionConfig read as the plain ones:
//
//   - a Conv2d patch embedding (3 × patch² × h, + h with
//     patch_embed_proj_bias), the learned 2-D position table
//     init_pos_emb_height × init_pos_emb_width × h (its temporal sin-cos
//     table is a non-persistent buffer);
//   - vt_num_hidden_layers MoonViTEncoderLayer blocks: norm0 and norm1
//     (norm_type layernorm: weight and bias; rmsnorm: weight), wqkv
//     (QKVParallelLinear h → 3 × qkv_hidden_size, qkv_hidden_size the
//     tower's width when absent) and wo (RowParallelLinear back to h), with
//     biases when attn_bias, and the mlp2 MLP fc0 (ColumnParallelLinear h →
//     i) and fc1 (RowParallelLinear i → h), with biases when linear_bias;
//     split over TP unless the encoder runs data parallel, which vLLM does
//     when TP does not divide the tower's heads (vision.py
//     is_vit_use_data_parallel(num_heads), read at b3bbd948, called with
//     the heads by both kimi_k25_vit.py at 055e47c2 and Kimi-K3's wrapper):
//     Encoder.Heads;
//   - the final norm (norm_type);
//   - the projector, ReplicatedLinear, over the merged width m = h × merge²:
//     "patchmerger" a LayerNorm over h, then linear_1 m × m and linear_2
//     m × mm_hidden_size, both with bias; "patchmergerv2" linear_1 m × m and
//     linear_2 m × text_hidden_size without bias, then a post RMSNorm over
//     text_hidden_size.
//
// The defaults are the wrappers' configs': Kimi-K2.5's MoonViT3dPretrained-
// Model getattr defaults (attn_bias, linear_bias and patch_embed_proj_bias
// true, layernorm, patchmerger); Kimi-K3's KimiK3VisionConfig (vllm/
// foundation/integrations/transformers_utils/configs/kimi_k3.py read at
// 055e47c2: qkv_hidden_size 1536, rmsnorm, no biases, patchmergerv2).
// KimiK25Config sets mm_hidden_size to the text hidden_size when the file's
// equals the tower's (Kimi-K2.5 writes 1152 for both); KimiK3Config
// overrides text_hidden_size with the text model's hidden_size. Other
// projector, norm, MLP or position-embedding types are not read (nil: not
// counted).
func moonViTEncoder(v map[string]json.RawMessage, textHidden int, k3 bool) *Encoder {
	alias := func(plain, vt string) int { return firstPositive(intKey(v, plain), intKey(v, vt)) }
	h := float64(alias("hidden_size", "vt_hidden_size"))
	i := float64(alias("intermediate_size", "vt_intermediate_size"))
	n := float64(alias("num_hidden_layers", "vt_num_hidden_layers"))
	heads := alias("num_attention_heads", "vt_num_attention_heads")
	s, ok := sizes(v, map[string]int{"patch_size": 0, "init_pos_emb_height": 0, "init_pos_emb_width": 0})
	if !ok || h <= 0 || i <= 0 || n <= 0 || h > 1<<16 || i > 1<<18 || n > 1000 || heads > 1<<10 {
		return nil
	}
	l := moonViTLayout{norm: "layernorm", projector: "patchmerger", attnBias: true, linearBias: true, patchBias: true}
	if k3 {
		l = moonViTLayout{qkv: 1536, norm: "rmsnorm", projector: "patchmergerv2"}
		if heads <= 0 {
			return nil // the heads decide whether vLLM splits the tower
		}
	}
	if !l.read(v) {
		return nil
	}
	q := h
	if raw, present := v["qkv_hidden_size"]; present && string(raw) != "null" {
		q = float64(intKey(v, "qkv_hidden_size"))
	} else if l.qkv > 0 {
		q = float64(l.qkv)
	}
	if q <= 0 || q > 1<<16 || (heads > 0 && int(q)%heads != 0) {
		return nil
	}
	merge := [2]int{2, 2}
	if raw, present := v["merge_kernel_size"]; present {
		var mk []int
		if json.Unmarshal(raw, &mk) != nil || len(mk) != 2 || mk[0] <= 0 || mk[1] <= 0 || mk[0] > 64 || mk[1] > 64 {
			return nil
		}
		merge = [2]int{mk[0], mk[1]}
	}
	norm := 2 * h // LayerNorm: weight and bias
	if l.norm == "rmsnorm" {
		norm = h
	}
	patch := 3 * s["patch_size"] * s["patch_size"] * h
	if l.patchBias {
		patch += h
	}
	pos := s["init_pos_emb_height"] * s["init_pos_emb_width"] * h
	qkv, wo, fc0, fc1 := 3*q*h, q*h, h*i, i*h
	if l.attnBias {
		qkv, wo = qkv+3*q, wo+h
	}
	if l.linearBias {
		fc0, fc1 = fc0+i, fc1+h
	}
	block := 2*norm + qkv + wo + fc0 + fc1
	// Column-parallel weights and biases, row-parallel weights.
	shard := qkv + q*h + fc0 + i*h
	merged := h * float64(merge[0]*merge[1])
	var out, proj float64
	var projText string
	switch l.projector {
	case "patchmergerv2":
		out = float64(textHidden)
		if th := intKey(v, "text_hidden_size"); th > 0 && !k3 {
			out = float64(th)
		}
		proj = merged*merged + merged*out + out
		projText = fmt.Sprintf("patchmergerv2 %.0f (%.0f², %.0f×%.0f, post norm %.0f)", proj, merged, merged, out, out)
	default:
		out = float64(textHidden)
		if mm := intKey(v, "mm_hidden_size"); mm > 0 && float64(mm) != h {
			out = float64(mm)
		}
		proj = 2*h + merged*merged + merged + merged*out + out
		projText = fmt.Sprintf("projector %.0f (norm, %.0f², %.0f×%.0f)", proj, merged, merged, out)
	}
	e := &Encoder{Kind: "moonvit", Params: patch + pos + n*block + norm + proj, ShardedParams: n * shard, Heads: heads,
		Rule: "MoonViT's blocks split over TP (QKVParallelLinear, ColumnParallelLinear, RowParallelLinear in vLLM's kimi_k25_vit.py); " +
			"patch embedding, position table, norms and the patchmerger projector (ReplicatedLinear) whole on every GPU, in BF16"}
	if k3 {
		e.Rule = "Kimi-K3's MoonViT (vLLM's kimi_k3 wrapper builds kimi_k25_vit.py's tower and projector, in BF16): its blocks split over TP " +
			"(QKVParallelLinear, ColumnParallelLinear, RowParallelLinear) where TP divides its heads; " +
			"patch embedding, position table, norms and the patchmergerv2 projector (ReplicatedLinear) whole on every GPU"
	}
	e.Derivation = fmt.Sprintf("patch embedding %.0f + position table %.0f×%.0f×%.0f + %.0f blocks × %.0f + final norm %.0f + %s",
		patch, s["init_pos_emb_height"], s["init_pos_emb_width"], h, n, block, norm, projText)
	return e
}

// moonViTLayout is what of MoonViT's shape its vision_config may change
// beyond the sizes, starting from the wrapper's defaults.
type moonViTLayout struct {
	qkv                             int // qkv_hidden_size default (0: the tower's width)
	norm, projector                 string
	attnBias, linearBias, patchBias bool
}

// read overrides l with the vision_config's keys; false when one names a
// layout vLLM's MoonViT does not build (or vlaunch does not count).
func (l *moonViTLayout) read(v map[string]json.RawMessage) bool {
	for key, ptr := range map[string]*bool{"attn_bias": &l.attnBias, "linear_bias": &l.linearBias, "patch_embed_proj_bias": &l.patchBias} {
		if raw, present := v[key]; present && json.Unmarshal(raw, ptr) != nil {
			return false
		}
	}
	for key, allowed := range map[string][]string{
		"norm_type": {"layernorm", "rmsnorm"}, "mm_projector_type": {"patchmerger", "patchmergerv2"},
		"pos_emb_type": {"divided_fixed"}, "mlp_type": {"mlp2"},
	} {
		raw, present := v[key]
		if !present {
			continue
		}
		var got string
		if json.Unmarshal(raw, &got) != nil || !slices.Contains(allowed, got) {
			return false
		}
		switch key {
		case "norm_type":
			l.norm = got
		case "mm_projector_type":
			l.projector = got
		}
	}
	return true
}
