package resolve

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/schemas"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestKVCacheDTypesOneList (QA #37 finding 2): the quick form's
// --kv-cache-dtype (ResolveDTypes) accepts exactly the values the spec's
// schema enum allows — fp16, which the schema refuses (SPEC005), was
// accepted by the quick form — and every value is one vLLM accepts from
// 0.11.0 (the release table's --kv-cache-dtype choices).
func TestKVCacheDTypesOneList(t *testing.T) {
	var doc struct {
		Definitions struct {
			VLLM struct {
				Properties struct {
					KV struct {
						Enum []string `json:"enum"`
					} `json:"kv_cache_dtype"`
				} `json:"properties"`
			} `json:"vllm"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(schemas.Deployment, &doc); err != nil {
		t.Fatal(err)
	}
	enum := doc.Definitions.VLLM.Properties.KV.Enum
	if len(enum) == 0 {
		t.Fatal("no vllm.kv_cache_dtype enum in the schema")
	}
	if a, b := slices.Sorted(slices.Values(enum)), slices.Sorted(slices.Values(KVCacheDTypes)); !slices.Equal(a, b) {
		t.Errorf("schema enum %v, resolve.KVCacheDTypes %v", a, b)
	}
	m, err := catalog.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	// 0.11.1: the first release with every value of the list (choices45:
	// the v0.11.0 tag's CacheDType has no fp8_ds_mla yet).
	rel, _, err := vllm.ResolveString("0.11.1")
	if err != nil {
		t.Fatal(err)
	}
	f, ok := rel.Flag("kv-cache-dtype")
	if !ok {
		t.Fatal("0.11.1 has no --kv-cache-dtype")
	}
	for _, kv := range KVCacheDTypes {
		if _, err := ResolveDTypes(m, "auto", kv); err != nil {
			t.Errorf("%s: %v", kv, err)
		}
		if !slices.Contains(f.Choices, kv) {
			t.Errorf("%s: vLLM 0.11.1's choices %v lack it", kv, f.Choices)
		}
	}
	for _, kv := range []string{"fp16", "float16", "half", "bf16", "int8"} {
		_, err := ResolveDTypes(m, "auto", kv)
		if err == nil {
			t.Errorf("%s accepted; the schema refuses it", kv)
			continue
		}
		if fe, ok := err.(*FieldError); !ok || !strings.Contains(fe.Hint, "fp8_ds_mla") || !strings.Contains(fe.Hint, "bfloat16") {
			t.Errorf("%s: hint %v does not list the accepted values", kv, err)
		}
	}
	// bfloat16 stores two bytes, the fp8 spellings one.
	for kv, want := range map[string]string{"bfloat16": "bf16", "fp8_e5m2": "fp8", "fp8_ds_mla": "fp8", "auto": "bf16"} {
		if got, _ := ResolveDTypes(m, "auto", kv); got.KVCache.Value != want {
			t.Errorf("%s: KV cache %s, want %s", kv, got.KVCache.Value, want)
		}
	}
}
