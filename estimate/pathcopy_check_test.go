package estimate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/memory"
)

// pathCopySpec serves the catalog's BF16 Llama-3.3-70B from a copy its
// model.path names as FP8 (RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic).
const pathCopySpec = "testdata/llama-3.3-70b-fp8-copy-4xh100.yaml"

// TestPathCopyCheckpointFormat (newuser40 finding 1, its report half): a
// 16-bit catalog model whose model.path names a pre-quantized copy states
// one checkpoint format — the copy's (resolve.Deployment.CheckpointDType,
// which generate's flags and validate's GEN011 read) — in the report's
// settings line (InputSummary.CheckpointDType: it printed "fp8 (checkpoint
// bf16)"), its weights formats (it called the copy's FP8 "converted"), its
// findings (no EST106 "converted copy" for the copy's own format) and the
// storage rule's reason (not "online FP8 (--quantization fp8)", which the
// bundle does not pass). A 16-bit path keeps the online quantization.
func TestPathCopyCheckpointFormat(t *testing.T) {
	y, err := os.ReadFile(pathCopySpec)
	if err != nil {
		t.Fatal(err)
	}
	const copyPath = "RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic"
	for _, c := range []struct {
		name, path, weights string
		// ckpt is InputSummary.CheckpointDType; weights the resolved dtype.
		ckpt, resolved string
		fromCkpt       bool
		// alts are the weights formats' rows as dtype:source ("ckpt" as
		// shipped, "conv" converted), the spec's first.
		alts   []string
		est106 bool
		// why is a part of the dense MLP's storage reason.
		why string
	}{
		{"FP8 copy, weights fp8", copyPath, "fp8", "fp8", "fp8", true, []string{"fp8:ckpt", "bf16:conv"}, false, "the FP8 checkpoint model.path names"},
		{"FP8 copy, weights auto", copyPath, "auto", "fp8", "bf16", true, []string{"bf16:conv", "fp8:ckpt"}, false, "bf16"},
		{"W8A8 copy, weights int8", "RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "int8", "int8", "int8", true, []string{"int8:ckpt", "bf16:conv"}, false, "W8A8"},
		// An AWQ copy's 4-bit groups are in its config, which vlaunch has
		// not read: no weights formats row sized from a name.
		{"AWQ copy, weights auto", "casperhansen/llama-3.3-70b-instruct-awq", "auto", "int4", "bf16", true, nil, false, "bf16"},
		{"16-bit path, weights fp8", "/models/Llama-3.3-70B-Instruct", "fp8", "bf16", "fp8", false, []string{"fp8:conv", "bf16:ckpt"}, true, "online FP8 (--quantization fp8)"},
	} {
		s := strings.Replace(string(y), "path: "+copyPath, "path: "+c.path, 1)
		s = strings.Replace(s, "weights: fp8", "weights: "+c.weights, 1)
		in := testinput.FromYAML(t, pathCopySpec, s)
		r := Check(&in)
		if r.Input.CheckpointDType != c.ckpt || r.Input.WeightsDType != c.resolved || in.WeightsFromCheckpoint != c.fromCkpt {
			t.Errorf("%s: weights %s (checkpoint %s, from it %v), want %s (checkpoint %s, from it %v)", c.name,
				r.Input.WeightsDType, r.Input.CheckpointDType, in.WeightsFromCheckpoint, c.resolved, c.ckpt, c.fromCkpt)
		}
		var alts []string
		for _, a := range r.Alternatives {
			src := "conv"
			if a.FromCheckpoint {
				src = "ckpt"
			}
			alts = append(alts, a.WeightsDType+":"+src)
		}
		if strings.Join(alts, " ") != strings.Join(c.alts, " ") {
			t.Errorf("%s: weights formats %v, want %v", c.name, alts, c.alts)
		}
		est106 := false
		for _, f := range r.Findings {
			est106 = est106 || f.Code == memory.CodeUpcastWeights
		}
		if est106 != c.est106 {
			t.Errorf("%s: EST106 (converted copy) %v, want %v", c.name, est106, c.est106)
		}
		for _, w := range r.Memory.Weights {
			if w.Component == "dense_mlp" && !strings.Contains(w.Why, c.why) {
				t.Errorf("%s: dense MLP stored %q, want it to say %q", c.name, w.Why, c.why)
			}
		}
	}
}
