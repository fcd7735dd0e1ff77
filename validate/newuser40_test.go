package validate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// findCode returns the findings with code c.
func findCode(ds diag.Diagnostics, c diag.Code) diag.Diagnostics {
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Code == c {
			out = append(out, d)
		}
	}
	return out
}

// TestRefusalsBesideLayoutErrors (newuser40 finding 2): enable_dbo on a
// release without --enable-dbo is an error (GEN011) whatever else is wrong;
// a layout error that keeps the engine from being assembled must not hide
// it. A refusal of a field that already has an error is not repeated, and
// a spec too broken to resolve does not panic.
func TestRefusalsBesideLayoutErrors(t *testing.T) {
	old := edit(t, readBase(t), `version: "0.11.0"`, `version: "0.8.5"`+"\n  enable_dbo: true",
		"image: vllm/vllm-openai:v0.11.0", "image: vllm/vllm-openai:v0.8.5")
	ds := mustBytes(t, "dbo.yaml", edit(t, old, "data: 16", "data: 15"))
	if len(findCode(ds, CodeLayout)) == 0 {
		t.Fatalf("data 15 on 16 GPUs: want a layout error, got\n%s", render(ds))
	}
	g := findCode(ds, codes.GenUnsupported)
	if len(g) != 1 || g[0].Path != "vllm.enable_dbo" || g[0].Line == 0 || !strings.Contains(g[0].Message, "0.8.5 has no --enable-dbo") {
		t.Errorf("want GEN011 at vllm.enable_dbo beside the layout error, got\n%s", render(ds))
	}
	// The same value rejected by the schema: no derived GEN011.
	ds = mustBytes(t, "dbo-type.yaml", edit(t, old, "enable_dbo: true", `enable_dbo: "yes"`, "data: 16", "data: 15"))
	if len(findCode(ds, codes.GenUnsupported)) != 0 {
		t.Errorf("enable_dbo the schema rejects: want no GEN011, got\n%s", render(ds))
	}
	// Half-valid specs: unknown model, GPU and version together.
	for _, src := range []string{
		edit(t, old, "name: deepseek-v3", "name: no-such-model", "gpu: h20-96g", "gpu: no-such-gpu"),
		edit(t, old, `version: "0.8.5"`, `version: "9.9.9"`),
		edit(t, old, "nodes:\n", "nodes: []\n  old_nodes:\n"),
	} {
		_, _, _ = Bytes("half.yaml", []byte(src))
	}
}

// TestSharedPoolFinding (newuser40 finding 11): a finding both pools make
// of a field they share is printed once, as "both pools: …", not with the
// first pool's prefix alone.
func TestSharedPoolFinding(t *testing.T) {
	b, err := os.ReadFile("../examples/gpt-oss-120b-pd-2x8h100.yaml")
	if err != nil {
		t.Fatal(err)
	}
	pd := edit(t, string(b), "  port: 8100\n", "  port: 8100\n  extra_args: [\"--not-a-flag\"]\n")
	g := findCode(mustBytes(t, "pd.yaml", pd), codes.GenExtraArg)
	if len(g) != 1 || !strings.HasPrefix(g[0].Message, "both pools: vLLM 0.22.1's parser registers no --not-a-flag") {
		t.Errorf("want one GEN006 prefixed \"both pools: \", got\n%s", render(g))
	}
	// One pool's own extra_args: that pool's prefix, at the pool's field.
	one := edit(t, string(b), "    nodes: [node1]\n", "    nodes: [node1]\n    vllm: {extra_args: [\"--not-a-flag\"]}\n")
	g = findCode(mustBytes(t, "pd1.yaml", one), codes.GenExtraArg)
	if len(g) != 1 || !strings.HasPrefix(g[0].Message, "decode pool: vLLM 0.22.1's parser registers no --not-a-flag") || g[0].Path != "disaggregation.decode.vllm.extra_args[0]" {
		t.Errorf("want one GEN006 \"decode pool: \" at the pool's extra_args, got\n%s", render(g))
	}
}

