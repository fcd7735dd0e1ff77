package generator

import (
	"strings"
	"testing"
)

// TestWeightArgs: vLLM serves what the checkpoint stores, so weights the
// spec asks for in another dtype need a flag (a wider checkpoint) or a
// copy in that dtype (a narrower one, which the README says).
func TestWeightArgs(t *testing.T) {
	for _, tt := range []struct {
		spec, weights, want, note string
	}{
		{"single-node-ep", "fp8", "--quantization fp8", ""}, // Qwen3 ships BF16
		{"single-node-ep", "fp16", "--dtype float16", ""},
		{"single-node-ep", "auto", "", ""},
		{"reference", "bf16", "", "must be a bf16 copy"}, // DeepSeek-V3 ships FP8
		{"reference", "fp8", "", ""},
	} {
		d := loadSpec(t, tt.spec)
		d.Model.Weights = tt.weights
		b, ds := gen(t, d, Options{})
		if b == nil {
			t.Fatalf("%s %s: %v", tt.spec, tt.weights, ds)
		}
		node0 := string(fileData(t, b, "node0.sh"))
		for _, flag := range []string{"--quantization", "--dtype"} {
			if has := strings.Contains(node0, flag+" "); has != strings.HasPrefix(tt.want, flag) {
				t.Errorf("%s %s: %s present = %v, want %q", tt.spec, tt.weights, flag, has, tt.want)
			}
		}
		if tt.want != "" && !strings.Contains(node0, tt.want) {
			t.Errorf("%s %s: want %q in\n%s", tt.spec, tt.weights, tt.want, node0)
		}
		if readme := string(fileData(t, b, "README.md")); (tt.note != "") != strings.Contains(readme, "copy (`vlaunch preflight`") ||
			!strings.Contains(readme, tt.note) {
			t.Errorf("%s %s: README note, want %q", tt.spec, tt.weights, tt.note)
		}
	}
}

// TestWeightArgsPreQuantizedPath (newuser40 finding 1): model.path naming
// a pre-quantized copy of a 16-bit catalog model (an FP8-dynamic copy is
// compressed-tensors) gets no --quantization: vLLM reads the method from
// the checkpoint and refuses a different one on the command line. Weights
// the named checkpoint cannot give are refused (validate.BundleRefusals),
// and a 16-bit path still gets online FP8.
func TestWeightArgsPreQuantizedPath(t *testing.T) {
	for _, tt := range []struct {
		path, weights, flag string
		refused             bool
	}{
		{"RedHatAI/Qwen3-30B-A3B-FP8-dynamic", "fp8", "", false},
		{"Qwen/Qwen3-30B-A3B-AWQ", "fp8", "", true},
		{"/models/Qwen3-30B-A3B", "fp8", "--quantization fp8", false},
	} {
		d := loadSpec(t, "single-node-ep")
		d.Model.Path, d.Model.Weights = tt.path, tt.weights
		b, ds := gen(t, d, Options{})
		if tt.refused {
			if b != nil || !hasCode(ds, "GEN011") {
				t.Errorf("%s %s: want GEN011 refusal, got %v", tt.path, tt.weights, ds)
			}
			continue
		}
		if b == nil {
			t.Fatalf("%s %s: %v", tt.path, tt.weights, ds)
		}
		node0 := string(fileData(t, b, "node0.sh"))
		if has := strings.Contains(node0, "--quantization"); has != (tt.flag != "") {
			t.Errorf("%s %s: --quantization present = %v, want %q", tt.path, tt.weights, has, tt.flag)
		}
	}
}

// TestImageDigest: a digest-pinned image reaches every container as
// written and the README says it is pinned; a tag-only image gets the
// instructions to pin it.
func TestImageDigest(t *testing.T) {
	const digest = "vllm/vllm-openai:v0.11.0@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, rt := range []string{"docker", "kubernetes"} {
		d := loadSpec(t, "reference")
		d.Runtime.Image = digest
		b, ds := gen(t, d, Options{Runtime: rt})
		if b == nil {
			t.Fatalf("%s: %v", rt, ds)
		}
		file := map[string]string{"docker": "node0.sh", "kubernetes": "lws.yaml"}[rt]
		if !strings.Contains(string(fileData(t, b, file)), digest) {
			t.Errorf("%s: the digest is not in %s", rt, file)
		}
		if !strings.Contains(string(fileData(t, b, "README.md")), "is pinned by digest") {
			t.Errorf("%s: README does not say the image is pinned", rt)
		}
	}
	b, _ := generate(t, "reference", "docker")
	if !strings.Contains(string(fileData(t, b, "README.md")), "docker buildx imagetools inspect") {
		t.Error("a tag-only image must come with the way to pin it")
	}
}
