package lint

import "testing"

// TestOtherWord: a flag that differs from a known one in a whole short
// word is another flag, not a misspelling.
func TestOtherWord(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"ec-transfer-config", "kv-transfer-config", true},
		{"tensor-paralel-size", "tensor-parallel-size", false},
		{"max-model-length", "max-model-len", false},
		{"max-num-seq", "max-num-seqs", false},
	}
	for _, tt := range tests {
		if got := otherWord(tt.a, tt.b); got != tt.want {
			t.Errorf("otherWord(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