// TestBackendRefusalWording (newuser40 finding 4): a release with no
// all2all backend at all (0.8.5) is said so, not given "accepted: auto, "
// with an empty list; a refusal's hint names the first release a source
// shows the backend in; a release between "not before" and "first seen"
// gets an info (unknown), not silence and not an error.
func TestBackendRefusalWording(t *testing.T) {
	for _, c := range []struct {
		version, msg, hint string
		sev                diag.Severity
	}{
		{"0.8.5", `vLLM 0.8.5 has no all2all backend setting: no backend exists before 0.9.0 ("deepep_high_throughput": not before 0.9.1; first seen in 0.9.2)`,
			"leave all2all_backend out, or use vLLM 0.9.2 or later", diag.Error},
		{"0.9.0", `vLLM 0.9.0 does not accept all2all backend "deepep_high_throughput" (not before 0.9.1; first seen in 0.9.2)`,
			"accepted: auto, naive, pplx; or use vLLM 0.9.2 or later for deepep_high_throughput", diag.Error},
		{"0.9.1", `cannot verify that vLLM 0.9.1 accepts all2all backend "deepep_high_throughput": first seen in 0.9.2 (its first release is not known)`,
			"use vLLM 0.9.2 or later to be sure", diag.Info},
	} {
		src := edit(t, readBase(t), `version: "0.11.0"`, `version: "`+c.version+`"`+"\n  all2all_backend: deepep_high_throughput")
		g := findCode(mustBytes(t, "spec.yaml", src), CodeBackend)
		if len(g) != 1 || g[0].Message != c.msg || g[0].Hint != c.hint || g[0].Severity != c.sev {
			t.Errorf("%s: got\n%s want %s %q (hint %q)", c.version, render(g), c.sev, c.msg, c.hint)
		}
	}
}

// TestLayoutHintNamesTypo (newuser40 finding 6): with "tensr: 2" the
// product reads tensor 1, and SPEC102's usual hint ("set `data: 16`")
// points away from the fix; the hint names the typo instead. Without a
// typo the usual hint stays.
func TestLayoutHintNamesTypo(t *testing.T) {
	typo := edit(t, readBase(t), "tensor: 1", "tensr: 2", "data: 16", "data: 8")
	g := findCode(mustBytes(t, "typo.yaml", typo), CodeLayout)
	if len(g) != 1 || g[0].Hint != `"tensr" in parallelism is likely a typo of tensor: fix that first (the product above took tensor's default)` {
		t.Errorf("tensr: want SPEC102 naming the typo, got\n%s", render(g))
	}
	g = findCode(mustBytes(t, "plain.yaml", edit(t, readBase(t), "data: 16", "data: 8")), CodeLayout)
	if len(g) != 1 || !strings.HasPrefix(g[0].Hint, "set `data: 16` to use every GPU") {
		t.Errorf("no typo: want the data hint, got\n%s", render(g))
	}
}

// TestWeightsFormatHint (newuser40 finding 5): a weights value the schema
// does not have and no allowed value is close to (nvfp4) gets a hint saying
// how a pre-quantized checkpoint is expressed; a near miss keeps "did you
// mean".
func TestWeightsFormatHint(t *testing.T) {
	for _, c := range []struct{ value, hint string }{
		{"nvfp4", preQuantizedHint},
		{"fp9", `did you mean "fp8" or "fp16"?`},
	} {
		g := findCode(mustBytes(t, "w.yaml", edit(t, readBase(t), "weights: fp8", "weights: "+c.value)), CodeValue)
		if len(g) != 1 || g[0].Hint != c.hint {
			t.Errorf("weights %s: want hint %q, got\n%s", c.value, c.hint, render(g))
		}
	}
	if !strings.Contains(preQuantizedHint, "model.config") || !strings.Contains(preQuantizedHint, "hf_quant_config.json") {
		t.Errorf("the hint must say how: model.config and hf_quant_config.json")
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "| `model.weights` |") && !strings.Contains(l, "`int8`") {
			t.Errorf("README's key table omits int8, which the schema allows: %s", l)
		}
	}
}

