package catalog

import "testing"

// TestA100SXM4_40GB pins the 40 GB A100 to NVIDIA's A100 datasheet (the
// document cited for a100-80g; column 'A100 40GB SXM'): 40 GB HBM2 at
// 1,555 GB/s, BF16 312 TFLOPS and INT8 624 TOPS dense (the sheet's sparse
// figures are twice these), NVLink 600 GB/s bidirectional, so 300 GB/s per
// direction as the catalog stores links. It is the same GA100 die as the
// 80 GB part (compute, SMs, link), with half the memory and 76% of the
// bandwidth (1,555 / 2,039), and no FP8 tensor cores.
func TestA100SXM4_40GB(t *testing.T) {
	g, err := LookupGPU("a100-40g")
	if err != nil {
		t.Fatal(err)
	}
	if g.HBMBandwidthGBytesPerS != 1555 || g.BF16TFLOPS != 312 || g.INT8TOPS != 624 || g.FP8TFLOPS != 0 {
		t.Errorf("a100-40g: %g GB/s, BF16 %g, INT8 %g, FP8 %g; want the datasheet's 1555, 312, 624 and no FP8",
			g.HBMBandwidthGBytesPerS, g.BF16TFLOPS, g.INT8TOPS, g.FP8TFLOPS)
	}
	if g.IntraNodeGBytesPerS != 600/2 || g.IntraNodeKind != "nvlink" {
		t.Errorf("a100-40g: link %g GB/s %s, want NVLink 600 GB/s bidirectional = 300 per direction", g.IntraNodeGBytesPerS, g.IntraNodeKind)
	}
	if g.SMIMemoryMiB != 40*1024 || g.MemoryMiB >= g.SMIMemoryMiB || g.MemoryGiB() < 39 || g.MemoryGiB() > 40 {
		t.Errorf("a100-40g: nvidia-smi %g MiB, CUDA %g MiB (%.2f GiB); want 40960 and a CUDA total a little below it",
			g.SMIMemoryMiB, g.MemoryMiB, g.MemoryGiB())
	}
	big, err := LookupGPU("a100-80g")
	if err != nil {
		t.Fatal(err)
	}
	if g.ComputeMajor != big.ComputeMajor || g.SMs != big.SMs || g.BF16TFLOPS != big.BF16TFLOPS || g.IntraNodeGBytesPerS != big.IntraNodeGBytesPerS {
		t.Errorf("a100-40g is not the 80 GB part's GA100: %+v vs %+v", g, big)
	}
	if g.MemoryMiB*1.9 > big.MemoryMiB || g.HBMBandwidthGBytesPerS >= big.HBMBandwidthGBytesPerS {
		t.Errorf("a100-40g: memory %g MiB and %g GB/s should be about half the 80 GB part's %g MiB and below its %g GB/s",
			g.MemoryMiB, g.HBMBandwidthGBytesPerS, big.MemoryMiB, big.HBMBandwidthGBytesPerS)
	}
	// The 40 GB part's spellings resolve to it; a bare "a100" stays the 80 GB part.
	for _, alias := range []string{"A100-40GB", "a100-sxm4-40gb"} {
		if a, err := LookupGPU(alias); err != nil || a.ID != "a100-40g" {
			t.Errorf("%s resolves to %v (%v), want a100-40g", alias, a, err)
		}
	}
	if a, _ := LookupGPU("a100"); a == nil || a.ID != "a100-80g" {
		t.Errorf("a100 resolves to %v, want a100-80g", a)
	}
}
