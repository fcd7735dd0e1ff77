package memory

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

func weightOf(r Report, comp string) WeightTerm {
	for _, w := range r.Weights {
		if w.Component == comp {
			return w
		}
	}
	return WeightTerm{}
}

func TestStorageRules(t *testing.T) {
	cases := []struct {
		o         resolve.QuickOptions
		comp      string
		dtype     string
		bytes     float64
		component string
	}{
		// DeepSeek's block FP8: 1 B + one fp32 scale per 128×128 block.
		{resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 8}, CompRouted, "fp8", 1 + 4.0/16384, ""},
		// Embeddings, LM head and router stay 16-bit in the FP8 checkpoint.
		{resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 8}, CompEmbedding, "bf16", 2, ""},
		{resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 8}, CompRouter, "bf16", 2, ""},
		// The BF16 up-cast stores everything in 2 B.
		{resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", TP: 8, Weights: "bf16"}, CompRouted, "bf16", 2, ""},
		// MXFP4: 4 bits + one 8-bit scale per 32 values, experts only.
		{resolve.QuickOptions{Model: "gpt-oss-120b", GPU: "h100"}, CompRouted, "mxfp4", 0.5 + 1.0/32, ""},
		{resolve.QuickOptions{Model: "gpt-oss-120b", GPU: "h100"}, CompAttention, "bf16", 2, ""},
		// Online FP8 of a BF16 checkpoint: one scale per tensor.
		{resolve.QuickOptions{Model: "llama-3.1-70b", GPU: "h100", TP: 2, Weights: "fp8"}, CompDenseMLP, "fp8", 1, ""},
	}
	for _, c := range cases {
		w := weightOf(Estimate(testinput.Quick(t, c.o)), c.comp)
		if w.DType != c.dtype || math.Abs(w.BytesPerParam-c.bytes) > 1e-12 {
			t.Errorf("%s %s (%s): stored as %s at %.6f B, want %s at %.6f B", c.o.Model, c.comp, c.o.Weights, w.DType, w.BytesPerParam, c.dtype, c.bytes)
		}
	}
}

// vLLM's Marlin MXFP4 MoE (Hopper's default at 0.11.0, before vLLM shipped
// triton_kernels) pads hidden to 256 and the per-rank intermediate to 128:
// gpt-oss-20b at TP=2 stores 3 × 3072 × 1536 elements per expert.
// TestMXFP4PaddingFollowsKernel covers the other kernels.
func TestMXFP4ExpertPadding(t *testing.T) {
	r := Estimate(testinput.Quick(t, resolve.QuickOptions{Model: "gpt-oss-20b", GPU: "h100", TP: 2, VLLMVersion: "0.11.0"}))
	w := weightOf(r, CompRouted)
	want := 24.0 * 32 * (3*3072*1536 + 2*1536 + 3072)
	if math.Abs(w.Stored()-want) > 1 {
		t.Errorf("stored expert elements = %.0f, want %.0f", w.Stored(), want)
	}
	if w.ParamsPerGPU >= w.Stored() {
		t.Errorf("parameter count %.0f should exclude the padding (%.0f stored)", w.ParamsPerGPU, w.Stored())
	}
}

func TestActivationTerms(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", MaxModelLen: 8192, VLLMVersion: "0.19.0"})
	a := PeakActivation(in, PPStages(32, 1)[0])
	sampler := 1024.0 * 128256 * SamplerBytesPerLogit / GiB
	forward := 8192.0 * (3*4096 + 3*14336) * 2 / GiB
	if math.Abs(a.SamplerGiB-sampler) > 1e-9 || math.Abs(a.ForwardGiB-forward) > 1e-9 || a.MoEWorkspaceGiB != 0 {
		t.Errorf("activation = %+v, want sampler %.3f forward %.3f", a, sampler, forward)
	}
	if want := sampler + 8192.0*4096*2/GiB; math.Abs(a.PeakGiB-want) > 1e-9 {
		t.Errorf("peak = %.4f, want max(forward, sampler + hidden) = %.4f", a.PeakGiB, want)
	}
	// Not the last pipeline stage: no sampler.
	in.Layout.PP = 2
	if a := PeakActivation(in, PPStages(32, 2)[0]); a.SamplerGiB != 0 {
		t.Errorf("first of two stages runs no sampler, got %.2f GiB", a.SamplerGiB)
	}
}