// TestPathQuant (newuser40 finding 1): a 16-bit catalog model served from
// a path that names a pre-quantized copy. The format the name states is
// served from the checkpoint (info, no --quantization); another is an
// error (vLLM would serve the checkpoint's format and refuses a different
// --quantization); weights auto counts 16-bit weights the copy does not
// hold (warning). A 16-bit path, or model.config, says nothing.
func TestPathQuant(t *testing.T) {
	base := edit(t, readBase(t), "name: deepseek-v3", "name: llama-3.3-70b", "  weights: fp8\n", "",
		"path: /models/DeepSeek-V3", "path: PATH", "served_name: deepseek-v3", "served_name: llama",
		"data: 16\n  expert: true", "data: 4\n  expert: false", "tensor: 1", "tensor: 4")
	for _, c := range []struct {
		path, weights string
		sev           diag.Severity
		field, msg    string
	}{
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "fp8", diag.Info, "model.weights", "so the bundle passes no --quantization"},
		{"nvidia/Llama-3.3-70B-Instruct-NVFP4", "fp8", diag.Error, "model.weights", "weights fp8 cannot come from it, vLLM serves the checkpoint's own NVFP4 weights and refuses --quantization fp8"},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "fp16", diag.Error, "model.weights", "weights fp16 cannot come from it"},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "bf16", diag.Warning, "model.path", "vLLM serves the checkpoint's FP8 weights"},
		{"RedHatAI/Llama-3.3-70B-Instruct-FP8-dynamic", "auto", diag.Warning, "model.path", "vLLM serves the checkpoint's FP8 weights, and vlaunch's estimates count bf16"},
		{"meta-llama/Llama-3.3-70B-Instruct", "fp8", 0, "", ""},
	} {
		src := edit(t, base, "path: PATH", "path: "+c.path+"\n  weights: "+c.weights)
		r, ds, _ := Bytes("q.yaml", []byte(src))
		g := findCode(ds, codes.GenUnsupported)
		if c.sev == diag.Info && (r == nil || !r.Engine.WeightsFromCheckpoint) {
			t.Errorf("%s %s: the named checkpoint's own format must resolve as from the checkpoint (no online quantization)", c.path, c.weights)
		}
		if c.msg == "" {
			if len(g) != 0 {
				t.Errorf("%s %s: want nothing, got\n%s", c.path, c.weights, render(g))
			}
			continue
		}
		if len(g) != 1 || g[0].Severity != c.sev || g[0].Path != c.field || !strings.Contains(g[0].Message, c.msg) {
			t.Errorf("%s %s: want %s at %s %q, got\n%s", c.path, c.weights, c.sev, c.field, c.msg, render(g))
		}
	}
}

