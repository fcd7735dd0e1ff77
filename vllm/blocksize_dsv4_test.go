package vllm

import (
	"strings"
	"testing"
)

// TestDeepseekV4ArchBlockSize: DeepSeek-V4's rule is 256-token kernel
// blocks in every release; vLLM picks 256 itself in 0.20.0-0.24.0 (read at
// the tags: update_block_size_for_backend's Phase 1 takes the SWA cache's
// DEEPSEEK_SPARSE_SWA first) and 0.25.0 (the stock v0.25.0 start-up log's
// "Setting kv cache block size to 256 for DEEPSEEK_SPARSE_SWA backend."),
// and is unknown after (not read: written, as the recipe does); --block-size
// 16 or 64 is refused while 512 runs.
func TestDeepseekV4ArchBlockSize(t *testing.T) {
	for _, tt := range []struct {
		version string
		chosen  bool
	}{
		{"0.20.0", true}, {"0.20.2", true}, {"0.22.1", true}, {"0.24.0", true}, {"0.25.0", true},
		{"0.25.1", false}, {"0.26.0", false}, {"0.29.0", false}, {"0.31.0", false},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		b, ok := r.ArchitectureBlockSize("deepseek_v4")
		if !ok || b.Kernel != 256 || b.ChosenByVLLM != tt.chosen {
			t.Errorf("%s: %+v ok %v, want kernel 256 chosen %v", tt.version, b, ok, tt.chosen)
		}
		if tt.chosen != (b.PickedBy != "") || tt.chosen != (b.WhyWritten == "") {
			t.Errorf("%s: PickedBy %q WhyWritten %q: exactly one must say why", tt.version, b.PickedBy, b.WhyWritten)
		}
		if !strings.Contains(b.Source, "v0.25.0") || !strings.Contains(b.Source, "v0.20.0-v0.24.0") || !strings.Contains(b.Source, "sparse_swa.py") {
			t.Errorf("%s: source %q cites neither the log nor the backend", tt.version, b.Source)
		}
		for n, refused := range map[int]bool{16: true, 64: true, 128: true, 256: false, 512: false} {
			if got := b.Refusal(n) != ""; got != refused {
				t.Errorf("%s: Refusal(%d) = %v, want %v", tt.version, n, got, refused)
			}
		}
	}
	r, _, _ := ResolveString("0.31.0")
	for _, mt := range []string{"deepseek_v32", "glm_moe_dsa", "deepseek_v3"} {
		if _, ok := r.ArchitectureBlockSize(mt); ok {
			t.Errorf("%s: has an architecture block rule; its MLA backend decides", mt)
		}
	}
}

// TestDeepseekV4KernelUnread: DeepSeek-V4's kernel block sizes were read at
// 0.20.0-0.24.0 only, so a size 256 does not divide is a refusal there and
// only unverified after (Unverified names the release and the reading).
func TestDeepseekV4KernelUnread(t *testing.T) {
	for _, tt := range []struct {
		version  string
		n        int
		unverify bool
	}{
		{"0.20.0", 64, false}, {"0.24.0", 64, false}, {"0.25.0", 64, true}, {"0.31.0", 16, true}, {"0.31.0", 512, false},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := r.ArchitectureBlockSize("deepseek_v4")
		note := b.Unverified(tt.n)
		if (note != "") != tt.unverify || (tt.unverify && !strings.Contains(note, "not read")) {
			t.Errorf("%s %d: Unverified %q, want unverified %v", tt.version, tt.n, note, tt.unverify)
		}
		if b.Refusal(tt.n) == "" && note != "" {
			t.Errorf("%s %d: unverified without a refusal", tt.version, tt.n)
		}
	}
	if b, _ := Newest().ArchitectureBlockSize("minimax_m3"); b.KernelUnread != "" {
		t.Errorf("minimax_m3: kernel sizes marked unread: %q", b.KernelUnread)
	}
}