// TestSamplerTermByRelease: the profile sampler's bytes per logit follow
// the release (vllm.Release.ProfileSampler): 15 B where a kernel (FlashInfer
// through 0.11.0, Triton from 0.18.0) masks top-k/top-p, 15 + (38 − 14) =
// 39 B where the profile sorts or may sort (0.11.1 to 0.17.x), and the
// formula names the sort.
func TestSamplerTermByRelease(t *testing.T) {
	for _, tt := range []struct {
		version, flashInfer string
		bytes               float64
		sorts               bool
	}{
		{"0.10.1", "", 15, false}, // FlashInfer samples (the official image ships it)
		{"0.15.0", "", 39, true},  // no Triton kernel, FlashInfer opt-in
		{"0.15.0", "1", 15, false},
		{"0.17.1", "", 39, true}, // not read: the larger charge
		{"0.18.0", "", 15, false},
		{"0.26.0", "", 15, false},
	} {
		in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", MaxModelLen: 8192, VLLMVersion: tt.version})
		if tt.flashInfer != "" {
			in.Env = map[string]string{vllm.FlashInferSamplerVariable: tt.flashInfer}
		}
		a := PeakActivation(in, PPStages(32, 1)[0])
		rows := float64(min(in.MaxNumSeqs, in.MaxNumBatchedTokens))
		if want := rows * 128256 * tt.bytes / GiB; math.Abs(a.SamplerGiB-want) > 1e-9 {
			t.Errorf("%s: sampler %.4f GiB, want %.0f rows × 128256 × %.0f B = %.4f", tt.version, a.SamplerGiB, rows, tt.bytes, want)
		}
		var formula string
		for _, term := range a.Terms {
			if term.Name == "sampler" {
				formula = term.Formula
			}
		}
		if strings.Contains(formula, "PyTorch sort") != tt.sorts {
			t.Errorf("%s: formula %q", tt.version, formula)
		}
	}
}

func TestNonTorchTerms(t *testing.T) {
	one := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", VLLMVersion: "0.19.1"})
	if got := sumTerms(NonTorch(one)); got != NonTorchBaseGiB {
		t.Errorf("single GPU non-torch = %.2f, want %.2f", got, NonTorchBaseGiB)
	}
	tp := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", TP: 2, VLLMVersion: "0.19.1"})
	if got := sumTerms(NonTorch(tp)); math.Abs(got-NonTorchBaseGiB-CollectivesGiB) > 1e-9 {
		t.Errorf("TP=2 non-torch = %.2f", got)
	}
	ll := testinput.Quick(t, resolve.QuickOptions{Model: "deepseek-v3", GPU: "h200", DP: 16, EP: true, VLLMVersion: "0.19.1"})
	ll.All2AllBackend = "deepep_low_latency"
	want := 2 * 2 * 256 * 256 * float64(2*7168+16) / GiB
	if got := sumTerms(NonTorch(ll)) - NonTorchBaseGiB - CollectivesGiB; math.Abs(got-want) > 1e-9 {
		t.Errorf("DeepEP LL buffers = %.3f GiB, want %.3f", got, want)
	}
	ll.All2AllBackend, ll.Layout.Nodes = "deepep_high_throughput", 2
	ll.Env = map[string]string{"VLLM_DEEPEP_BUFFER_SIZE_MB": "2048"}
	if got := sumTerms(NonTorch(ll)) - NonTorchBaseGiB - CollectivesGiB; math.Abs(got-4) > 1e-9 {
		t.Errorf("DeepEP HT buffers across nodes at 2048 MB = %.2f GiB, want 4 (NVLink + RDMA)", got)
	}
}

