package resolve

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
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

// ResolveDTypes maps model.weights and vllm.kv_cache_dtype to storage
// dtypes: `auto` weights are the checkpoint's, an `auto` KV cache is the
// model's activation dtype.
func ResolveDTypes(m *catalog.Model, weights, kv string) (DTypes, error) {
	var out DTypes
	ckpt := m.CheckpointDType()
	switch w := strings.ToLower(strings.TrimSpace(weights)); w {
	case "", "auto":
		out.Weights, out.FromCheckpoint = set(ckpt, SourceDerived, "what the checkpoint ships"), true
	case "bf16", "bfloat16", "fp16", "float16", "half", "fp8", "int8", "w8a8", "mxfp4":
		out.Weights = set(canonicalDType(w), SourceSpec, "")
		out.FromCheckpoint = out.Weights.Value == ckpt
		if out.Weights.Value == "mxfp4" && ckpt != "mxfp4" {
			return out, fieldErr("model.weights", "mxfp4 weights exist only for checkpoints shipped in MXFP4 (gpt-oss)", "use auto, bf16 or fp8")
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
	case strings.HasPrefix(k, "fp8"):
		// fp8, fp8_e4m3, fp8_e5m2, fp8_inc and fp8_ds_mla all store one
		// byte per cached value.
		out.KVCache = set("fp8", SourceSpec, "")
	case k == "bf16" || k == "bfloat16" || k == "fp16" || k == "float16" || k == "half":
		out.KVCache = set(canonicalDType(k), SourceSpec, "")
	default:
		return out, fieldErr("vllm.kv_cache_dtype", fmt.Sprintf("unknown kv_cache_dtype %q", kv), "use auto, fp8, fp8_e4m3 or fp8_e5m2")
	}
	return out, nil
}

// resolveDTypes sets the engine's dtypes.
func (d *Deployment) resolveDTypes(weights, kv string) error {
	t, err := ResolveDTypes(d.Model, weights, kv)
	if err != nil {
		return err
	}
	d.Engine.WeightsDType, d.Engine.WeightsFromCheckpoint, d.Engine.KVCacheDType = t.Weights, t.FromCheckpoint, t.KVCache
	return nil
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
