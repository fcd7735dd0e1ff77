package vllm

import (
	"slices"
	"strings"
	"testing"
)

// TestArchitectureSupport: the recipes' minimum releases are Present, the
// releases before them unverified (never Absent: the first release with
// the architecture is unknown), and a model_type the table does not cover
// says so.
func TestArchitectureSupport(t *testing.T) {
	for _, tt := range []struct {
		release, modelType string
		want               Presence
	}{
		{"0.20.0", "deepseek_v4", Present},
		{"0.19.0", "deepseek_v4", Maybe},
		{"0.19.1", "gemma4_text", Present},
		{"0.18.0", "gemma4_text", Maybe},
		{"0.11.0", "mimo_v2_flash", Present},
		{"0.17.1", "nemotron_h", Present},
		{"0.16.0", "glm_moe_dsa", Present},
		{"0.15.1", "glm_moe_dsa", Maybe},
		{"0.17.0", "qwen3_5_moe_text", Present},
		{"0.16.0", "qwen3_5_moe_text", Maybe},
		// MiniMax-M3: PR #45381 merged after v0.23.0 was cut (its notes:
		// not supported), first tag v0.24.0.
		{"0.24.0", "minimax_m3", Present},
		{"0.23.0", "minimax_m3", Absent},
		{"0.22.0", "minimax_m3", Absent},
	} {
		r, _, err := ResolveString(tt.release)
		if err != nil {
			t.Fatal(err)
		}
		a, ok := r.Architecture(tt.modelType)
		if !ok || a.Serves != tt.want || a.Source == "" {
			t.Errorf("%s %s: %+v %v, want %v", tt.release, tt.modelType, a, ok, tt.want)
		}
	}
	if _, ok := Newest().Architecture("llama"); ok {
		t.Error("llama is not in the table")
	}
}

// TestArchitectureBlockSize: MiniMax-M3's sparse and indexer backends take
// only 128-token kernel blocks (get_supported_kernel_block_sizes [128]), so
// select_common_block_size splits any multiple of 128 into 128-token kernel
// blocks and refuses anything else ("No common block size for N."); vLLM's
// own pick when --block-size is unset is the first (dense) layer's 16, so
// it does not choose 128 itself. Other architectures are not in the table.
func TestArchitectureBlockSize(t *testing.T) {
	b, ok := Newest().ArchitectureBlockSize("minimax_m3")
	if !ok || b.Kernel != 128 || b.ChosenByVLLM || b.Source == "" {
		t.Fatalf("minimax_m3: %+v %v", b, ok)
	}
	for n, refused := range map[int]bool{128: false, 256: false, 384: false, 16: true, 64: true, 192: true} {
		why := b.Refusal(n)
		if (why != "") != refused {
			t.Errorf("--block-size %d: refusal %q, want refused %v", n, why, refused)
		}
	}
	if why := b.Refusal(16); !strings.Contains(why, "No common block size for 16.") {
		t.Errorf("refusal of 16 does not quote vLLM's error: %q", why)
	}
	if _, ok := Newest().ArchitectureBlockSize("llama"); ok {
		t.Error("llama's backends take vLLM's default block size")
	}
}

// TestRegisteredArchitectures: vLLM registers MiniMax-M3 as
// MiniMaxM3SparseForCausalLM and MiniMaxM3SparseForConditionalGeneration;
// the text-only config's MiniMaxM3ForCausalLM is not among them.
func TestRegisteredArchitectures(t *testing.T) {
	names, src, ok := Newest().RegisteredArchitectures("minimax_m3")
	if !ok || src == "" || !slices.Contains(names, "MiniMaxM3SparseForCausalLM") ||
		!slices.Contains(names, "MiniMaxM3SparseForConditionalGeneration") || slices.Contains(names, "MiniMaxM3ForCausalLM") {
		t.Fatalf("minimax_m3: %v %q %v", names, src, ok)
	}
	// First-hand: vLLM's supported-models list at a commit; the tag's
	// registry.py is recorded as not read.
	if !strings.Contains(src, "docs/models/supported_models.md") || !strings.Contains(src, "0046f770d322") ||
		!strings.Contains(src, "registry.py not read at a tag") {
		t.Errorf("minimax_m3 source does not cite the first-hand list or the unread tag: %q", src)
	}
	if _, _, ok := Newest().RegisteredArchitectures("llama"); ok {
		t.Error("llama is not in the table")
	}
}
