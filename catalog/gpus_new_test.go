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

// TestINT8PeaksFromVendorDocuments pins the dense INT8 tensor-core peaks
// read from vendor datasheets and white papers (the int8Sources comment in
// gpus.go), and the parts whose figure was not found (0: INT8 GEMMs are
// priced at BF16 and check says so). Where the document gives INT8 and FP8
// the same dense rate (Hopper, Ada, CDNA 3/4) the two fields must agree;
// Blackwell Ultra is the exception: its datasheet cuts INT8 to 307 TOPS
// sparse (153.5 dense) on B300, far below its 2,250 TFLOPS BF16, so an
// INT8 checkpoint there must not be priced as if INT8 were FP8's twin.
func TestINT8PeaksFromVendorDocuments(t *testing.T) {
	for _, tt := range []struct {
		id        string
		int8      float64
		equalsFP8 bool
	}{
		{"h100-pcie", 1513, true},  // Hopper whitepaper Table 3: 1,513 | 3,026
		{"gh200", 1979, true},      // GH200 datasheet: 3,958* | 1,979
		{"l40s", 733, true},        // L40S datasheet: 733 | 1,466*
		{"l4", 242.5, false},       // L4 datasheet: 485*, one-half without sparsity (FP8 recorded as 242)
		{"b300", 153.5, false},     // Blackwell Ultra: 307 sparse / 2
		{"gb300", 165, false},      // Blackwell Ultra: 165 dense
		{"mi300x", 2614.9, true},   // CDNA 3 white paper Table 2
		{"mi325x", 2614.9, true},   // CDNA 3 white paper Table 2
		{"mi355x", 5000, true},     // CDNA 4 white paper Table 1: 8,192 ops/clk/CU, as FP8
		{"h800", 0, false},         // no vendor document found
		{"rtx-pro-6000", 0, false}, // datasheets print FP4 sparse only
	} {
		g, err := LookupGPU(tt.id)
		if err != nil {
			t.Fatalf("%s: %v", tt.id, err)
		}
		if g.INT8TOPS != tt.int8 {
			t.Errorf("%s: INT8 %g TOPS, want %g", tt.id, g.INT8TOPS, tt.int8)
		}
		if tt.equalsFP8 && g.INT8TOPS != g.FP8TFLOPS {
			t.Errorf("%s: INT8 %g and FP8 %g, the document gives them one dense rate", tt.id, g.INT8TOPS, g.FP8TFLOPS)
		}
	}
	if b, _ := LookupGPU("b300"); b.INT8TOPS >= b.BF16TFLOPS/10 {
		t.Errorf("B300 INT8 %g TOPS is not the datasheet's cut rate (BF16 %g)", b.INT8TOPS, b.BF16TFLOPS)
	}
}
