package vllm

import (
	"strings"
	"testing"
)

// TestMLAUserBlockSizeSparse: a user --block-size for DeepSeek-V3.2 / GLM-5
// (sparse MLA) is overridden to 64 up to 0.17.1 (cuda.py "Forcing kv cache
// block size to 64 for FlashMLASparse backend.") and, from 0.18.0 (read to
// 0.24.0), runs when 64 divides it and is refused otherwise: on Hopper no
// sparse backend survives the selector, on Blackwell FLASHINFER_MLA_SPARSE
// takes 32 but the indexer's [64] stops KV cache initialisation. 0.25.0 on
// is 0.24.0's answer marked unread.
func TestMLAUserBlockSizeSparse(t *testing.T) {
	for _, tt := range []struct {
		version string
		sm, n   int
		action  UserBlockAction
		runs    int
		unread  bool
		why     string
	}{
		{"0.11.0", 9, 16, UserBlockOverridden, 64, false, "Forcing kv cache block size to 64 for FlashMLASparse backend."},
		{"0.17.1", 9, 128, UserBlockOverridden, 64, false, "replaces --block-size 128 with 64"},
		{"0.17.0", 10, 64, UserBlockKept, 64, false, ""},
		{"0.18.0", 9, 16, UserBlockRefused, 0, false, "No valid attention backend found"},
		{"0.20.0", 9, 128, UserBlockKept, 128, false, ""},
		{"0.24.0", 10, 32, UserBlockRefused, 0, false, "No common block size for 32."},
		{"0.24.0", 10, 16, UserBlockRefused, 0, false, "No valid attention backend found"},
		{"0.24.0", 9, 256, UserBlockKept, 256, false, ""},
		{"0.25.0", 9, 16, UserBlockRefused, 0, true, "not read"},
		{"0.31.0", 9, 128, UserBlockKept, 128, true, "not read"},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		backend, _ := r.MLABackend(tt.sm, false, true)
		u := r.MLAUserBlockSize(backend, true, tt.sm, false, tt.n)
		if u.Action != tt.action || u.Runs != tt.runs || u.Unread != tt.unread {
			t.Errorf("%s sm%d --block-size %d: %+v, want action %d runs %d unread %v", tt.version, tt.sm, tt.n, u, tt.action, tt.runs, tt.unread)
		}
		if !strings.Contains(u.Why, tt.why) {
			t.Errorf("%s sm%d %d: why %q lacks %q", tt.version, tt.sm, tt.n, u.Why, tt.why)
		}
		if u.Source == "" || !strings.Contains(u.Source, "cuda.py") {
			t.Errorf("%s: source %q does not cite cuda.py", tt.version, u.Source)
		}
		if (u.Action == UserBlockRefused) != (u.Backend == "") {
			t.Errorf("%s %d: backend %q with action %d", tt.version, tt.n, u.Backend, u.Action)
		}
	}
}

// TestMLAUserBlockSizeDense: the dense MLA backends' overrides changed from
// equality (FlashMLA != 64 at 0.11.0) to divisibility (% 64 from 0.11.1);
// from 0.18.0 a size the default backend cannot take moves vLLM to a backend
// that can (TRITON_MLA; FLASH_ATTN_MLA on Hopper without FP8 KV) or, for a
// size no backend takes, stops it.
func TestMLAUserBlockSizeDense(t *testing.T) {
	for _, tt := range []struct {
		version, backend string
		sm, n            int
		fp8              bool
		action           UserBlockAction
		runs             int
		runsOn           string
	}{
		{"0.11.0", MLAFlashMLA, 9, 128, false, UserBlockOverridden, 64, MLAFlashMLA},
		{"0.11.1", MLAFlashMLA, 9, 128, false, UserBlockKept, 128, MLAFlashMLA},
		{"0.14.0", MLAFlashInfer, 10, 32, false, UserBlockKept, 32, MLAFlashInfer},
		{"0.14.0", MLAFlashInfer, 10, 16, false, UserBlockOverridden, 64, MLAFlashInfer},
		{"0.9.0", MLACutlass, 10, 64, false, UserBlockKept, 64, MLACutlass},
		{"0.10.0", MLACutlass, 10, 64, false, UserBlockOverridden, 128, MLACutlass},
		{"0.20.0", MLAFlashMLA, 9, 16, true, UserBlockSwitched, 16, MLATriton},
		{"0.20.0", MLAFlashInfer, 10, 16, false, UserBlockSwitched, 16, MLATriton},
		{"0.20.0", MLAFlashInfer, 10, 128, false, UserBlockKept, 128, MLAFlashInfer},
		{"0.20.0", MLAFlashAttn, 9, 16, false, UserBlockKept, 16, MLAFlashAttn},
		{"0.20.0", MLAFlashMLA, 9, 8, true, UserBlockRefused, 0, ""},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		u := r.MLAUserBlockSize(tt.backend, false, tt.sm, tt.fp8, tt.n)
		if u.Action != tt.action || u.Runs != tt.runs || u.Backend != tt.runsOn {
			t.Errorf("%s %s --block-size %d: %+v, want action %d runs %d on %q", tt.version, tt.backend, tt.n, u, tt.action, tt.runs, tt.runsOn)
		}
		if u.Action != UserBlockKept && u.Why == "" {
			t.Errorf("%s %s %d: no why", tt.version, tt.backend, tt.n)
		}
		if u.Action == UserBlockSwitched && !strings.HasPrefix(u.Why, tt.backend+" takes no") {
			t.Errorf("%s %s %d: why %q does not name the default backend that was dropped", tt.version, tt.backend, tt.n, u.Why)
		}
	}
}

// TestMLAUnsetBlockSize: with no --block-size, FLASHINFER_MLA runs 64-token
// blocks up to 0.17.x (cuda.py forces 64: 16 is neither 32 nor a multiple
// of 64) and 32 from 0.18.0 (Phase 1: the smallest of its kernel sizes
// [32, 64]); FLASHMLA stays 64, CUTLASS_MLA 128, and FLASH_ATTN_MLA keeps
// the default. A sparse model runs 64 on either sparse backend (the
// indexer's cache is the first layer from 0.18.0), not FLASHINFER_MLA_SPARSE's 32.
func TestMLAUnsetBlockSize(t *testing.T) {
	for _, tt := range []struct {
		version, backend string
		size             int
		forced           bool
	}{
		{"0.17.1", MLAFlashInfer, 64, true},
		{"0.18.0", MLAFlashInfer, 32, true},
		{"0.24.0", MLAFlashInfer, 32, true},
		{"0.24.0", MLAFlashMLA, 64, true},
		{"0.24.0", MLACutlass, 128, true},
		{"0.24.0", MLAFlashMLASparse, 64, true},
		{"0.24.0", MLAFlashInferSparse, 64, true},
		{"0.17.0", MLAFlashInferSparse, 64, true},
		{"0.24.0", MLAFlashAttn, 0, false},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		size, forced, why := r.MLAUnsetBlockSize(tt.backend)
		if size != tt.size || forced != tt.forced || forced != (why != "") {
			t.Errorf("%s %s: %d %v %q, want %d %v", tt.version, tt.backend, size, forced, why, tt.size, tt.forced)
		}
	}
	r, _, _ := ResolveString("0.31.0")
	if _, _, why := r.MLAUnsetBlockSize(MLAFlashInfer); !strings.Contains(why, "not read") {
		t.Errorf("0.31.0: why %q does not say the release was not read", why)
	}
}
