package catalog

import (
	"strings"
	"testing"
)

// singleGPUSystems are parts sold one per system (DGX Spark's GB10): no
// GPU-to-GPU link inside a node, so the catalog gives none (the step model
// then assumes PCIe if a spec ever puts two on a node).
var singleGPUSystems = map[string]bool{"gb10": true}

// TestIssue23GPUs: each GPU issue #23 lists is in the catalog, with its
// figures, its link kind and generation, and a dense FP4 rate where the
// part has FP4 tensor cores.
func TestIssue23GPUs(t *testing.T) {
	for _, tt := range []struct {
		id, kind  string
		major     int
		blackwell bool
		fp4       bool
		mentions  string // a fact the notes must state
	}{
		{id: "b300", kind: "nvlink", major: 10, blackwell: true, fp4: true, mentions: "Blackwell Ultra"},
		{id: "gb200", kind: "nvlink", major: 10, blackwell: true, fp4: true, mentions: "72 GPUs in one NVLink domain across 18 compute trays of 4 GPUs"},
		{id: "gb300", kind: "nvlink", major: 10, blackwell: true, fp4: true, mentions: "72 GPUs in one NVLink domain across 18 compute trays of 4 GPUs"},
		{id: "gh200", kind: "nvlink", major: 9, mentions: "NVLink-C2C"},
		{id: "mi325x", kind: "xgmi", mentions: "gfx942"},
		{id: "mi355x", kind: "xgmi", fp4: true, mentions: "MXFP4"},
		{id: "rtx-pro-6000", kind: "pcie", major: 12, fp4: true, mentions: "no NVLink"},
		{id: "gb10", kind: "pcie", major: 12, fp4: true, mentions: "one GPU per system"},
	} {
		g, err := LookupGPU(tt.id)
		if err != nil {
			t.Errorf("%s: %v", tt.id, err)
			continue
		}
		if g.MemoryMiB <= 0 || g.HBMBandwidthGBytesPerS <= 0 || g.BF16TFLOPS <= 0 || g.FP8TFLOPS <= 0 {
			t.Errorf("%s: a missing figure: %+v", tt.id, g)
		}
		if g.IntraNodeKind != tt.kind || g.ComputeMajor != tt.major || g.Blackwell() != tt.blackwell {
			t.Errorf("%s: link %s, compute %d, Blackwell %v; want %s, %d, %v", tt.id, g.IntraNodeKind, g.ComputeMajor, g.Blackwell(), tt.kind, tt.major, tt.blackwell)
		}
		if (g.FP4TFLOPS > 0) != tt.fp4 {
			t.Errorf("%s: FP4 %g TFLOPS, want FP4 %v", tt.id, g.FP4TFLOPS, tt.fp4)
		}
		if !strings.Contains(g.Notes, tt.mentions) {
			t.Errorf("%s: notes do not say %q: %s", tt.id, tt.mentions, g.Notes)
		}
		// Dense, not sparse: a datasheet's sparse figure taken as dense would
		// put BF16 above FP8 of the same generation or FP4 above 4x BF16.
		if g.FP8TFLOPS < g.BF16TFLOPS || g.FP8TFLOPS > 2.01*g.BF16TFLOPS || g.FP4TFLOPS > 6.5*g.BF16TFLOPS {
			t.Errorf("%s: BF16 %g, FP8 %g, FP4 %g TFLOPS are not one dense set", tt.id, g.BF16TFLOPS, g.FP8TFLOPS, g.FP4TFLOPS)
		}
		// What the CUDA runtime sees is below nvidia-smi's total on NVIDIA parts.
		if g.Vendor == "nvidia" && g.SMIMemoryMiB > 0 && g.MemoryMiB >= g.SMIMemoryMiB {
			t.Errorf("%s: CUDA total %g MiB not below nvidia-smi's %g", tt.id, g.MemoryMiB, g.SMIMemoryMiB)
		}
	}
}

// TestFP4OnlyWhereTheHardwareHasIt: FP4 tensor cores arrived with
// Blackwell and CDNA4; no older part claims a rate.
func TestFP4OnlyWhereTheHardwareHasIt(t *testing.T) {
	for _, g := range GPUs() {
		blackwellClass := g.ComputeMajor >= 10
		if g.FP4TFLOPS > 0 && !blackwellClass && g.ID != "mi355x" {
			t.Errorf("%s (compute %d) claims FP4 %g TFLOPS", g.ID, g.ComputeMajor, g.FP4TFLOPS)
		}
	}
}
