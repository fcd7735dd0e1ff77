package memory

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
	"gopkg.in/yaml.v3"
)

// updateMemoryCalibration regenerates docs/calibration-memory.md:
//
//	go test ./estimate/memory -run TestMemoryCalibration -update-memory-calibration
var updateMemoryCalibration = flag.Bool("update-memory-calibration", false, "rewrite docs/calibration-memory.md")

// Accuracy targets of issue 3.
const (
	targetWeights   = 0.03 // weights per GPU
	targetKVTokens  = 0.01 // KV tokens from the logged available memory
	targetAvailable = 0.10 // predicted available KV memory
)

// sharedCalibration is the calibration set next to the repository; the
// tests read package calibration's embedded copy (kept identical by
// TestCalibrationCopyIsCurrent).
const sharedCalibration = "../../../shared/calibration/vllm-memory-logs.yaml"

type calCase struct {
	ID        string `yaml:"id"`
	Version   string `yaml:"vllm_version"`
	Model     string `yaml:"model"`
	Weights   string `yaml:"weights_dtype"`
	KVDType   string `yaml:"kv_cache_dtype"`
	GPU       string `yaml:"gpu"`
	GPUMemGiB string `yaml:"gpu_mem_gib"`
	TP        int    `yaml:"tp"`
	PP        int    `yaml:"pp"`
	DP        int    `yaml:"dp"`
	EP        string `yaml:"ep"`
	// DCP is --decode-context-parallel-size where the run set it.
	DCP         int    `yaml:"dcp"`
	Util        string `yaml:"gpu_memory_utilization"`
	UtilNote    string `yaml:"gpu_memory_utilization_note"`
	MaxModelLen string `yaml:"max_model_len"`
	MaxNumSeqs  string `yaml:"max_num_seqs"`
	// MaxNumBatchedTokens is set only where the log names it.
	MaxNumBatchedTokens string `yaml:"max_num_batched_tokens"`
	Eager               string `yaml:"enforce_eager"`
	// FlashInfer is "not installed" where the log says so ("FlashInfer is
	// not available. Falling back to the PyTorch-native implementation of
	// top-p & top-k sampling"), or "installed, its sampler opt-in" where
	// the run is a main build after PR #26859 that vlaunch reads with an
	// earlier release's rules (the case's note cites the build's date):
	// either way the profile sorts, as with VLLM_USE_FLASHINFER_SAMPLER=0
	// (vllm.Release.ProfileSampler).
	FlashInfer string `yaml:"flashinfer"`
	Measured   struct {
		Weights     string `yaml:"weights_gib_per_gpu"`
		Available   string `yaml:"available_kv_gib_per_gpu"`
		Tokens      string `yaml:"kv_cache_tokens"`
		TokensDeriv string `yaml:"kv_cache_tokens_derived"`
		BlockSize   string `yaml:"block_size"`
		Concurrency string `yaml:"max_concurrency"`
		Error       string `yaml:"error"`
		// NonTorch is the profile's non_torch_memory, where logged.
		NonTorch string `yaml:"non_torch_gib"`
		// Needed is "(X GiB KV cache is needed ...)" from the start-up check.
		Needed string `yaml:"kv_needed_gib_for_max_model_len"`
	} `yaml:"measured"`
}

// calExclusion says why a metric of a case is not held to its target. Only
// incomplete or inconsistent inputs, and vLLM behaviour vlaunch does not
// model, are reasons; an inconvenient error is not.
type calExclusion struct{ all, weights, tokens, available string }