// TestImagePin (newuser40 finding 8): a container image on a moving tag,
// or an official image of another release, does not run the release the
// spec was checked against: a warning (GEN009), for docker and kubernetes,
// not bare metal; a digest, the matching release, or an unset
// vllm.version (SPEC117's) says nothing.
func TestImagePin(t *testing.T) {
	for _, c := range []struct{ image, version, kind, want string }{
		{"rocm/vllm:latest", "0.11.0", "docker", "rocm/vllm:latest does not pin a release: vlaunch checked the spec against vLLM 0.11.0"},
		{"vllm/vllm-openai", "0.11.0", "kubernetes", "vllm/vllm-openai does not pin a release"},
		{"vllm/vllm-openai:v0.11.1", "0.11.0", "docker", "vllm/vllm-openai:v0.11.1 runs vLLM 0.11.1, but vlaunch checked the spec against vllm.version 0.11.0"},
		{"vllm/vllm-openai:v0.11.0", "0.11.0", "docker", ""},
		{"rocm/vllm:latest", "0.11.0", "bare", ""},
		{"vllm/vllm-openai:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "0.11.0", "docker", ""},
		{"registry.example.com/team/vllm:v0.11.0-cu128", "0.11.0", "docker", ""},
		// qa44b F8: AMD's and vLLM's ROCm builds name their release too
		// (the base spec checks vLLM 0.11.0).
		{"rocm/vllm:rocm7.0.0_vllm_0.11.2_20251210", "0.11.0", "docker", "rocm/vllm:rocm7.0.0_vllm_0.11.2_20251210 names vLLM 0.11.2 in its tag, but vlaunch checked the spec against vllm.version 0.11.0"},
		{"rocm/vllm:rocm7.12.0_gfx1151_ubuntu24.04_py3.12_pytorch_2.9.1_vllm_0.16.0", "0.11.0", "kubernetes", "rocm/vllm:rocm7.12.0_gfx1151_ubuntu24.04_py3.12_pytorch_2.9.1_vllm_0.16.0 names vLLM 0.16.0"},
		{"vllm/vllm-openai-rocm:v0.23.0", "0.11.0", "docker", "vllm/vllm-openai-rocm:v0.23.0 names vLLM 0.23.0"},
		{"rocm/vllm:rocm6.4.1_vllm_0.11.0_20251001", "0.11.0", "docker", ""},
		{"rocm/vllm:rocm7.0.0_vllm_0.11.2_20251210", "0.11.0", "bare", ""},
	} {
		src := edit(t, readBase(t), "image: vllm/vllm-openai:v0.11.0", "image: "+c.image, "kind: docker", "kind: "+c.kind)
		var got diag.Diagnostics
		for _, d := range findCode(mustBytes(t, "img.yaml", src), codes.GenRuntime) {
			if d.Path == "runtime.image" {
				got = append(got, d)
			}
		}
		switch {
		case c.want == "" && len(got) != 0:
			t.Errorf("%s on %s: want nothing, got\n%s", c.image, c.kind, render(got))
		case c.want != "" && (len(got) != 1 || got[0].Severity != diag.Warning || !strings.HasPrefix(got[0].Message, c.want)):
			t.Errorf("%s on %s: want warning %q, got\n%s", c.image, c.kind, c.want, render(got))
		}
	}
}

// TestImagePinUnknownROCmTag (qa44b F8): a ROCm build on a fixed tag that
// names no release gets an info note, not a warning: vlaunch cannot tell.
func TestImagePinUnknownROCmTag(t *testing.T) {
	src := edit(t, readBase(t), "image: vllm/vllm-openai:v0.11.0", "image: rocm/vllm:rocm7.0_vllm_qwen3coder_next")
	var got diag.Diagnostics
	for _, d := range findCode(mustBytes(t, "img.yaml", src), codes.GenRuntime) {
		if d.Path == "runtime.image" {
			got = append(got, d)
		}
	}
	if len(got) != 1 || got[0].Severity != diag.Info || !strings.Contains(got[0].Message, "cannot tell which vLLM release") {
		t.Errorf("want one info note that the release is unknown, got\n%s", render(got))
	}
}

// TestValidateReportsWhatGenerateRefuses (newuser40 finding 10): for a
// kubernetes spec, validate reports the model volume generate refuses
// (GEN013: a local model.path no volume gives the pods) or warns about
// (GEN009: a hub model downloaded at every start), through the one
// decision BundleRefusals holds; and All2AllNotes' speed warning (GEN004:
// `auto` without GPU-initiated RDMA across nodes) that generate prints.
func TestValidateReportsWhatGenerateRefuses(t *testing.T) {
	k8s := edit(t, readBase(t), "kind: docker", "kind: kubernetes")
	for _, c := range []struct {
		name, src string
		code      diag.Code
		sev       diag.Severity
		path, msg string
	}{
		{"local path", k8s, codes.GenModelVolume, diag.Error, "model.path", "is a local path, but no volume gives the pods that directory"},
		{"hub model", edit(t, k8s, "path: /models/DeepSeek-V3", "path: deepseek-ai/DeepSeek-V3"), codes.GenRuntime, diag.Warning, "model", "is downloaded from the Hugging Face hub"},
		{"volume", edit(t, k8s, "kind: kubernetes", "kind: kubernetes\n  kubernetes: {model_host_path: /models/DeepSeek-V3}"), codes.GenModelVolume, 0, "", ""},
		{"docker", readBase(t), codes.GenModelVolume, 0, "", ""},
	} {
		g := findCode(mustBytes(t, c.name+".yaml", c.src), c.code)
		if c.msg == "" {
			if len(g) != 0 {
				t.Errorf("%s: want no %s, got\n%s", c.name, c.code, render(g))
			}
			continue
		}
		if len(g) != 1 || g[0].Severity != c.sev || g[0].Path != c.path || g[0].Line == 0 || !strings.Contains(g[0].Message, c.msg) {
			t.Errorf("%s: want %s %s at %s %q, got\n%s", c.name, c.sev, c.code, c.path, c.msg, render(g))
		}
	}
	// All2AllNotes: `auto` across two nodes of a fabric without GPU-initiated RDMA.
	slow := edit(t, readBase(t), "inter_node: {kind: infiniband, bandwidth_gbit_per_s: 100}", "inter_node: {kind: ethernet, bandwidth_gbit_per_s: 100}")
	g := findCode(mustBytes(t, "slow.yaml", slow), codes.GenAll2All)
	if len(g) != 1 || g[0].Severity != diag.Warning || !strings.Contains(g[0].Message, "expect much slower MoE layers") {
		t.Errorf("auto on ethernet across nodes: want All2AllNotes' GEN004 speed warning, got\n%s", render(g))
	}
}
