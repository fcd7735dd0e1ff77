package resolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// DTypes are the storage dtypes model.weights and vllm.kv_cache_dtype
// resolve to for a model.
type DTypes struct {
	// Weights is bf16 | fp16 | fp8 | int8 | mxfp4.
	Weights Setting[string]
	// FromCheckpoint is true when Weights is what the checkpoint ships.
	FromCheckpoint bool
	// KVCache is bf16 | fp16 | fp8.
	KVCache Setting[string]
}

// KVCacheDTypes are the vllm.kv_cache_dtype values vlaunch accepts, in the
// spec (the enum of schemas/deployment.schema.json, which refuses any other
// as SPEC005) and in check's quick form (--kv-cache-dtype, whose help lists
// them): ResolveDTypes refuses any other, so both paths accept one list.
// They are vLLM's --kv-cache-dtype choices from 0.11.1 to 0.17.1
// (vllm/flags_table.go kvDTypes0111: CacheDType read at the release tags;
// 0.11.0 lacks fp8_ds_mla); generate refuses one the spec's release lacks
// (generator/support.go, the release's flag choices). "fp16"/"float16" are
// no value of this list (vLLM's list gains "float16" only at 0.18.0):
// an fp16 model's KV cache is `auto`.
var KVCacheDTypes = []string{"auto", "bfloat16", "fp8", "fp8_e4m3", "fp8_e5m2", "fp8_inc", "fp8_ds_mla"}

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// ResolveDTypes maps model.weights and vllm.kv_cache_dtype to storage
// dtypes: `auto` weights are the checkpoint's, an `auto` KV cache is the
// model's activation dtype. It knows the model alone (the quick form, a
// hand-built input): a spec's model.path may name another checkpoint
// (Deployment.CheckpointDType), which Deployment.resolveDTypes accounts for.
func ResolveDTypes(m *catalog.Model, weights, kv string) (DTypes, error) {
	return resolveDTypes(m, "", weights, kv)
}

// resolveDTypes is ResolveDTypes for a model served from a checkpoint
// whose name states format named (Deployment.PathQuant; "" for none):
// weights of that format are the checkpoint's own, so neither refused as
// formats only a quantized checkpoint ships (int8, mxfp4) nor quantized
// online. weights auto stay the catalog model's (validate's GEN011 warns
// that the estimate then counts them).
func resolveDTypes(m *catalog.Model, named, weights, kv string) (DTypes, error) {
	var out DTypes
	ckpt := m.CheckpointDType()
	shipped := ckpt // the checkpoint model.path holds
	if named != "" {
		shipped = named
	}
	switch w := strings.ToLower(strings.TrimSpace(weights)); w {
	case "", "auto":
		why := "what the checkpoint ships"
		if f := m.RoutedExpertFormat(); f != "" {
			why += " (routed experts " + f + ")" // catalog.Model.RoutedExpertFormat
		}
		if named != "" {
			why = "the catalog entry's dtype, though model.path names an " + strings.ToUpper(named) + " checkpoint, which vLLM serves instead (GEN011)"
		}
		out.Weights, out.FromCheckpoint = set(ckpt, SourceDerived, why), true
	case "bf16", "bfloat16", "fp16", "float16", "half", "fp8", "int8", "w8a8", "mxfp4":
		out.Weights = set(canonicalDType(w), SourceSpec, "")
		out.FromCheckpoint = out.Weights.Value == ckpt
		if named != "" && out.Weights.Value == named {
			// weights fp8 from a path naming an FP8 copy: served as that
			// checkpoint ships them, not quantized online (no --quantization).
			out.Weights.Why, out.FromCheckpoint = "what the checkpoint model.path names ships", true
		}
		if out.Weights.Value == "mxfp4" && shipped != "mxfp4" {
			return out, fieldErr("model.weights", "mxfp4 weights exist only for checkpoints shipped in MXFP4 (gpt-oss, compressed-tensors mxfp4-pack-quantized)", "use auto, bf16 or fp8")
		}
		if out.Weights.Value == "int8" && shipped != "int8" {
			// The only online quantization vlaunch writes is --quantization
			// fp8 (generator.weightArgs); INT8 W8A8 weights are modelled
			// only as an INT8 checkpoint ships them.
			return out, fieldErr("model.weights", "int8 weights exist only for INT8 W8A8 checkpoints (compressed-tensors, 8-bit integer weights); this checkpoint ships "+shipped, "use auto, bf16 or fp8")
		}
	default:
		return out, fieldErr("model.weights", fmt.Sprintf("unknown weights dtype %q", weights), "use auto, bf16, fp16, fp8, int8 or mxfp4")
	}
	act := "bf16"
	if out.Weights.Value == "fp16" || m.TorchDType == "float16" {
		act = "fp16"
	}
	out.KVCache = set(act, SourceDerived, "the model's activation dtype (kv_cache_dtype auto)")
	switch k := strings.ToLower(strings.TrimSpace(kv)); {
	case k == "" || k == "auto":
	case !slices.Contains(KVCacheDTypes, k):
		return out, fieldErr("vllm.kv_cache_dtype", fmt.Sprintf("unknown kv_cache_dtype %q", kv), "use "+orList(KVCacheDTypes))
	case strings.HasPrefix(k, "fp8"):
		// fp8, fp8_e4m3, fp8_e5m2, fp8_inc and fp8_ds_mla all store one
		// byte per cached value.
		out.KVCache = set("fp8", SourceSpec, "")
	default: // bfloat16
		out.KVCache = set(canonicalDType(k), SourceSpec, "")
	}
	return out, nil
}

