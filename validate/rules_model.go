package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkModelRef resolves the model and reports an unknown catalog id (with
// suggestions) or an unreadable/invalid config.json.
func checkModelRef(c *checker) {
	m := c.d.Model
	if m.Name == "" && m.Config == "" {
		return // the schema reports the missing name/config
	}
	model, err := resolve.Model(c.d)
	if err == nil {
		if c.ok(p("model")) {
			c.model = model // only trusted when the schema found nothing wrong
			for _, n := range model.Notes {
				// How the config was read (a multimodal wrapper sized as its
				// language model, and how its vision encoder is counted).
				c.add(diag.Info, CodeModel, p("model", "config"), "", "%s", n)
			}
			quantIgnoredWarning(c, model)
		}
		return
	}
	if configFileError(c, err) {
		return
	}
	path, hint := p("model", "config"), "the path is relative to the spec file"
	if m.Name != "" {
		path, hint = p("model", "name"), "see `vlaunch models`, or replace `model.name` with `model.config: PATH/config.json` (relative to the spec file; a spec gives one of the two)"
	}
	var ue *catalog.UnknownError
	if errors.As(err, &ue) {
		c.errorf(CodeModel, path, unknownHint(ue, hint), "unknown model %q", ue.Name)
		return
	}
	var me *catalog.UnmodelledError
	if errors.As(err, &me) {
		hint = me.Hint()
	}
	c.errorf(CodeModel, path, hint, "%v", err)
}

// checkGPURef resolves the GPU and reports an unknown catalog id.
func checkGPURef(c *checker) {
	g := c.d.Hardware.GPU
	if g.Name == "" && g.Custom == nil {
		return
	}
	gpu, err := resolve.GPU(c.d)
	if err == nil {
		if c.ok(p("hardware", "gpu")) {
			c.gpu = gpu // incomplete custom figures were already reported
			noteGPUAlias(c)
		}
		return
	}
	var ue *catalog.UnknownError
	if errors.As(err, &ue) {
		c.errorf(CodeGPU, p("hardware", "gpu"), unknownHint(ue, "see `vlaunch gpus`, or give the GPU's figures (name, memory_mib, hbm_bandwidth_gbytes_per_s, bf16_tflops)"),
			"unknown GPU %q", ue.Name)
		return
	}
	c.errorf(CodeGPU, p("hardware", "gpu"), "", "%v", err)
}

func unknownHint(ue *catalog.UnknownError, fallback string) string {
	if len(ue.Suggestions) == 0 {
		return fallback
	}
	return suggest(ue.Name, ue.Suggestions) + " (" + fallback + ")"
}

// checkFP8 warns when the weights vLLM loads are FP8 on a GPU without FP8
// tensor cores: weights fp8 (online quantization or the checkpoint's own),
// or weights auto where the checkpoint ships FP8 — the model's own format,
// or a pre-quantized copy model.path names on a 16-bit catalog model
// (resolve.Deployment.CheckpointDType, the one answer; fix40d: an FP8 copy
// on an A100 under weights auto said nothing). vLLM still serves them,
// weight-only through FP8 Marlin (W8A16) below compute capability 8.9:
// Fp8LinearMethod's "use_marlin = not current_platform.
// has_device_capability(89)" in vllm/model_executor/layers/quantization/
// fp8.py (read at vllm-project/vllm @1436674b, not at a release tag),
// FBGEMMFp8Config's same line with get_min_capability 80 (docs.vllm.ai
// v0.10.0 API page of fbgemm_fp8.py), and the FP8 guide's "FP8 models will
// run on compute capability > 8.0 (Ampere) as weight-only W8A16, utilizing
// FP8 Marlin" (docs.vllm.ai v0.5.5; ">= 7.5 (Turing)" in the current
// guide); introduced by PR #5975 ("Expand FP8 support to Ampere GPUs
// using FP8 Marlin", merged July 2024; first release not read).
func checkFP8(c *checker) {
	if c.gpu == nil {
		return
	}
	w, ckpt := c.d.Model.Weights, ""
	if c.model != nil {
		// An INT8 W8A8 checkpoint resolves to "int8", not "fp8": vLLM's
		// CompressedTensorsW8A8Int8 runs INT8 GEMMs from compute
		// capability 7.5 ("turing and up", get_min_capability 75;
		// compressed_tensors_w8a8_int8.py read at commit 00ba7ff1), not
		// the FP8 Marlin fallback this warns of.
		ckpt = (&resolve.Deployment{Spec: c.d, Model: c.model}).CheckpointDType()
	}
	if w == "auto" || w == "" {
		w = ckpt
	}
	if w != "fp8" || c.gpu.FP8TFLOPS > 0 {
		return
	}
	c.warnf(CodeFP8, p("model", "weights"), fp8Fix(c, ckpt),
		"%s has no FP8 tensor cores: vLLM serves FP8 weights there with the weight-only FP8 Marlin kernel (W8A16), so weights take FP8 memory but matmuls run in BF16, dequantizing on the fly",
		gpuLabel(c))
}

// fp8Fix is checkFP8's way out: weights bf16 where vLLM can load the
// checkpoint as 16-bit (online FP8 of a 16-bit checkpoint); a checkpoint
// that ships FP8 has no 16-bit weights to serve, so a 16-bit checkpoint
// (another model.path) instead.
func fp8Fix(c *checker, ckpt string) string {
	gpu := "or a GPU with FP8 (compute capability 8.9 or newer: L40S, H100, H20, H200, B200)"
	if ckpt == "fp8" {
		what := "serve a BF16 checkpoint of the model"
		if catalog.NamedQuant(c.d.Model.Path) == "fp8" {
			what = "point model.path at the BF16 checkpoint instead of " + c.d.Model.Path
		}
		return what + " (twice the weight memory, full speed), " + gpu
	}
	return "use `weights: bf16` (twice the weight memory, full speed) " + gpu
}

func gpuLabel(c *checker) string {
	if c.gpu.Name != "" {
		return c.gpu.Name
	}
	return strings.ToUpper(c.gpu.ID)
}

// checkSparseAttention: a model with DeepSeek sparse attention (V3.2's
// indexer) needs a release that serves it and a GPU its kernels run on
// (vllm.Release.SparseMLA).
func checkSparseAttention(c *checker) {
	if c.model == nil || !c.model.IsSparseAttention() || !c.relOK || c.gpu == nil {
		return
	}
	if ok, why, _ := c.rel.SparseMLA(c.gpu.ComputeMajor); !ok {
		c.errorf(CodeModel, modelPath(c), "use vLLM 0.11.0 or newer on Hopper or Blackwell GPUs", "%s cannot be served: %s", c.model.ID, why)
	}
}

// checkArchitectureRelease warns when the release is older than the one
// vLLM's recipes name as the minimum for the model's architecture
// (vllm.Release.Architecture: DeepSeek-V4, Gemma 4, GLM-5, MiMo-V2-Flash,
// Nemotron-3's latent MoE, Qwen3.5 MoE, MiniMax-M3). A warning, not an
// error: the first release that serves each was not read, so an older one
// may serve it (an error only for a release a source shows without the
// architecture: MiniMax-M3 at 0.23.0 and before); but a bundle for Nemotron-3 Ultra on vLLM 0.12 validated clean and
// would fail at start-up if it does not. Nemotron-H without a latent MoE
// is older than the table's release and is not asked about.
func checkArchitectureRelease(c *checker) {
	if c.model == nil || !c.relOK {
		return
	}
	t := c.model.ModelType
	if t == "nemotron_h" && c.model.MoELatentSize <= 0 {
		return
	}
	checkRegisteredArchitecture(c)
	a, ok := c.rel.Architecture(t)
	if !ok || a.Serves == vllm.Present {
		return
	}
	if a.Serves == vllm.Absent {
		// A source shows this release without the architecture: its
		// bundle could not start, so this one is refused.
		c.errorf(CodeModel, p("vllm", "version"), fmt.Sprintf("use vLLM %s or newer", a.Since),
			"vLLM %s does not serve %s (model_type %q): the architecture came in %s (%s)",
			c.rel.Version, c.model.ID, t, a.Since, strings.SplitN(a.Source, "; ", 2)[0])
		return
	}
	c.warnf(CodeModel, p("vllm", "version"), fmt.Sprintf("use vLLM %s or newer, or confirm that vLLM %s lists the architecture (vllm/model_executor/models/registry.py)", a.Since, c.rel.Version),
		"vLLM %s is older than %s, the release vLLM's recipes name as the minimum for %s (model_type %q): whether %s serves it is not established, and a release without it fails at start-up",
		c.rel.Version, a.Since, c.model.ID, t, c.rel.Version)
}

// checkRegisteredArchitecture warns when the config names an architecture
// vLLM's model registry does not map for its model_type
// (vllm.Release.RegisteredArchitectures: MiniMax-M3's text-only config
// says MiniMaxM3ForCausalLM, vLLM registers MiniMaxM3SparseForCausalLM):
// vLLM resolves the model class by that name and stops at start-up when
// it has none, so a bundle from the config as it is does not start.
func checkRegisteredArchitecture(c *checker) {
	arch := c.model.Architecture
	names, src, ok := c.rel.RegisteredArchitectures(c.model.ModelType)
	if !ok || arch == "" || slices.Contains(names, arch) || overridesArchitecture(c.d.VLLM.ExtraArgs, names) {
		return
	}
	c.warnf(CodeModel, modelPath(c), fmt.Sprintf("set the config's architectures to [%q] (or pass --hf-overrides '{\"architectures\": [%q]}' through vllm.extra_args)", names[0], names[0]),
		"%s names architecture %s, which vLLM's model registry does not map (it registers %s for model_type %q): vLLM %s would stop at start-up (\"Model architectures [%q] are not supported\"), so a bundle from this config does not start as it is (%s)",
		c.model.ID, arch, strings.Join(names, " and "), c.model.ModelType, c.rel.Version, arch, strings.SplitN(src, "; ", 2)[0])
}

// overridesArchitecture reports whether extra args pass --hf-overrides
// whose architectures name one of names (vLLM applies hf_overrides to the
// config before it resolves the model class).
func overridesArchitecture(extra, names []string) bool {
	for i, a := range extra {
		v, ok := strings.CutPrefix(a, "--hf-overrides=")
		if !ok && a == "--hf-overrides" && i+1 < len(extra) {
			v, ok = extra[i+1], true
		}
		var o struct {
			Architectures []string `json:"architectures"`
		}
		if ok && json.Unmarshal([]byte(v), &o) == nil && slices.ContainsFunc(o.Architectures, func(a string) bool { return slices.Contains(names, a) }) {
			return true
		}
	}
	return false
}

// modelPath is the field that names the model.
func modelPath(c *checker) []string {
	if c.d.Model.Name != "" {
		return p("model", "name")
	}
	return p("model", "config")
}
