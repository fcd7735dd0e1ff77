package catalog

import "testing"

// TestQwen3VLEmbeddings: Qwen3-VL-30B-A3B's encoder returns embeddings of
// out_hidden_size 2,048 × (1 + 3 DeepStack levels) = 8,192 values, and its
// largest video is 25,165,824 pixels / (16² × 2 × 2²) = 12,288 embeddings;
// Qwen3.5's wrappers (no DeepStack) return out_hidden_size alone.
func TestQwen3VLEmbeddings(t *testing.T) {
	m, err := LoadHFConfig("testdata/hf/qwen3-vl-30b-a3b-instruct.json")
	if err != nil {
		t.Fatal(err)
	}
	e := m.Encoder
	if e == nil || e.EmbedWidth != 2048*4 || e.MaxVideoEmbeds != 12288 || e.DeepStackLevels != 3 {
		t.Fatalf("encoder %+v: want width 8192, 12288 video embeddings, 3 DeepStack levels", e)
	}
	noDeep := editJSON(t, readFile(t, "testdata/hf/qwen3-vl-30b-a3b-instruct.json"), func(c map[string]any) {
		c["vision_config"].(map[string]any)["deepstack_visual_indexes"] = []any{}
	})
	m2, err := ParseHFConfig(noDeep)
	if err != nil {
		t.Fatal(err)
	}
	if e2 := m2.Encoder; e2 == nil || e2.EmbedWidth != 2048 {
		t.Errorf("without DeepStack: encoder %+v, want width 2048", e2)
	}
}
