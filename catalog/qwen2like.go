package catalog

// qwen2Decoders are model_types whose decoder vLLM builds with Qwen2's
// parameters: every layer Qwen2's attention (q/k/v with biases, o_proj
// without, no QK norm) and a SwiGLU MLP without biases, two RMSNorms per
// layer, an untied or tied LM head. They are sized as qwen2 (the Model's
// ModelType; TextModelType keeps their own name).
//
//   - mimo (XiaomiMiMo/MiMo-7B-Base, -RL, -SFT): vllm/model_executor/models/
//     mimo.py (vllm-project/vllm as local-inference-lab/vllm@28be48fa944d8c58aeffd1ab1b56e27828c6b268
//     holds it): MiMoModel(Qwen2Model), MiMoForCausalLM(Qwen2ForCausalLM); its
//     load_weights skips every "mtp_layers" tensor, so the main model is
//     Qwen2's and the num_nextn_predict_layers MTP layers are the mtp
//     proposer's only (mimo_mtp.py). Its config.json ships
//     configuration_mimo.py in auto_map: not native (--trust-remote-code).
//   - seed_oss (ByteDance-Seed/Seed-OSS-36B-Instruct, -Base): vllm/
//     model_executor/models/seed_oss.py at the same commit: SeedOssAttention's
//     qkv_proj is built with bias=True and o_proj with bias=False whatever
//     attention_bias / attention_out_bias say, SeedOssMLP's gate_up_proj and
//     down_proj without bias, input_layernorm and post_attention_layernorm,
//     head_dim read from config.json (128, not hidden / heads = 64), no QK
//     norm, no sliding window (SeedOssModel refuses one); transformers has
//     SeedOssConfig (native).
var qwen2Decoders = map[string]bool{"mimo": true, "seed_oss": true}

func init() {
	for t := range qwen2Decoders {
		textModelFamilies[t] = "qwen2"
	}
	nativeModelTypes["seed_oss"] = true
}

// ministral3 (Ministral-3 3B/8B/14B, Devstral-2, Mistral-Medium-3.5: the
// text_config of a mistral3 wrapper, or a text-only config of
// Ministral3ForCausalLM) is Mistral's decoder in vLLM: the registry maps
// Ministral3ForCausalLM to ("mistral", "MistralForCausalLM") (vllm/
// model_executor/models/registry.py at local-inference-lab/vllm@
// 28be48fa944d8c58aeffd1ab1b56e27828c6b268), and Mistral3ForConditionalGeneration
// builds its language model from text_config with init_vllm_registered_model,
// which resolves model_type ministral3 to Ministral3ForCausalLM (a public
// reading of that path: code search index id 57957724402). MistralForCausalLM
// is LlamaForCausalLM's layers (MistralAttention adds a llama_4_scaling query
// temperature, no weights; ada_rms_norm_t_cond only for Voxtral's realtime
// configs): sized as mistral. transformers has Ministral3Config and the
// wrapper's Mistral3Config (native: no --trust-remote-code).
func init() {
	textModelFamilies["ministral3"] = "mistral"
	nativeModelTypes["ministral3"] = true
	nativeModelTypes["mistral3"] = true
}
