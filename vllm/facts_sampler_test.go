package vllm

import (
	"math"
	"strings"
	"testing"
)

// TestProfileSamplerByRelease: which top-k/top-p path the profile's dummy
// sampler takes, and the bytes per logit charged for it, by release (hand
// derived from srcProfileSampler).
func TestProfileSamplerByRelease(t *testing.T) {
	for _, tt := range []struct {
		version                  string
		rows                     int
		triton, flashInfer, sort Presence
		bytes                    int
	}{
		// FlashInfer samples when installed (the official image).
		{"0.10.1", 1024, Absent, Present, Absent, 14},
		{"0.11.0", 1024, Absent, Present, Absent, 14},
		// 0.8.x's FlashInfer gate not read: the sort is charged.
		{"0.8.5", 1024, Absent, Maybe, Maybe, 38},
		// Opt-in FlashInfer, no Triton kernel: the sort.
		{"0.11.2", 1024, Absent, Absent, Present, 38},
		{"0.15.0", 1024, Absent, Absent, Present, 38},
		// 0.15.1 to 0.17.x not read.
		{"0.16.0", 1024, Maybe, Absent, Maybe, 38},
		{"0.17.1", 256, Maybe, Absent, Maybe, 38},
		// 0.18.0's API docs show the Triton kernel.
		{"0.18.0", 1024, Present, Absent, Absent, 14},
		// 0.19.0 is opt-in (its envs.py and sampler read, factaudit2);
		// 0.20.x not read; 0.21.0 samples with FlashInfer by default.
		{"0.19.0", 1024, Present, Absent, Absent, 14},
		{"0.20.2", 1024, Present, Maybe, Absent, 14},
		{"0.26.0", 8, Present, Present, Absent, 14},
		// Below 8 rows apply_top_k_top_p sorts (until PR #54651, unpinned):
		// 0.19.0 may sort; 0.21.0 on, FlashInfer takes those rows.
		{"0.19.0", 4, Present, Absent, Maybe, 38},
		{"0.20.2", 4, Present, Maybe, Maybe, 38},
		{"0.21.0", 4, Present, Present, Absent, 14},
		{"0.15.0", 4, Absent, Absent, Present, 38},
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		p := r.ProfileSampler(tt.rows, "", false)
		if p.Triton != tt.triton || p.FlashInfer != tt.flashInfer || p.Sorts != tt.sort || p.BytesPerLogit != tt.bytes {
			t.Errorf("%s × %d rows: triton %v flashinfer %v sorts %v %d B, want %v %v %v %d B",
				tt.version, tt.rows, p.Triton, p.FlashInfer, p.Sorts, p.BytesPerLogit, tt.triton, tt.flashInfer, tt.sort, tt.bytes)
		}
		want := "FlashInfer"
		if p.Sorts != Absent {
			want = "PyTorch sort"
		} else if p.Triton == Present && tt.rows >= tritonMinRows {
			want = "Triton"
		}
		if !strings.HasPrefix(p.Path, want) {
			t.Errorf("%s: path %q for sorts %v", tt.version, p.Path, p.Sorts)
		}
		if !citesPrimary(p.Source) || !explainsUnverified(p.Source) {
			t.Errorf("%s: source %q must cite vLLM's code and say what is unverified", tt.version, p.Source)
		}
	}
}

// TestSortSamplerExcessMatchesMiniMaxLog: the sort's extra working set over
// the kernel path, at the MiniMax-M2.5 log's 1,024 rows × 200,064 vocabulary,
// is within 6% of the 4.33 GiB that log leaves beyond vlaunch's 15 B per
// logit (22.7 B per logit); derived, not fitted.
func TestSortSamplerExcessMatchesMiniMaxLog(t *testing.T) {
	extra := float64(SortSamplerBytesPerLogit-KernelSamplerBytesPerLogit) * 1024 * 200064 / (1 << 30)
	if math.Abs(extra-4.33)/4.33 > 0.06 {
		t.Errorf("sort excess %.2f GiB, log's 4.33 GiB", extra)
	}
	if SortSamplerBytesPerLogit != 38 || KernelSamplerBytesPerLogit != 14 {
		t.Errorf("bytes per logit: sort %d, kernel %d; want 38 and 14", SortSamplerBytesPerLogit, KernelSamplerBytesPerLogit)
	}
}

// TestProfileSamplerFlashInferVariable: VLLM_USE_FLASHINFER_SAMPLER decides
// FlashInfer from 0.9.0 on; a non-integer counts as unset.
func TestProfileSamplerFlashInferVariable(t *testing.T) {
	for _, tt := range []struct {
		version, value string
		set            bool
		sort           Presence
	}{
		{"0.15.0", "1", true, Absent},    // opted in: FlashInfer samples
		{"0.15.0", "0", true, Present},   // the default anyway
		{"0.15.0", "yes", true, Present}, // not an integer: unset
		{"0.10.1", "0", true, Present},   // opted out of the default
		{"0.16.0", "1", true, Absent},
		{"0.19.0", "0", true, Absent}, // the Triton kernel still masks
		{"0.8.5", "1", true, Maybe},   // 0.8.x's gate not read
	} {
		r, _, err := ResolveString(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		if p := r.ProfileSampler(1024, tt.value, tt.set); p.Sorts != tt.sort {
			t.Errorf("%s with %s=%q: sorts %v, want %v", tt.version, FlashInferSamplerVariable, tt.value, p.Sorts, tt.sort)
		}
	}
}
