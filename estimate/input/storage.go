package input

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// Storage sizes (bytes per parameter) of the formats vLLM loads.
const (
	// BytesBF16 is a 16-bit parameter (BF16 or FP16).
	BytesBF16 = 2.0
	bytesFP8  = 1.0
	bytesFP32 = 4.0
	// fp32ScaleBytes is one float32 scale (DeepSeek block-FP8 weight_scale_inv,
	// compressed-tensors per-channel weight_scale).
	fp32ScaleBytes = 4.0
	// MXFP4 (OCP microscaling): 4-bit E2M1 values plus one 8-bit E8M0 scale
	// per block of 32 values: 0.5 + 1/32 bytes per parameter.
	mxfp4BlockValues = 32
	bytesMXFP4       = 0.5 + 1.0/mxfp4BlockValues
	// defaultFP8Block is DeepSeek's weight_block_size when a config lacks it.
	defaultFP8Block = 128
)

// DTypeRule says how one component is stored.
type DTypeRule struct {
	DType         string  `json:"dtype"`
	BytesPerParam float64 `json:"bytes_per_param"`
	Why           string  `json:"why"`
}

// quantizedComponents are the linear layers a quantized checkpoint converts;
// embeddings, LM head, router and norms stay in BF16 in every catalog
// checkpoint (DeepSeek/Kimi/Qwen3 FP8, gpt-oss MXFP4, RedHat FP8-dynamic/W8A8).
var quantizedComponents = map[string]bool{
	CompAttention: true, CompDenseMLP: true, CompRouted: true, CompRedundant: true, CompShared: true,
	// A latent MoE's projections take the model's quantization (vLLM's
	// NemotronHMoE passes quant_config to them).
	CompLatentProj: true,
	// DSA's indexer: wq_b and wk take the model's quantization (vLLM's
	// Indexer passes quant_config), weights_proj (3% of it) stays 16-bit.
	CompIndexer: true,
}

// StorageRule returns how component is stored for the resolved weights dtype.
// It is the one place that decides a checkpoint's storage: the memory model
// sizes the weights by it (memory.Estimate's weight terms) and the step
// model streams them at its bytes (perf.StorageBytesOf).
func StorageRule(in *Input, component string) DTypeRule {
	act := in.ActDType()
	bf := DTypeRule{act, BytesBF16, "kept in " + act}
	if component == CompMLACopies {
		return DTypeRule{act, BytesBF16, "de-quantized copies in the activation dtype"}
	}
	if component == CompRoPECache && in.Model.DSV4 != nil {
		// DeepseekV4ScalingRotaryEmbedding registers its cos_sin_cache in
		// float32 whatever the model dtype ("cos_sin_cache stored as fp32
		// for higher precision RoPE", vllm/model_executor/layers/
		// rotary_embedding/deepseek_scaling_rope.py, the class get_rope
		// picks for is_deepseek_v4).
		return DTypeRule{"fp32", bytesFP32, "vLLM keeps DeepSeek-V4's RoPE cache in float32"}
	}
	if component == CompHyperConn {
		return DTypeRule{"fp32", bytesFP32, "vLLM builds DeepSeek-V4's hyper-connection parameters in float32"}
	}
	fromCkpt := in.WeightsFromCheckpoint && in.WeightsDType == in.Model.CheckpointDType()
	if r, ok := mixedRule(in, component); ok && fromCkpt {
		return r
	}
	if r, ok := expertRule(in.Model, component); ok && fromCkpt {
		return r
	}
	if component == CompLatentProj && in.Model.KimiLinear != nil {
		// Kimi-K3's routed_expert_down_proj / up_proj are ReplicatedLinear
		// with quant_config None (vllm/models/kimi_k3/nvidia/model.py).
		return DTypeRule{act, BytesBF16, "vLLM builds Kimi-K3's latent projections unquantized"}
	}
	if component == CompRouter && in.Model.RouterFP32 {
		return DTypeRule{"fp32", bytesFP32, "vLLM builds this router (gate and its correction bias) in float32"}
	}
	// A checkpoint with per-component shares (4-bit, ModelOpt) has had its
	// exclusion list matched module by module; notConverted is the coarse
	// rule for the others.
	if !quantizedComponents[component] || (in.Model.Quant.Shares == nil && notConverted(in.Model, component)) {
		return bf
	}
	switch in.WeightsDType {
	case catalog.FormatNVFP4, catalog.FormatINT4:
		return fourBitRule(in, component, bf)
	case "mxfp4":
		if in.Model.Quant.Format == catalog.FormatMXFP4 {
			// compressed-tensors mxfp4-pack-quantized (Kimi-K3): what its
			// config groups and ignore list quantize, as NVFP4 and INT4.
			return fourBitRule(in, component, bf)
		}
		if component == CompRouted || component == CompRedundant {
			return DTypeRule{"mxfp4", bytesMXFP4, "4-bit values + one 8-bit scale per 32 (experts padded as vLLM's MXFP4 MoE kernels require)"}
		}
		return bf
	case "fp8":
		return fp8Rule(in, component)
	case "int8":
		if q := in.Model.Quant; q.Method == "compressed-tensors" && q.WeightStrategy == "tensor" && in.WeightsFromCheckpoint {
			return DTypeRule{"int8", bytesFP8, "INT8 (compressed-tensors, strategy tensor): 1 byte, one scale per tensor"}
		}
		return DTypeRule{"int8", bytesFP8 + fp32ScaleBytes/float64(in.Model.HiddenSize), "W8A8: 1 byte + one fp32 scale per output channel"}
	}
	return DTypeRule{in.WeightsDType, BytesBF16, in.WeightsDType}
}

