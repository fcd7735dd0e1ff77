package catalog

import "testing"

// TestBlackwell: the generation comes from the compute capability (the
// catalog's, or the one guessed from a custom GPU's name), not from a name
// fragment.
func TestBlackwell(t *testing.T) {
	b200, err := LookupGPU("b200")
	if err != nil {
		t.Fatal(err)
	}
	h200, err := LookupGPU("h200")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		g    *GPU
		want bool
	}{
		{b200, true},
		{h200, false},
		{&GPU{Name: "NVIDIA B300", ComputeMajor: GuessComputeMajor("NVIDIA B300")}, true},
		// RTX PRO and GB10 are Blackwell by name but compute capability 12:
		// vLLM's SM100 kernels do not run there.
		{&GPU{Name: "NVIDIA RTX PRO 6000 Blackwell", ComputeMajor: GuessComputeMajor("NVIDIA RTX PRO 6000 Blackwell")}, false},
		{&GPU{Name: "NVIDIA GB10", ComputeMajor: GuessComputeMajor("NVIDIA GB10")}, false},
		{&GPU{Name: "custom part"}, false},
		{nil, false},
	} {
		if got := tt.g.Blackwell(); got != tt.want {
			t.Errorf("%+v: Blackwell %v, want %v", tt.g, got, tt.want)
		}
	}
}
