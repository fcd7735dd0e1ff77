package preflight

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestCopySizedAsItShips (fix40d): the catalog's BF16 llama-3.3-70b served
// from the FP8 copy model.path names (RedHatAI's FP8-dynamic: the linear
// layers at one byte, the 2×1.05B embedding and LM head parameters 16-bit,
// ≈72 GB from the catalog's counts) is expected at the copy's size, not
// the 141 GB BF16 checkpoint (it was, whatever model.weights said). A
// 16-bit path keeps the BF16 figure.
func TestCopySizedAsItShips(t *testing.T) {
	load := func(path, weights string) *env {
		d, ds := spec.Load(filepath.Join("..", "estimate", "testdata", "llama-3.3-70b-fp8-copy-4xh100.yaml"))
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		d.Model.Path, d.Model.Weights = path, weights
		spec.ApplyDefaults(d)
		return &env{d: d, r: resolved(t, d)}
	}
	const copyFP8 = "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic"
	for _, c := range []struct {
		path, weights, dtype string
		gb                   float64
	}{
		{copyFP8, "fp8", "fp8", 72},
		{copyFP8, "auto", "fp8", 72},
		{"RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "int8", "int8", 72},
		{"/models/Llama-3.3-70B-Instruct", "auto", "bf16", 141},
	} {
		b, from := load(c.path, c.weights).checkpointBytes()
		if math.Abs(b/1e9-c.gb)/c.gb > 0.02 || !strings.HasSuffix(from, "× "+c.dtype) {
			t.Errorf("%s weights %s: expected %.1f GB (%s), want %.0f GB ±2%% × %s", c.path, c.weights, b/1e9, from, c.gb, c.dtype)
		}
	}
}