// mixedParts maps the components to catalog.QuantShares.Mixed's parts.
var mixedParts = map[string]string{CompAttention: "attention", CompDenseMLP: "dense_mlp", CompRouted: "routed",
	CompRedundant: "routed", CompShared: "shared", CompIndexer: "indexer", CompLMHead: "lm_head"}

// mixedRule sizes a component of a ModelOpt MIXED_PRECISION checkpoint
// (nvidia/Qwen3.6-35B-A3B-NVFP4) at the mean bytes per parameter of its
// modules' formats (catalog.MixedPart), the LM head included when the
// checkpoint quantizes it; false when the checkpoint is not mixed or the
// component is not a linear one.
func mixedRule(in *Input, component string) (DTypeRule, bool) {
	s := in.Model.Quant.Shares
	part, ok := mixedParts[component]
	if s == nil || len(s.Mixed) == 0 || !ok {
		return DTypeRule{}, false
	}
	act := in.ActDType()
	mp, ok := s.Mixed[part]
	if !ok {
		return DTypeRule{act, BytesBF16, "kept in " + act + " (not in the checkpoint's quantized_layers)"}, true
	}
	dtype, best := act, 0.0
	var parts []string
	for _, f := range []string{catalog.FormatNVFP4, catalog.FormatMXFP4, catalog.FormatINT4, catalog.FormatModelOptFP8, "int8"} {
		if sh := mp.Formats[f]; sh > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f%%", strings.ToUpper(f), 100*sh))
			if sh > best {
				dtype, best = f, sh
			}
		}
	}
	return DTypeRule{dtype, mp.BytesPerParam, fmt.Sprintf("mixed precision (%s): %s of the parameters, each at its format's bytes with its scales (NVFP4 4 bits + one FP8 scale per 16 values, FP8 1 byte); the rest in %s",
		in.Model.Quant.Method, strings.Join(parts, ", "), act)}, true
}

// expertRule sizes the routed experts of a checkpoint that stores them in
// another format than its other linear layers (catalog.Model.
// RoutedExpertFormat, the one source `vlaunch models`, check's weights
// line and ExpertFormat read); false for any other component or model.
// The other linear layers stay block FP8.
func expertRule(m *catalog.Model, component string) (DTypeRule, bool) {
	if component != CompRouted && component != CompRedundant {
		return DTypeRule{}, false
	}
	switch m.RoutedExpertFormat() {
	case catalog.FormatNVFP4:
		// nvidia's DeepSeek-V4-*-NVFP4: moe_quant_algo NVFP4 routes the
		// fp4 experts to ModelOptNvFp4FusedMoE (catalog.readMoEQuantAlgo).
		q := catalog.Quantization{Format: catalog.FormatNVFP4, GroupSize: m.Quant.GroupSize}
		return DTypeRule{catalog.FormatNVFP4, q.BytesPerParam(m.HiddenSize),
			fmt.Sprintf("NVFP4 experts under DeepSeek-V4's FP8 config (moe_quant_algo NVFP4): 4 bits + one FP8 scale per %d values", max(q.GroupSize, 1))}, true
	case catalog.FormatMXFP4:
		// The experts' shapes are not padded here: MiMo-V2.6's (hidden
		// 4,096, width 2,048) and DeepSeek-V4's are multiples of the MXFP4
		// kernels' 256/128.
		return DTypeRule{catalog.FormatMXFP4, bytesMXFP4, MXFP4Experts(m) + ": 4-bit values + one 8-bit scale per 32"}, true
	}
	return DTypeRule{}, false
}