// From vLLM 0.20.0 (PR #39107) the DeepEP low-latency buffers and the
// batched fused-MoE workspace are built for max_num_batched_tokens per rank,
// not VLLM_MOE_DP_CHUNK_SIZE (vllm.Release.MoEDispatchTokens): the QA case,
// Qwen3.5-397B DP32/EP at 8192 tokens, needs 2 × 2 × 512 × 8192 × (2 × 4096
// + 16) B ≈ 128 GiB of buffers, not 4 GiB; at the batched-DP default of 256
// tokens the figure is what the DP chunk gave before.
func TestLowLatencyBuffersFollowTheBatch(t *testing.T) {
	for _, c := range []struct {
		version string
		tokens  int
		want    float64 // tokens per rank the buffers are built for
		ws      float64 // tokens per rank the workspace is sized for
	}{
		{"0.19.1", 8192, 256, 256},   // the DP chunk, a larger batch chunked
		{"0.19.1", 128, 256, 128},    // the buffer is built for the chunk; the workspace for the batch
		{"0.20.0", 8192, 8192, 8192}, // PR #39107: no chunking
		{"0.24.0", 8192, 8192, 8192},
		{"0.24.0", 256, 256, 256}, // the batched-DP default: unmoved
	} {
		in := testinput.Quick(t, resolve.QuickOptions{Model: "qwen3.5-397b-a17b", GPU: "h200", DP: 32, EP: true, VLLMVersion: c.version})
		in.All2AllBackend = vllm.BackendDeepEPLowLatency
		in.MaxNumBatchedTokens = c.tokens
		buf, ok := all2allBuffers(in)
		want := 2 * 2 * 512 * c.want * float64(2*4096+16) / GiB
		if !ok || math.Abs(buf.GiB-want) > 1e-9 {
			t.Errorf("%s at %d tokens: LL buffers %.2f GiB, want %.2f (%s)", c.version, c.tokens, buf.GiB, want, buf.Formula)
		}
		if over := strings.Contains(buf.Formula, "DeepEP's low-latency limit of 511"); over != (c.want > 511) {
			t.Errorf("%s at %d tokens: DeepEP limit said %v: %s", c.version, c.tokens, over, buf.Formula)
		}
		if mt, _ := moeTokens(in); mt != c.ws*32 {
			t.Errorf("%s at %d tokens: fused-MoE workspace tokens %.0f, want %.0f × DP 32", c.version, c.tokens, mt, c.ws)
		}
	}
}

// From vLLM 0.20 the CUDA-graph estimate comes out of the KV pool unless
// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 (vllm.Release.
// GraphMemoryProfiling); before, only when it is 1.
func TestGraphMemoryFollowsTheRelease(t *testing.T) {
	for _, c := range []struct {
		version string
		env     map[string]string
		want    float64
	}{
		{"0.19.1", nil, 0}, {"0.19.1", map[string]string{"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS": "1"}, CUDAGraphGiB},
		{"0.20.0", nil, CUDAGraphGiB}, {"0.21.0", nil, CUDAGraphGiB}, {"0.31.0", nil, CUDAGraphGiB},
		{"0.21.0", map[string]string{"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS": "0"}, 0},
	} {
		in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h100", VLLMVersion: c.version})
		in.Env = c.env
		if got := sumTerms(NonTorch(in)) - NonTorchBaseGiB; math.Abs(got-c.want) > 1e-9 {
			t.Errorf("vLLM %s env %v: CUDA graphs in the budget %.2f GiB, want %.2f", c.version, c.env, got, c.want)
		}
	}
}

func sumTerms(ts []Term) float64 {
	s := 0.0
	for _, t := range ts {
		s += t.GiB
	}
	return s
}

