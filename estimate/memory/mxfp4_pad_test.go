package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// TestMXFP4PaddingByGeneration: the FlashInfer padding (256/256) follows the
// GPU's generation (catalog.GPU.Blackwell), so a B300 or a custom Blackwell
// part pads like a B200; Hopper keeps the Marlin padding (256/128).
func TestMXFP4PaddingByGeneration(t *testing.T) {
	for _, tt := range []struct {
		g     *catalog.GPU
		inter int
	}{
		{&catalog.GPU{Name: "NVIDIA B200", ComputeMajor: 10}, 256},
		{&catalog.GPU{Name: "NVIDIA B300", ComputeMajor: 10}, 256},
		{&catalog.GPU{Name: "NVIDIA H100 80GB HBM3", ComputeMajor: 9}, 128},
		{nil, 128},
	} {
		if h, i := mxfp4Padding(tt.g); h != 256 || i != tt.inter {
			t.Errorf("%v: padding %d/%d, want 256/%d", tt.g, h, i, tt.inter)
		}
	}
}