// MXFP4Experts says why a checkpoint's routed experts are MXFP4 where its
// other linear layers are not, or "" when they are not: catalog.Model.
// RoutedExpertFormat decides (DeepSeek-V4's expert_dtype fp4 without
// moe_quant_algo NVFP4, which vLLM's DeepseekV4FP8Config loads with
// Mxfp4MoEMethod; an FP8 config's store_dtype mxfp4, which
// Fp8Config.get_quant_method routes to Mxfp4MoEMethod), this names why.
func MXFP4Experts(m *catalog.Model) string {
	switch {
	case m.RoutedExpertFormat() != catalog.FormatMXFP4:
		return ""
	case m.DSV4 != nil && m.DSV4.ExpertDType == "fp4":
		return "DeepSeek-V4's FP4 experts (expert_dtype fp4)"
	}
	return "MXFP4 experts under an FP8 config (store_dtype mxfp4, Mxfp4MoEMethod)"
}

// fp8Rule distinguishes block-scaled FP8 checkpoints (128×128 blocks, one
// fp32 scale each), per-channel FP8 (compressed-tensors FP8-dynamic) and
// vLLM's online FP8 quantization of a 16-bit checkpoint (one scale per tensor).
func fp8Rule(in *Input, component string) DTypeRule {
	q := in.Model.Quant
	switch {
	case q.Method == "fp8" && in.WeightsFromCheckpoint:
		b0, b1 := defaultFP8Block, defaultFP8Block
		if len(q.WeightBlockSize) == 2 {
			b0, b1 = q.WeightBlockSize[0], q.WeightBlockSize[1]
		}
		r := DTypeRule{"fp8", bytesFP8 + fp32ScaleBytes/float64(b0*b1), fmt.Sprintf("block FP8: 1 byte + one fp32 scale per %d×%d block", b0, b1)}
		// ignored_layers: Fp8Config leaves each listed module unquantized
		// (MiMo-V2.6: o_proj BF16 beside FP8 q/k/v).
		return blended(r, shareOf(in, component), in.ActDType())
	case q.Method == "modelopt" && in.WeightsFromCheckpoint:
		// ModelOpt FP8: one byte and one fp32 scale per tensor, with the
		// checkpoint's exclude_modules kept 16-bit.
		return blended(DTypeRule{"fp8", bytesFP8, "ModelOpt FP8: 1 byte, one scale per tensor"}, shareOf(in, component), in.ActDType())
	case q.Method == "compressed-tensors" && q.WeightStrategy == "tensor" && in.WeightsFromCheckpoint:
		// strategy tensor (nm-testing/Meta-Llama-3.1-8B-Instruct-FP8-hf's
		// naive-quantized FP8): one weight_scale [1] per tensor.
		return DTypeRule{"fp8", bytesFP8, "FP8 (compressed-tensors, strategy tensor): 1 byte, one scale per tensor"}
	case (q.Method == "compressed-tensors" || q.Method == "fbgemm_fp8") && in.WeightsFromCheckpoint:
		// fbgemm_fp8 (Meta's Llama 3.1 FP8 releases) also stores one fp32
		// scale per output channel (vLLM fbgemm_fp8.py weight_scale [N, 1]).
		return DTypeRule{"fp8", bytesFP8 + fp32ScaleBytes/float64(in.Model.HiddenSize), "FP8 (" + q.Method + "): 1 byte + one fp32 scale per output channel"}
	}
	if in.WeightsFromCheckpoint && in.CheckpointDType() == "fp8" {
		// A copy model.path names (resolve.Deployment.PathQuant): vLLM reads
		// its quantization_config, which vlaunch has not; its scales (per
		// tensor or per channel) are under 0.1% of a weight's byte.
		return DTypeRule{"fp8", bytesFP8, "the FP8 checkpoint model.path names: 1 byte (its scales not read: set model.config for them)"}
	}
	return DTypeRule{"fp8", bytesFP8, "online FP8 (--quantization fp8): 1 byte, one scale per tensor"}
}

// notConverted reports components a checkpoint's modules_to_not_convert
// keeps in 16 bits beyond the default set (e.g. "self_attn" patterns).
func notConverted(m *catalog.Model, component string) bool {
	keys := map[string]string{CompAttention: "self_attn", CompShared: "shared_expert"}
	key := keys[component]
	if key == "" {
		return false
	}
	n := 0
	for _, mod := range m.Quant.ModulesNotConverted {
		if namesModule(mod, key) {
			n++
		}
	}
	// A pattern that names the module in (almost) every layer keeps it in 16 bits.
	return n > 0 && n >= m.NumLayers/2
}

