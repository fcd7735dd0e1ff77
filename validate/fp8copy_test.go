package validate

import (
	"strings"
	"testing"
)

// TestFP8OnAmpereFromACopy (fix40d): SPEC's FP8-without-FP8-tensor-cores
// warning reads the checkpoint format resolve.Deployment.CheckpointDType
// states, so weights auto on an FP8 copy model.path names (vLLM loads the
// copy's FP8 through weight-only Marlin on an A100) warns as weights fp8
// does, and its fix names the 16-bit checkpoint, not `weights: bf16` (the
// copy holds no 16-bit weights). A 16-bit path with weights auto says
// nothing; weights fp8 on it (online FP8) keeps the weights: bf16 fix.
func TestFP8OnAmpereFromACopy(t *testing.T) {
	base := edit(t, readBase(t), "name: deepseek-v3", "name: llama-3.3-70b", "  weights: fp8\n", "",
		"path: /models/DeepSeek-V3", "path: PATH", "served_name: deepseek-v3", "served_name: llama",
		"data: 16\n  expert: true", "data: 4\n  expert: false", "tensor: 1", "tensor: 4", "gpu: h20-96g", "gpu: a100-80g")
	const copyFP8 = "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic"
	for _, c := range []struct {
		path, weights, fix string
	}{
		{copyFP8, "auto", "point model.path at the BF16 checkpoint instead of " + copyFP8},
		{copyFP8, "fp8", "point model.path at the BF16 checkpoint"},
		{"meta-llama/Llama-3.3-70B-Instruct", "fp8", "use `weights: bf16`"},
		{"meta-llama/Llama-3.3-70B-Instruct", "auto", ""},
		{"RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "auto", ""},
	} {
		src := edit(t, base, "path: PATH", "path: "+c.path+"\n  weights: "+c.weights)
		_, ds, _ := Bytes("q.yaml", []byte(src))
		g := findCode(ds, CodeFP8)
		if c.fix == "" {
			if len(g) != 0 {
				t.Errorf("%s %s: want no FP8 warning, got\n%s", c.path, c.weights, render(g))
			}
			continue
		}
		if len(g) != 1 || g[0].Path != "model.weights" || !strings.Contains(g[0].Message, "weight-only FP8 Marlin kernel (W8A16)") || !strings.Contains(g[0].Hint, c.fix) {
			t.Errorf("%s %s: want one FP8 warning with fix %q, got\n%s", c.path, c.weights, c.fix, render(g))
		}
	}
}