// A model.config path is read relative to the spec file, and custom GPU
// figures replace the catalog.
func TestFromSpecConfigPathAndCustomGPU(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../catalog/models/meta-llama__Llama-3.1-8B-Instruct.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "cfg"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cfg", "config.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	d := &spec.Deployment{File: filepath.Join(dir, "spec.yaml"),
		Model:    spec.Model{Config: "cfg/config.json"},
		Hardware: spec.Hardware{GPU: spec.GPURef{Custom: &spec.GPUFigures{Name: "RTX 3090", MemoryMiB: 24146}}, Nodes: []spec.Node{{Name: "n0", GPUs: 1}}},
		Workload: spec.Workload{Concurrency: 1, MaxModelLen: 4096}, VLLM: spec.VLLM{Version: "0.19.0"}}
	spec.ApplyDefaults(d)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if in.Model.NumLayers != 32 || in.GPU.MemoryMiB != 24146 || in.MaxNumSeqs != 256 {
		t.Errorf("model layers %d, GPU %.0f MiB, max_num_seqs %d (small-GPU default 256)", in.Model.NumLayers, in.GPU.MemoryMiB, in.MaxNumSeqs)
	}
	d.Model.Config = "missing/config.json"
	if _, ds := input.FromSpec(d); !ds.HasErrors() {
		t.Error("a missing config must be an error")
	}
}

// Meta's Llama 3.1 FP8 checkpoints use quant_method fbgemm_fp8 (per-channel
// FP8) and keep the modules their modules_to_not_convert lists in BF16; a
// config with that method must not be read as a BF16 checkpoint.
func TestFBGEMMFP8Checkpoint(t *testing.T) {
	m, err := catalog.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	m.Quant = catalog.Quantization{Method: "fbgemm_fp8"}
	for i := 0; i < m.NumLayers; i++ {
		m.Quant.ModulesNotConverted = append(m.Quant.ModulesNotConverted, fmt.Sprintf("model.layers.%d.self_attn.q_proj", i))
	}
	g, _ := catalog.LookupGPU("h100-sxm")
	util := 0.9
	in := &input.Input{Model: m, GPU: g, VLLMVersion: "0.19.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8}}
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util}); ds.HasErrors() {
		t.Fatal(ds)
	}
	r := Estimate(in)
	if w := weightOf(r, CompDenseMLP); w.DType != "fp8" || w.BytesPerParam != 1+4.0/4096 {
		t.Errorf("dense MLP stored as %s at %.6f B, want per-channel fp8", w.DType, w.BytesPerParam)
	}
	if w := weightOf(r, CompAttention); w.DType != "bf16" {
		t.Errorf("attention stored as %s, want bf16 (modules_to_not_convert)", w.DType)
	}
}

// An INT8 W8A8 checkpoint (the retyped compressed-tensors config, strategy
// channel) stores its linear layers at 1 B + one fp32 scale per output
// channel (4 B per hidden_size 4096 weights), as int8, and keeps the LM
// head (ignored) 16-bit.
func TestINT8W8A8StorageRule(t *testing.T) {
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/llama-3.1-8b-instruct-w8a8-ct.written.json")
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "a100-80gb"})
	in.Model, in.WeightsDType, in.WeightsFromCheckpoint = m, m.CheckpointDType(), true
	for comp, want := range map[string]DTypeRule{
		CompDenseMLP:  {DType: "int8", BytesPerParam: 1 + 4.0/4096},
		CompAttention: {DType: "int8", BytesPerParam: 1 + 4.0/4096},
		CompLMHead:    {DType: "bf16", BytesPerParam: 2},
	} {
		if r := StorageRule(in, comp); r.DType != want.DType || math.Abs(r.BytesPerParam-want.BytesPerParam) > 1e-12 {
			t.Errorf("%s: %s at %.6f B, want %s at %.6f B", comp, r.DType, r.BytesPerParam, want.DType, want.BytesPerParam)
		}
	}
}
