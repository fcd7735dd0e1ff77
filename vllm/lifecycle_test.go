package vllm

import "testing"

// TestFlagLifecycles pins the added/removed releases recorded for flags that
// real launch scripts carry across upgrades.
func TestFlagLifecycles(t *testing.T) {
	tests := []struct {
		version, flag string
		want          bool
	}{
		// PR #21739 replaced --disable-log-requests; the 0.12.0 CLI docs still
		// list the old flag as deprecated.
		{"0.10.0", "--enable-log-requests", false},
		{"0.10.1", "--enable-log-requests", true},
		{"0.12.0", "--no-enable-log-requests", true},
		{"0.9.0", "--disable-log-requests", true},
		{"0.12.0", "--disable-log-requests", true},
		{"0.16.0", "--disable-log-requests", true},
		{"0.17.0", "--disable-log-requests", false},
		{"0.9.2", "--enable-reasoning", true},
		{"0.10.0", "--enable-reasoning", false},
		{"0.10.2", "--max-seq-len-to-capture", true},
		{"0.11.0", "--max-seq-len-to-capture", false},
		// flagspans45: arg_utils.py at the tags: --num-scheduler-steps and
		// --multi-step-stream-outputs up to v0.10.0, gone at v0.10.1.
		{"0.10.0", "--num-scheduler-steps", true},
		{"0.10.1", "--num-scheduler-steps", false},
		{"0.10.1", "--multi-step-stream-outputs", false},
		{"0.11.0", "--multi-step-stream-outputs", false},
		{"0.11.2", "--guided-decoding-backend", true},
		{"0.12.0", "--guided-decoding-backend", false},
		// flagspans45: first in arg_utils.py at the v0.11.0 tag (not v0.10.2).
		{"0.10.2", "--structured-outputs-config", false},
		{"0.11.0", "--structured-outputs-config", true},
		{"0.17.1", "--disable-frontend-multiprocessing", true},
		{"0.20.0", "--disable-frontend-multiprocessing", false},
		// flagspans45: arg_utils.py at the tags: --speculative-model gone at
		// v0.8.3, --use-v2-block-manager kept (a no-op) up to v0.9.2.
		{"0.8.3", "--speculative-model", false},
		{"0.8.2", "--speculative-model", true},
		{"0.9.2", "--use-v2-block-manager", true},
		{"0.10.0", "--use-v2-block-manager", false},
		{"0.9.0", "--worker-use-ray", false},
		{"0.12.0", "--uds", true},
		// frontend flags present before 0.9.0 and still on main
		{"0.9.0", "--host", true},
		{"0.30.0", "--port", true},
		{"0.30.0", "--uvicorn-log-level", true},
		{"0.30.0", "--ssl-keyfile", true},
		{"0.30.0", "--no-enable-auto-tool-choice", true},
		{"0.30.0", "--tool-call-parser", true},
		{"0.30.0", "--lora-modules", true},
	}
	for _, tt := range tests {
		_, ok := rel(t, tt.version).Flag(tt.flag)
		if ok != tt.want {
			t.Errorf("%s: Flag(%q) = %v, want %v", tt.version, tt.flag, ok, tt.want)
		}
	}
}

func TestRemovedFlagMetadata(t *testing.T) {
	for _, tt := range []struct{ flag, removed, deprecated string }{
		{"--disable-log-requests", "0.17.0", "0.10.1"},
		{"--enable-reasoning", "0.10.0", "0.9.0"},
		{"--guided-decoding-backend", "0.12.0", "0.10.2"},
		{"--max-seq-len-to-capture", "0.11.0", "0.0.0"},
		{"--worker-use-ray", "0.7.0", "0.0.0"},
		{"--speculative-model", "0.8.3", "0.0.0"}, // absent from arg_utils.py at the v0.8.3 tag (flagspans45)
	} {
		f, ok := KnownFlagEver(tt.flag)
		if !ok {
			t.Errorf("%s unknown", tt.flag)
			continue
		}
		if f.Removed.String() != tt.removed || f.Deprecated.String() != tt.deprecated {
			t.Errorf("%s: removed %s deprecated %s, want %s and %s", tt.flag, f.Removed, f.Deprecated, tt.removed, tt.deprecated)
		}
		if f.Doc == "" {
			t.Errorf("%s: a removed flag needs a Doc saying what replaces it", tt.flag)
		}
	}
}

func TestFrontendChoices(t *testing.T) {
	f, ok := Newest().Flag("--uvicorn-log-level")
	if !ok || !f.HasChoice("debug") || f.HasChoice("verbose") || f.HasChoice("INFO") {
		t.Errorf("uvicorn-log-level choices = %v", f)
	}
	// Parser names grow every release and plugins register more: no choices.
	for _, name := range []string{"tool-call-parser", "reasoning-parser", "tokenizer-mode"} {
		if f, ok := Newest().Flag(name); !ok || len(f.Choices) != 0 {
			t.Errorf("%s: want a known flag without choices, got %v", name, f)
		}
	}
}

// TestPreTableEntries: an entry recorded as older than the table either
// has a pre-table source (Verified) or says its first release is unknown,
// so the conservative start is never mistaken for a checked fact.
func TestPreTableEntries(t *testing.T) {
	oldest := Oldest().Version
	for i := range flagTable {
		f := &flagTable[i]
		if f.Since.Less(oldest) && !f.Verified && !explainsUnverified(f.Source) {
			t.Errorf("flag %s: starts before the table without a pre-table source or a reason: %s", f.Name, f.Source)
		}
	}
}