// PathQuant is the one decision on a 16-bit model whose model.path names a
// pre-quantized checkpoint (newuser40 finding 1: catalog llama-3.3-70b,
// BF16, served from RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic): the
// format the path's name states (catalog.NamedQuant), or "". It is "" when
// vlaunch read the checkpoint's own config (model.config: its
// quantization_config decides) or the model is already quantized. Weights
// of that format are the checkpoint's own (resolveDTypes: vLLM reads the
// method from the checkpoint, so no --quantization is written);
// validate.BundleRefusals says so, or refuses weights the checkpoint does
// not hold.
func (d *Deployment) PathQuant() string {
	if d.Spec == nil || d.Model == nil || d.Spec.Model.Config != "" {
		return ""
	}
	if ckpt := d.Model.CheckpointDType(); ckpt != "bf16" && ckpt != "fp16" {
		return ""
	}
	return catalog.NamedQuant(d.Spec.Model.Path)
}

// CheckpointDType is the format of the checkpoint the deployment loads,
// the one answer every statement of it reads (check's settings line and
// weights formats, EST106, generate's flags, validate's GEN011): the
// format model.path's name states on a 16-bit catalog model (PathQuant),
// else the model's own (catalog.Model.CheckpointDType: the catalog entry's,
// or model.config's quantization_config).
func (d *Deployment) CheckpointDType() string {
	if f := d.PathQuant(); f != "" {
		return f
	}
	if d.Model == nil {
		return ""
	}
	return d.Model.CheckpointDType()
}

// resolveDTypes sets the engine's dtypes.
func (d *Deployment) resolveDTypes(weights, kv string) error {
	t, err := resolveDTypes(d.Model, d.PathQuant(), weights, kv)
	if err != nil {
		return err
	}
	d.Engine.WeightsDType, d.Engine.WeightsFromCheckpoint, d.Engine.KVCacheDType = t.Weights, t.FromCheckpoint, t.KVCache
	if t.KVCache.From != SourceSpec {
		d.releaseKVDType(strings.ToLower(strings.TrimSpace(kv)))
	}
	return nil
}

// releaseKVDType is what the release makes of a KV cache the spec leaves
// to vLLM (kv "" or "auto"): an architecture whose attention runs only FP8
// gets fp8, which the generator must then write (KVCacheDTypeFlag); a
// ModelOpt checkpoint that states kv_cache_quant_algo FP8 caches in FP8
// when the flag is not given, from the release that reads it (vllm.
// Release.CheckpointKVCache) — an explicit auto was seen to keep the model's
// dtype, so only an unset one counts.
func (d *Deployment) releaseKVDType(kv string) {
	if d.Model == nil {
		return
	}
	if dt, src := d.Release.RequiredKVCacheDType(d.Model.ModelType); dt != "" {
		d.Engine.KVCacheDType = set("fp8", SourceDerived, "the architecture's attention runs only an FP8 KV cache; written as --kv-cache-dtype "+dt+" ("+src+")")
		d.Engine.KVCacheDTypeFlag = dt
		return
	}
	if kv != "" || !strings.EqualFold(d.Model.Quant.KVCacheQuantAlgo, "fp8") {
		return
	}
	c := d.Release.CheckpointKVCache()
	switch c.FP8WhenUnset {
	case vllm.Present:
		d.Engine.KVCacheDType = set("fp8", SourceRelease, "the checkpoint's kv_cache_quant_algo FP8 (hf_quant_config.json), which vLLM "+d.Version.Value+" applies when --kv-cache-dtype is not given")
	case vllm.Maybe:
		d.Engine.KVCacheDType.Why += "; the checkpoint states kv_cache_quant_algo FP8, which vLLM " + d.Version.Value + " may apply (from 0.14.0 it does; 0.13.x unverified): set kv_cache_dtype to be sure"
	}
}

func canonicalDType(s string) string {
	switch s {
	case "bfloat16":
		return "bf16"
	case "float16", "half":
		return "fp16"
	case "w8a8":
		return "int8"
	}
	return s
}