// fourBitRule sizes an NVFP4, INT4 or compressed-tensors MXFP4 checkpoint's component: the 4-bit
// format with its scales (catalog.Quantization.BytesPerParam) for the share
// the checkpoint quantizes, the activation dtype for what its exclusion
// list keeps (DeepSeek-V3.1-NVFP4: q_a/q_b/kv_a/kv_b in BF16, o_proj
// NVFP4; Kimi-K2.5: only the routed experts INT4). A 4-bit dtype asked of
// a checkpoint in another format has no storage vlaunch knows: 16-bit.
func fourBitRule(in *Input, component string, bf DTypeRule) DTypeRule {
	q := in.Model.Quant
	if q.Format != in.WeightsDType {
		return DTypeRule{in.WeightsDType, BytesBF16, in.WeightsDType + " asked of a " + in.Model.CheckpointDType() + " checkpoint: sized at 16 bits"}
	}
	b := q.BytesPerParam(in.Model.HiddenSize)
	why := fmt.Sprintf("%s: %.4g bytes per weight with its scales", strings.ToUpper(q.Format), b)
	if q.Format == catalog.FormatNVFP4 {
		why = fmt.Sprintf("NVFP4: 4 bits + one FP8 scale per %d values", max(q.GroupSize, 1))
	} else if q.Format == catalog.FormatMXFP4 {
		why = fmt.Sprintf("MXFP4 (compressed-tensors): 4 bits + one E8M0 scale per %d values", max(q.GroupSize, 1))
	} else if q.GroupSize > 0 {
		zp := ""
		if q.ZeroPoint {
			zp = " and one 4-bit zero point"
		}
		why = fmt.Sprintf("INT4: 4 bits + one 16-bit scale%s per %d values", zp, q.GroupSize)
	}
	return blended(DTypeRule{q.Format, b, why}, shareOf(in, component), bf.DType)
}

// shareOf is the quantized share of a component on one GPU (1
// without shares: a checkpoint with no exclusion list quantizes every
// linear layer); attention's is weighed at one TP rank's head counts.
func shareOf(in *Input, component string) float64 {
	m := in.Model
	s := m.Quant.Shares
	if s == nil {
		return 1
	}
	switch component {
	case CompAttention:
		tp := max(in.Layout.TP, 1)
		return m.AttentionQuantShare(HeadsPerRank(m.NumHeads, tp), KVHeadsPerRank(m, tp))
	case CompDenseMLP:
		return s.DenseMLP
	case CompRouted, CompRedundant:
		return s.Routed
	case CompShared:
		return s.Shared
	case CompIndexer:
		return s.Indexer
	}
	return 1
}

// blended mixes a quantized rule with the 16-bit storage of the excluded
// share: all of one or the other keeps that rule unchanged.
func blended(q DTypeRule, share float64, act string) DTypeRule {
	switch {
	case share >= 1:
		return q
	case share <= 0:
		return DTypeRule{act, BytesBF16, "kept in " + act + " (the checkpoint's exclusion list)"}
	}
	return DTypeRule{q.DType, share*q.BytesPerParam + (1-share)*BytesBF16,
		fmt.Sprintf("%s for %.1f%% of the parameters; the rest (the checkpoint's exclusion list) in %s", q.Why, 100*share, act)}
}

// attentionProjections are what a pattern may name below self_attn and
// still keep the attention's weights 16-bit; norms, biases and the DSA
// indexer's small parts (GLM-5-FP8 lists q_a_layernorm, kv_a_layernorm,
// indexer.k_norm and indexers_proj in every layer) do not.
var attentionProjections = map[string]bool{"q_proj": true, "k_proj": true, "v_proj": true, "o_proj": true, "qkv_proj": true,
	"q_a_proj": true, "q_b_proj": true, "kv_a_proj_with_mqa": true, "kv_b_proj": true, "*": true}

// namesModule reports whether an exclusion pattern names the module key
// (self_attn, shared_expert) itself or one of its weight matrices, not
// only a norm or bias inside it.
func namesModule(pattern, key string) bool {
	i := strings.Index(pattern, key)
	if i < 0 {
		return false
	}
	rest := strings.TrimPrefix(pattern[i+len(key):], "s") // shared_expert(s)
	rest = strings.TrimPrefix(rest, ".")
	switch {
	case rest == "" || rest == "*":
		return true
	case key == "self_attn":
		return attentionProjections[strings.SplitN(rest, ".", 2)[0]]
	}
	return !strings.Contains(rest, "norm") && !strings.HasSuffix(rest, "bias")
}
