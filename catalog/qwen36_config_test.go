package catalog

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// TestQwen36OwnConfig: Qwen/Qwen3.6-35B-A3B's own config.json, as NVIDIA
// aiconfigurator copies it (branch dev-layerwise-collector, commit 713c916b,
// testdata/hf/qwen3.6-35b-a3b.verbatim.json), has the architecture of NVIDIA's NVFP4 export
// (testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4, aiconfigurator @095f58a5):
// every text_config field equal, and the same vision tower. So the BF16
// model is read from Qwen's file, not from nvidia's with its
// quantization_config removed, and both must give the same model.
// A second public copy (yuancaoyaoHW/verl-npu@fbe387e3) agrees key for key,
// with one key added ("_original_model_type"); testdata/hf/README.md.
func TestQwen36OwnConfig(t *testing.T) {
	read := func(path string) map[string]any {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var c map[string]any
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	own := read("testdata/hf/qwen3.6-35b-a3b.verbatim.json")
	nv := read("testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/config.json")
	if !reflect.DeepEqual(own["text_config"], nv["text_config"]) {
		t.Errorf("text_config differs from nvidia's export:\n%v\n%v", own["text_config"], nv["text_config"])
	}
	if own["quantization_config"] != nil {
		t.Error("Qwen's own config carries a quantization_config")
	}

	m, err := LoadHFConfig("testdata/hf/qwen3.6-35b-a3b.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Modelled(); err != nil {
		t.Fatalf("refused: %v", err)
	}
	if m.Quant.Method != "" && m.Quant.Method != "none" {
		t.Errorf("quantization %+v, want none (BF16)", m.Quant)
	}
	// By hand (text_config): 40 layers, every 4th full attention (10), the
	// other 30 Gated DeltaNet; 256 experts of 3 × 2,048 × 512 in every
	// layer: 40 × 256 × 3,145,728 = 32,212,254,720 routed parameters (the
	// figure TestMixedPrecisionQwen36 holds for nvidia's export).
	if m.NumLayers != 40 || m.LinearLayerCount() != 30 {
		t.Errorf("%d layers, %d linear", m.NumLayers, m.LinearLayerCount())
	}
	pc := m.ParamCounts()
	if pc.RoutedExperts != 32212254720 {
		t.Errorf("routed experts %.0f, by hand 32,212,254,720", pc.RoutedExperts)
	}
	nvm, err := LoadHFConfig("testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/config.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pc.Total, nvm.ParamCounts().Total; got != want {
		t.Errorf("%.0f parameters, nvidia's export %.0f", got, want)
	}
	if m.Encoder == nil || nvm.Encoder == nil || m.Encoder.Params != nvm.Encoder.Params {
		t.Errorf("vision tower %+v, nvidia's %+v", m.Encoder, nvm.Encoder)
	}
}
