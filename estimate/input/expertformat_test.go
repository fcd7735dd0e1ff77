package input

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestRoutedExpertFormatOneSource: the routed experts' format the storage
// rule sizes and the Marlin query reads (ExpertFormat) is the one
// `vlaunch models` and check's weights line print (catalog.Model.
// RoutedExpertFormat). Before they were one rule, ExpertFormat called
// nvidia's DeepSeek-V4-Flash-NVFP4 experts MXFP4 in groups of 32 (the
// storage rule, NVFP4 in groups of 16), and called DeepSeek-V4's experts
// MXFP4 in a converted BF16 copy the storage rule sizes at 16 bits.
func TestRoutedExpertFormatOneSource(t *testing.T) {
	nvfp4, err := catalog.LoadHFConfig("../../catalog/testdata/ckpt/nvidia--DeepSeek-V4-Flash-NVFP4/config.json")
	if err != nil {
		t.Fatal(err)
	}
	mimo, err := catalog.LoadHFConfig("../../catalog/testdata/hf/mimo-v2.6-flash.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	flash := lookup(t, "deepseek-v4-flash")
	v3 := lookup(t, "deepseek-v3")
	// An FP8 config that is not DeepSeek-V4's with moe_quant_algo NVFP4:
	// vLLM's Fp8Config does not read it (only DeepseekV4FP8Config does),
	// so its experts are the checkpoint's FP8.
	v3nv := *v3
	v3nv.Quant.ExpertFormat, v3nv.Quant.MoEQuantAlgo = catalog.FormatNVFP4, "NVFP4"
	for _, c := range []struct {
		name      string
		m         *catalog.Model
		weights   string
		routed    string // catalog.Model.RoutedExpertFormat
		stored    string // StorageRule's dtype for the routed experts
		expert    string // ExpertFormat
		group     int
		converted bool
	}{
		{"deepseek-v4-flash", flash, "fp8", "mxfp4", "mxfp4", "mxfp4", 32, false},
		{"deepseek-v4-flash as bf16", flash, "bf16", "mxfp4", "bf16", "", 0, true},
		{"DeepSeek-V4-Flash-NVFP4", nvfp4, "fp8", "nvfp4", "nvfp4", "nvfp4", 16, false},
		{"MiMo-V2.6 store_dtype mxfp4", mimo, "fp8", "mxfp4", "mxfp4", "mxfp4", 32, false},
		{"deepseek-v3", v3, "fp8", "", "fp8", "fp8", 0, false},
		{"deepseek-v3 with moe_quant_algo NVFP4", &v3nv, "fp8", "", "fp8", "fp8", 0, false},
	} {
		in := &Input{Model: c.m, WeightsDType: c.weights, WeightsFromCheckpoint: !c.converted}
		if got := c.m.RoutedExpertFormat(); got != c.routed {
			t.Errorf("%s: RoutedExpertFormat = %q, want %q", c.name, got, c.routed)
		}
		if got := StorageRule(in, CompRouted).DType; got != c.stored {
			t.Errorf("%s: routed experts stored as %q, want %q", c.name, got, c.stored)
		}
		if f, g := ExpertFormat(in); f != c.expert || g != c.group {
			t.Errorf("%s: ExpertFormat = %q group %d, want %q group %d", c.name, f, g, c.expert, c.group)
		}
		if r := c.m.RoutedExpertFormat(); r != "" && !c.converted && StorageRule(in, CompRouted).DType != r {
			t.Errorf("%s: the storage rule and RoutedExpertFormat disagree", c.name)
		}
	}
}

func lookup(t *testing.T, id string) *catalog.Model {
	t.Helper()
	m, err := catalog.LookupModel(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