var calExclusions = map[string]calExclusion{
	"dsr1-pr14842-v0-mla-aligned": {all: "incomplete: GPU, weights and available memory not logged (tokens only); " +
		"KV entries padded 576→640 by VLLM_MLA_CUDA_MEM_ALIGN_KV_CACHE=1, a V0 option vlaunch does not model"},
	"dsr1-pr14842-v0-mla-unaligned": {all: "incomplete: GPU, weights and available memory not logged (tokens only)"},
	"dsv2lite-chat-pr10927-h100-premla": {
		tokens:    "vLLM before MLA support (Dec 2024) cached full K/V padded to 256 per head; vlaunch models vLLM with MLA",
		available: "pre-MLA V0 with the FlashInfer backend logged 5.21 GiB non-torch memory, unexplained by its configuration"},
	"qwen3-235b-fp8-21348-h100x4": {
		tokens:    "inconsistent log: the Available line is one worker's (8.11 GiB), the pool is the min over workers (the logged tokens imply 8.02 GiB)",
		available: "incomplete: LMCacheConnectorV1 (kv_both) allocates GPU buffers vlaunch does not model; H100 total and utilization not logged"},
	"gptoss-120b-23278-h100-fail": {
		available: "incomplete: GPU total, gpu_memory_utilization, max_model_len and version not logged (defaults assumed); start-up failed"},
	"dsv4flash0731-tant2-h100-tp8ep": {
		tokens: "within 10% but not held to 1%: with the in-flight reserve vLLM has charged sliding-window caches since 0.26.0 " +
			"(two 8,192-token batches under async scheduling, vllm.Release.SlidingWindowInFlight) vlaunch gives 6.28x and " +
			"1,647,159 tokens against the logged 6.59x and 1,728,531 (-4.7%); the 0.31 build's exact packing of DeepSeek-V4's " +
			"caches (its kv_cache_utils.py) was not read, and the 0.26.0 log of the same model comes out 8.5% low the same way"},
	"minimax-m3-rtn-mxfp4-b200-tp2-v0231dev": {all: "incomplete: a private RTN MXFP4 conversion whose config.json is not public (weights not sizable " +
		"from a cited config) and a GPU inferred, not logged; its KV lines and its end-to-end miss are held by TestMiniMaxM3LogKVFromLoggedMemory " +
		"and TestMiniMaxM3LogCutlassMXFP4 (-0.6% with the logged weights and the log's CUTLASS MXFP4 experts; +23% with the NVFP4 stand-in's, TestMiniMaxM3LogEndToEnd)"},
}

// calModel maps the logged model names onto catalog entries and the
// checkpoint format where the catalog only has the 16-bit original; a model
// outside the catalog names its published config.json (config, relative to
// this package) instead of an id.
var calModels = []struct{ match, id, quant, config string }{
	{match: "gemma-3-27b", config: "../../catalog/testdata/hf/gemma-3-27b-it.reconstructed.json"},
	{match: "gemma-4-26b-a4b", id: "gemma-4-26b-a4b"},
	// GLM-5.1 ships GLM-5's config.json shapes (glm_moe_dsa, no IndexShare).
	{match: "glm-5.1-fp8", id: "glm-5-fp8"},
	{match: "glm-5.2-dummy", config: "../../catalog/testdata/hf/glm-5.2-dummy.pocketinfer.verbatim.json"},
	{match: "minimax-m2.5", id: "minimax-m2.5"},
	{match: "llama-4-scout-17b-16e", config: "../../catalog/testdata/hf/llama-4-scout-17b-16e-instruct.verbatim.json"},
	// Kimi-K2-Thinking is not in the catalog: Kimi-K2.5's text_config is the
	// same language model with the same INT4 experts (the case's notes).
	{match: "kimi-k2-thinking", config: "../../catalog/testdata/hf/kimi-k2.5.json"},
	// google/gemma-4-31B-it in BF16: NVIDIA's NVFP4 build of it without its
	// quantization_config (quant "original").
	{match: "gemma-4-31b-it", config: "../../catalog/testdata/hf/gemma-4-31b-it-nvfp4.verbatim.json", quant: "original"},
	// Qwen3-Next-80B-A3B-Instruct has the Thinking model's config.json
	// shapes (the catalog holds the Thinking one).
	{match: "qwen3-next-80b-a3b", id: "qwen3-next-80b-a3b"},
	// Nemotron-Cascade-2-30B-A3B is Nemotron-3 Nano's architecture; its
	// NVFP4 build is sized with NVIDIA's Nano NVFP4 recipe (verbatim
	// config.json and hf_quant_config.json; the case's notes say why).
	{match: "nemotron-cascade-2-30b-a3b-nvfp4", config: "../../catalog/testdata/ckpt/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4/config.json"},
	// Qwen3-VL-30B-A3B-Instruct in BF16: the wrapper's text_config and
	// vision_config as published (vision encoder counted with the weights).
	{match: "qwen3-vl-30b-a3b", config: "../../catalog/testdata/hf/qwen3-vl-30b-a3b-instruct.json"},
	// nvidia/Qwen3.6-35B-A3B-NVFP4 (ModelOpt MIXED_PRECISION): its
	// verbatim config.json and hf_quant_config.json (catalog/testdata/ckpt).
	// ibm-granite/granite-4.0-h-1b: the reconstructed config.json (its
	// README row says which fields are quoted).
	{match: "granite-4.0-h-1b", config: "../../catalog/testdata/hf/granite-4.0-h-1b.reconstructed.json"},
	{match: "qwen3.6-35b-a3b-nvfp4", config: "../../catalog/testdata/ckpt/nvidia--Qwen3.6-35B-A3B-NVFP4/config.json"},
	{"deepseek-r1", "deepseek-r1", "", ""},
	{"deepseek-v4-flash", "deepseek-v4-flash", "", ""},
	// MiMo-V2.6-Flash-MOPD: MiMo-V2-Flash's text decoder in its own
	// checkpoint format (MXFP4 experts, FP8 q/k/v, BF16 o_proj), from the
	// Flash-RL release's config.json (the same geometry and bytes).
	{match: "mimo-v2.6-flash", config: "../../catalog/testdata/hf/mimo-v2.6-flash.reconstructed.json"},
	{"deepseek-v2-lite", "deepseek-v2-lite", "", ""},
	{"qwen3-235b-a22b-fp8", "qwen3-235b-a22b-fp8", "", ""},
	{"qwen3-30b-a3b", "qwen3-30b-a3b", "", ""},
	{"qwen3-8b", "qwen3-8b", "", ""},
	{"qwen2.5-72b", "qwen2.5-72b", "", ""},
	{"llama-3.3-70b-instruct-fp8-dynamic", "llama-3.3-70b", "compressed-tensors", ""},
	{"llama-3.3-70b-instruct-quantized.w8a8", "llama-3.3-70b", "w8a8", ""},
	{"llama-3.1-8b", "llama-3.1-8b", "", ""},
	{"mixtral-8x7b", "mixtral-8x7b", "", ""},
	{"gpt-oss-120b", "gpt-oss-120b", "", ""},
	{"gpt-oss-20b", "gpt-oss-20b", "", ""},
}

