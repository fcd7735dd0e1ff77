package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// What the release makes of a KV cache the spec leaves to vLLM: DeepSeek-V4
// is given fp8 (its attention asserts it; the generator writes the flag),
// and a ModelOpt checkpoint stating kv_cache_quant_algo FP8 caches in FP8
// from 0.14.0 when the flag is unset — not when the spec says auto, and
// not before the release that reads it.
func TestReleaseKVDType(t *testing.T) {
	v4, err := catalog.LookupModel("deepseek-v4-flash")
	if err != nil {
		t.Fatal(err)
	}
	llama, err := catalog.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	modelopt := *llama
	modelopt.Quant.KVCacheQuantAlgo = "FP8"
	for _, tc := range []struct {
		name      string
		model     *catalog.Model
		version   string
		kv        string
		want      string
		wantFlag  string
		wantSpecd bool
	}{
		{"V4, unset", v4, "0.21.0", "", "fp8", "fp8", false},
		{"V4, auto", v4, "0.21.0", "auto", "fp8", "fp8", false},
		{"V4, fp8 in the spec", v4, "0.21.0", "fp8", "fp8", "", true},
		{"ModelOpt FP8, unset, 0.14", &modelopt, "0.14.0", "", "fp8", "", false},
		{"ModelOpt FP8, explicit auto", &modelopt, "0.14.0", "auto", "bf16", "", false},
		{"ModelOpt FP8, unset, 0.12", &modelopt, "0.12.0", "", "bf16", "", false},
		{"plain checkpoint", llama, "0.14.0", "", "bf16", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, _, err := vllm.ResolveString(tc.version)
			if err != nil {
				t.Fatal(err)
			}
			d := &Deployment{Model: tc.model, Release: r}
			d.Version = set(tc.version, SourceSpec, "")
			if err := d.resolveDTypes("auto", tc.kv); err != nil {
				t.Fatal(err)
			}
			e := d.Engine
			if e.KVCacheDType.Value != tc.want || e.KVCacheDTypeFlag != tc.wantFlag || (e.KVCacheDType.From == SourceSpec) != tc.wantSpecd {
				t.Errorf("kv %s (%s: %s), flag %q; want %s, flag %q", e.KVCacheDType.Value, e.KVCacheDType.From, e.KVCacheDType.Why, e.KVCacheDTypeFlag, tc.want, tc.wantFlag)
			}
		})
	}
}