var calGPUs = map[string]string{"H100": "h100-sxm", "H20-3e": "h20-141g", "A100": "a100-80g", "H200": "h200", "H800": "h800", "RTX PRO 6000": "rtx-pro-6000", "B300": "b300"}

// calRow is one line of the published table.
type calRow struct {
	c                           calCase
	skip                        string
	assumed                     []string
	wLog, wPred                 float64
	bpt                         int64
	impliedBPT                  float64
	tokLog, tokFromLog, tokPred int64
	availLog, availPred         float64
	concLog, concFromLog        float64
	hasConc                     bool
	hasW, hasTok, hasAvail      bool
	exclW, exclTok, exclAvail   string
	failedLog, failedPred       bool
	// concPred is "Maximum concurrency" at max_model_len predicted end to
	// end (from the predicted available memory), as tokPred is "GPU KV
	// cache size" as the release prints it.
	concPred float64
}

func loadCalibration(t testing.TB) ([]calCase, string) {
	var doc struct {
		Cases []calCase `yaml:"cases"`
	}
	if err := yaml.Unmarshal(published.MemoryLogsYAML(), &doc); err != nil {
		t.Fatalf("published/vllm-memory-logs.yaml: %v", err)
	}
	return doc.Cases, "published/vllm-memory-logs.yaml"
}

var numRE = regexp.MustCompile(`^-?[0-9][0-9.]*`)

// num reads the leading number of a field such as "1024 (default)".
func num(s string) (float64, bool) {
	m := numRE.FindString(strings.TrimSpace(s))
	if m == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(m, 64)
	return v, err == nil
}

var exactVersionRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?$`)

var leadingVersionRE = regexp.MustCompile(`^(\d+\.\d+\.\d+)(?:[ .+]|rc\d)`)

var approxVersionRE = regexp.MustCompile(`~(\d+\.\d+)(\.\d+)?`)

// calVersion reads the logged version, an approximate "~0.7.x" from the
// note, or the engine generation (V0 → 0.7.0, V1 → 0.10.0) as a last resort.
func calVersion(s string) (string, string) {
	if exactVersionRE.MatchString(s) {
		return s, ""
	}
	// "0.10.1.dev101 (...)", "0.14.1 (from the title)",
	// "0.31.1rc1.dev50+g554340f3d": a logged release number followed by a
	// note or a pre-release/local suffix (vllm.Resolve ignores those too).
	if m := leadingVersionRE.FindStringSubmatch(s); m != nil {
		return m[1], ""
	}
	if m := approxVersionRE.FindStringSubmatch(s); m != nil {
		v := m[1] + strings.TrimSuffix(m[2], ".")
		if m[2] == "" {
			v += ".0"
		}
		return v, "version ≈" + v
	}
	if strings.Contains(s, "V0") {
		return "0.7.0", "version assumed 0.7.0 (V0)"
	}
	return "0.10.0", "version assumed 0.10.0 (V1)"
}

// calInput builds the estimator input for a case from its logged settings.
func calInput(c calCase) (*input.Input, []string, error) {
	m, weights, err := calModel(c)
	if err != nil {
		return nil, nil, err
	}
	g, note := calGPU(c)
	return calBuild(c, m, weights, g, note)
}

// calModel maps the logged model name onto a catalog entry and the
// weights format vlaunch is asked for.
func calModel(c calCase) (*catalog.Model, string, error) {
	model := strings.ToLower(strings.Fields(c.Model)[0])
	weights := "auto"
	for _, e := range calModels {
		if !strings.Contains(model, e.match) {
			continue
		}
		if e.config != "" {
			m, err := calConfig(e.config, e.quant == "original")
			if err == nil {
				err = m.Modelled()
			}
			return m, weights, err
		}
		m, err := catalog.LookupModel(e.id)
		if err != nil {
			return nil, "", err
		}
		switch e.quant {
		case "compressed-tensors":
			m.Quant.Method = "compressed-tensors"
		case "w8a8":
			// RedHatAI's quantized.w8a8: compressed-tensors INT8 weights,
			// one scale per output channel; its weights resolve to int8
			// as the checkpoint ships them (model.weights int8 is refused
			// of a 16-bit checkpoint).
			m.Quant.Method, m.Quant.WeightType, m.Quant.WeightStrategy, m.Quant.WeightBits = "compressed-tensors", "int", "channel", []int{8}
		}
		return m, weights, nil
	}
	return nil, "", fmt.Errorf("model %q not in the catalog", c.Model)
}

// calConfig reads a published config.json; unquantized drops its
// quantization_config, for a case that runs the 16-bit original of a
// quantized build's architecture.
func calConfig(path string, unquantized bool) (*catalog.Model, error) {
	if !unquantized {
		return catalog.LoadHFConfig(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c map[string]any
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	delete(c, "quantization_config")
	if data, err = json.Marshal(c); err != nil {
		return nil, err
	}
	return catalog.ParseHFConfig(data)
}

// calBuild resolves the engine settings of a case for a model and GPU.
func calBuild(c calCase, m *catalog.Model, weights string, g *catalog.GPU, gnote string) (*input.Input, []string, error) {
	var assumed []string
	if strings.HasPrefix(c.Weights, "fp16") {
		weights = "fp16"
	}
	if gnote != "" {
		assumed = append(assumed, gnote)
	}
	version, vnote := calVersion(c.Version)
	if vnote != "" {
		assumed = append(assumed, vnote)
	}
	in := &input.Input{Model: m, GPU: g, VLLMVersion: version,
		Layout: input.Layout{TP: c.TP, PP: max(c.PP, 1), DP: max(c.DP, 1), EP: c.EP == "true", Nodes: 1, GPUsPerNode: 8}}
	util, ok := num(c.Util)
	if !ok {
		util = 0.9
		assumed = append(assumed, "utilization unknown: 0.9 assumed")
	}
	mml, ok := num(c.MaxModelLen)
	if !ok {
		assumed = append(assumed, "max_model_len: model default")
	}
	var seqs, mnbt *int
	if v, ok := num(c.MaxNumSeqs); ok {
		n := int(v)
		seqs = &n
	}
	if v, ok := num(c.MaxNumBatchedTokens); ok {
		n := int(v)
		mnbt = &n
	}
	kv := "auto"
	if strings.HasPrefix(c.KVDType, "fp8") {
		kv = "fp8"
	}
	if c.UtilNote != "" {
		assumed = append(assumed, "utilization default")
	}
	var dcp *int
	if c.DCP > 1 {
		dcp = &c.DCP
	}
	ds := in.Resolve(resolve.EngineSettings{Weights: weights, KVCacheDType: kv, Util: &util, MaxModelLen: int(mml),
		MaxNumSeqs: seqs, MaxNumBatchedTokens: mnbt, EnforceEager: strings.HasPrefix(c.Eager, "true"), DCP: dcp})
	if ds.HasErrors() {
		return nil, nil, fmt.Errorf("%v", ds)
	}
	switch {
	case strings.HasPrefix(c.FlashInfer, "not installed"), strings.HasPrefix(c.FlashInfer, sortingBuild):
		// vLLM samples with FlashInfer only when it is installed and
		// VLLM_USE_FLASHINFER_SAMPLER is not 0 (from PR #26859 only when
		// it is 1); without it, as with the variable at 0, TopKTopPSampler
		// takes the PyTorch sort (vllm.Release.ProfileSampler), so the
		// variable stands in for the missing package or the build's
		// opt-in default.
		if in.Env == nil {
			in.Env = map[string]string{}
		}
		in.Env[vllm.FlashInferSamplerVariable] = "0"
		why := "FlashInfer not installed (logged): the profile's sampler sorts"
		if strings.HasPrefix(c.FlashInfer, sortingBuild) {
			why = "a main build after PR #26859 (FlashInfer's sampler opt-in): the profile's sampler sorts"
		}
		assumed = append(assumed, why)
	}
	return in, assumed, nil
}

// sortingBuild begins the flashinfer field of a case whose build postdates
// vLLM PR #26859 ("Disable FlashInfer sampler by default") while vlaunch
// applies an earlier release's rules to it.
const sortingBuild = "installed, its sampler opt-in"

// calGPU uses the logged device total when there is one (it is what vLLM
// multiplied), the catalog figure otherwise.
func calGPU(c calCase) (*catalog.GPU, string) {
	var g *catalog.GPU
	for key, id := range calGPUs {
		if strings.Contains(c.GPU, key) && (g == nil || key == "H20-3e") {
			g, _ = catalog.LookupGPU(id)
		}
	}
	total, ok := num(c.GPUMemGiB)
	switch {
	case g == nil && ok:
		cg := &catalog.GPU{ID: "custom", Name: c.GPU, MemoryMiB: total * 1024}
		if strings.Contains(c.GPU, "PCIe") {
			cg.IntraNodeKind = "pcie" // no NVLink: NCCL's ring buffers only
		}
		return cg, ""
	case g == nil:
		return nil, "GPU unknown"
	case ok:
		cp := *g
		cp.MemoryMiB = total * 1024
		return &cp, ""
	}
	return g, "device total from the catalog"
}

func runCalibration(t testing.TB, cases []calCase) []calRow {
	var rows []calRow
	for _, c := range cases {
		r := calRow{c: c}
		ex := calExclusions[c.ID]
		r.skip, r.exclW, r.exclTok, r.exclAvail = ex.all, ex.weights, ex.tokens, ex.available
		if r.skip == "" {
			r.evaluate(t)
		}
		rows = append(rows, r)
	}
	return rows
}

// fromLoggedPool fills the figures derived from the logged available KV
// memory: block-rounded tokens, the bytes per token the log implies, and
// vLLM's "Maximum concurrency for max_model_len tokens" (the same pool over
// one sequence's blocks, sliding-window layers counted as vLLM's KV specs
// count them).
func (r *calRow) fromLoggedPool(loggedTokens float64, kv KVLayout, in *input.Input) {
	r.tokLog = int64(loggedTokens)
	blk := float64(r.bpt) * float64(in.BlockSize)
	r.tokFromLog = int64(math.Floor(r.availLog*GiB/blk)) * int64(in.BlockSize)
	pool := float64(r.tokFromLog) * float64(r.bpt)
	// With decode context parallelism the log multiplies the rank's tokens
	// by the DCP size (vllm.DCPLogSource); the pool is the rank's.
	r.tokFromLog *= int64(in.DCPSize())
	if t, ok := kv.ReportedTokens(r.availLog*GiB, in.MaxModelLen, reportsAsConcurrency(in)); ok {
		// Several KV-cache groups: the log prints the release's rule.
		r.tokFromLog = t
	}
	r.impliedBPT = r.availLog * GiB / (loggedTokens / float64(in.DCPSize()))
	r.concLog, r.hasConc = num(r.c.Measured.Concurrency)
	r.concFromLog = pool / float64(kv.SequenceBytes(in.MaxModelLen, in.BlockSize))
}

func (r *calRow) evaluate(t testing.TB) {
	in, assumed, err := calInput(r.c)
	if err != nil {
		t.Fatalf("%s: %v", r.c.ID, err)
	}
	if in.GPU == nil {
		r.skip = "GPU unknown"
		return
	}
	r.assumed = assumed
	if bs, ok := num(r.c.Measured.BlockSize); ok {
		in.BlockSize = int(bs) // the block size vLLM logged is an input, not a prediction
	}
	rep := Estimate(in)
	r.assumed = append(r.assumed, gapNotes(rep)...)
	// The logged lines are rank 0's (the first pipeline stage): vLLM's
	// driver worker prints them; other ranks' lines carry a worker prefix.
	logged := rep.Stages[0]
	r.wPred, r.availPred = logged.WeightsGiB, logged.AvailableKVGiB
	r.wLog, r.hasW = num(r.c.Measured.Weights)
	r.bpt = logged.KV.BytesPerToken
	r.tokPred = rep.KVTokensPerRank
	if rep.KVTokensLogged > 0 {
		r.tokPred = rep.KVTokensLogged
	}
	r.concPred = rep.MaxConcurrencyAtMaxModelLen
	r.availLog, r.hasAvail = num(r.c.Measured.Available)
	tok, okTok := num(r.c.Measured.Tokens)
	if !okTok {
		tok, okTok = num(r.c.Measured.TokensDeriv)
	}
	r.hasTok = okTok && r.hasAvail
	if r.hasTok {
		r.fromLoggedPool(tok, logged.KV, in)
	}
	r.failedLog = r.c.Measured.Error != "" || (r.hasAvail && r.availLog <= 0)
	r.failedPred = !rep.Capacity.OneSequenceFits
}

func relErr(pred, log float64) float64 { return (pred - log) / math.Abs(log) }

// reportsAsConcurrency is whether in's release prints "GPU KV cache size" as
// max_concurrency × max_model_len (vllm.Release.KVTokensAsConcurrency).
func reportsAsConcurrency(in *input.Input) bool {
	p, _ := in.Release().KVTokensAsConcurrency()
	return p == vllm.Present
}

// targetNewArch is issue #23's target for the architectures it added: a
// public start-up log's available KV memory, "GPU KV cache size" and
// "Maximum concurrency" each predicted within 10%, end to end.
const targetNewArch = 0.10

// newArchitectures are the cases that reproduce an architecture of issue
// #23, with the family they stand for.
var newArchitectures = map[string]string{
	"gemma3-27b-llmd-h100-tp1":                        "Gemma 3 (gemma3_text: 52 sliding-window and 10 global layers)",
	"llama4-scout-llmd-h100-tp4":                      "Llama 4 (llama4_text: chunked attention, MoE with a shared expert)",
	"gemma4-26b-a4b-myoceane-a100-tp1":                "Gemma 4 (gemma4_text: 25 sliding-window and 5 wider global layers, MoE beside the MLP)",
	"kimi-k2-thinking-recipe-h200-tp8":                "Kimi-K2-Thinking / Kimi-K2.5's text model (Kimi-K2's MLA MoE, INT4 compressed-tensors experts)",
	"kimi-k2-thinking-recipe-h200-tp8-dcp8":           "Kimi-K2-Thinking at TP8 + DCP8 (decode context parallelism: the KV cache split by token over the TP group)",
	"glm51-fp8-bisect43163-h200-tp8":                  "GLM-5.1 (glm_moe_dsa: MLA + DeepSeek sparse attention, an indexer in every layer)",
	"glm52-dummy-pocketinfer-h800nvl32g-tp1":          "GLM-5.2 layout (glm_moe_dsa with IndexShare: 5 of 11 layers keep an indexer; a scaled config)",
	"qwen3next-80b-instruct-h200-tp2-v0102":           "Qwen3-Next (qwen3_next: 36 Gated DeltaNet and 12 full-attention layers, 512 experts and a shared expert)",
	"nemotron-cascade2-nvfp4-h100-94g-tp1-v0191":      "Nemotron-H (nemotron_h: Nemotron-3 Nano's 23 Mamba-2, 23 MoE and 6 attention layers; ModelOpt NVFP4)",
	"granite4-h-1b-rtx3060-v0190":                     "Granite-4.0-H (granitemoehybrid: 36 Mamba-2 and 4 attention layers, each followed by its FFN; the dense -1B)",
	"qwen36-35b-a3b-nvfp4-club3090-rtx5090-tp1-v0240": "Qwen3.6 (qwen3_5_moe: 30 Gated DeltaNet and 10 full-attention layers, 256 experts; ModelOpt MIXED_PRECISION, vision tower, fp8 KV, prefix caching on)",
}

// newArchMisses lists a new-architecture case's figures outside
// targetNewArch.
func newArchMisses(r calRow) []string {
	var miss []string
	check := func(what string, pred, log float64, has bool) {
		if has && math.Abs(relErr(pred, log)) > targetNewArch {
			miss = append(miss, fmt.Sprintf("%s %.2f predicted, %.2f logged (%+.1f%%)", what, pred, log, 100*relErr(pred, log)))
		}
	}
	check("available KV GiB", r.availPred, r.availLog, r.hasAvail)
	check("GPU KV cache size", float64(r.tokPred), float64(r.tokLog), r.hasTok)
	check("maximum concurrency", r.concPred, r.concLog, r.hasConc)
	return miss
}

// TestMemoryCalibration runs the estimator on every usable logged vLLM
// start-up and holds it to the targets.
func TestMemoryCalibration(t *testing.T) {
	cases, path := loadCalibration(t)
	rows := runCalibration(t, cases)
	for _, r := range rows {
		if r.skip != "" {
			continue
		}
		if r.hasW && r.exclW == "" && math.Abs(relErr(r.wPred, r.wLog)) > targetWeights {
			t.Errorf("%s: weights %.2f GiB predicted, %.2f logged (%+.1f%%)", r.c.ID, r.wPred, r.wLog, 100*relErr(r.wPred, r.wLog))
		}
		if r.hasTok && r.exclTok == "" && math.Abs(relErr(float64(r.tokFromLog), float64(r.tokLog))) > targetKVTokens {
			t.Errorf("%s: %d KV tokens from the logged memory, %d logged", r.c.ID, r.tokFromLog, r.tokLog)
		}
		if r.hasConc && r.exclTok == "" && math.Abs(relErr(r.concFromLog, r.concLog)) > targetKVTokens {
			t.Errorf("%s: max concurrency %.2f from the logged memory, %.2f logged", r.c.ID, r.concFromLog, r.concLog)
		}
		if r.hasAvail && r.exclAvail == "" && !r.failedLog && math.Abs(relErr(r.availPred, r.availLog)) > targetAvailable {
			t.Errorf("%s: available KV %.2f GiB predicted, %.2f logged (%+.1f%%)", r.c.ID, r.availPred, r.availLog, 100*relErr(r.availPred, r.availLog))
		}
		if r.failedLog && !r.failedPred {
			t.Errorf("%s: vLLM failed at start-up, vlaunch predicts it starts", r.c.ID)
		}
		if _, ok := newArchitectures[r.c.ID]; ok {
			for _, m := range newArchMisses(r) {
				t.Errorf("%s: %s", r.c.ID, m)
			}
		}
	}
	for id := range newArchitectures {
		if !slices.ContainsFunc(rows, func(r calRow) bool { return r.c.ID == id && r.skip == "" }) {
			t.Errorf("new-architecture case %s is not in the set (or excluded)", id)
		}
	}
	md := calibrationMarkdown(rows, path)
	t.Log("\n" + md)
	if *updateMemoryCalibration {
		if err := os.WriteFile("../../docs/calibration-memory.md", []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCalibrationMarkdownIsCurrent fails when the published table differs
// from what the estimator produces now.
func TestCalibrationMarkdownIsCurrent(t *testing.T) {
	cases, path := loadCalibration(t)
	want := calibrationMarkdown(runCalibration(t, cases), path)
	got, err := os.ReadFile("../../docs/calibration-memory.md")
	if err != nil || !bytes.Equal(got, []byte(want)) {
		t.Errorf("docs/calibration-memory.md is stale; run: go test ./estimate/memory -run TestMemoryCalibration -update-memory-calibration")
	}
}

// TestCalibrationCopyIsCurrent keeps the shared set's cases in package
// published's copy, unchanged: the copy is the shared file followed by the
// cases added in the repository (issue #23's new architectures), so a case
// edited or dropped on either side is caught.
func TestCalibrationCopyIsCurrent(t *testing.T) {
	shared, err := os.ReadFile(sharedCalibration)
	if err != nil {
		t.Skip("shared calibration set not present")
	}
	if !bytes.HasPrefix(published.MemoryLogsYAML(), shared) {
		t.Errorf("published/vllm-memory-logs.yaml does not begin with %s; copy it and keep the added cases after it", sharedCalibration)
	}
}
