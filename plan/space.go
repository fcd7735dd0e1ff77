package plan

import (
	"fmt"
	"slices"

	enum "github.com/vlaunch/vlaunch/estimate/layouts"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// Space is what plan may vary for one spec, each choice already restricted
// to what the spec's vLLM release accepts and `vlaunch generate` writes,
// with the reasons for what it leaves out.
type Space struct {
	Layouts  []resolve.Layout
	Weights  []string
	KV       []string
	Backends []string // for layouts whose MoE all-to-all runs; "auto" first
	DBO      bool     // --enable-dbo exists in the release
	// Tokens are the max_num_batched_tokens values (0 = the release's
	// default); max_num_seqs values depend on the layout (seqsChoices).
	Tokens []int
	// Left are the dimensions the issue names that plan does not vary
	// here, each with why.
	Left []string
}

// generatorBackends are the backends vLLM's package lists as the ones the
// generator picks between (vllm.Backend* constants); the others are for
// hardware vlaunch does not model (ROCm, NIXL) or, FlashInfer's multi-node
// NVLink kernels, cost in the model what DeepEP low-latency costs on an
// NVLink domain (per-expert copies over NVLink).
var generatorBackends = []string{vllm.BackendDeepEPLowLatency, vllm.BackendDeepEPHighThroughput,
	vllm.BackendAllgatherReducescatter, vllm.BackendNaive, vllm.BackendPPLX}

// backendsFor lists the backends worth trying for a layout: the release
// has them for certain and runs them (no silent fallback), they suit the
// layout (one node, or multi-node capable, and DeepEP only with GPU-
// initiated RDMA across nodes), run on the GPU (no NVSHMEM backend on AMD
// GPUs: vllm.Backend.CUDAOnly), one per kernel family (backends whose
// kernels cost the same in vlaunch's model are one choice).
func backendsFor(d *resolve.Deployment, multiNode bool) []string {
	r := d.Release
	type family struct {
		t           vllm.Traffic
		chunked     bool
		buffers     vllm.Buffers
		graphsOffDP bool
	}
	seen := map[family]bool{}
	var out []string
	for _, name := range generatorBackends {
		b, ok := r.All2AllBackend(name)
		if !ok || !b.Certain(r.Version) || b.FallsBack(r) {
			continue
		}
		if multiNode && (!b.MultiNodeOK || (b.DeepEP && !d.Network.GPUDirectRDMA)) {
			continue
		}
		if b.CUDAOnly() && d.GPU != nil && d.GPU.Vendor == "amd" {
			continue
		}
		k, ok := vllm.BackendKernels(name)
		if !ok {
			continue
		}
		f := family{k.Traffic, k.ChunkedDispatch, k.Buffers, len(k.GraphsOffWithDP) > 0}
		if seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, name)
	}
	return out
}

// kvChoices: the checkpoint's activation dtype always; fp8 when the
// release's --kv-cache-dtype accepts it and, for MLA models, the release's
// MLA backend is not known to refuse it.
func kvChoices(d *resolve.Deployment) ([]string, string) {
	out := []string{"auto"}
	f, ok := d.Release.Flag("kv-cache-dtype")
	if !ok || !f.HasChoice("fp8") {
		return out, fmt.Sprintf("kv_cache_dtype: vLLM %s does not accept fp8", d.Release)
	}
	if d.Model.IsMLA() {
		// The backend an FP8 cache would run on (vLLM skips backends
		// without FP8 KV support when it picks one).
		sm := 0
		if d.GPU != nil {
			sm = d.GPU.ComputeMajor
		}
		backend, _ := d.Release.MLABackend(sm, true, d.Model.IsSparseAttention())
		if p, _ := d.Release.MLAFP8KV(backend); p == vllm.Absent {
			return out, fmt.Sprintf("kv_cache_dtype: vLLM %s's %s attention refuses an fp8 KV cache for MLA", d.Release, backend)
		}
	}
	return append(out, "fp8"), ""
}

// dtype is one weight format and KV-cache dtype a candidate runs, as the
// spec writes them (model.weights, vllm.kv_cache_dtype).
type dtype struct{ weights, kv string }

// dtype is the formats candidate s runs.
func (s Settings) dtype() dtype { return dtype{s.Weights, s.KVCacheDType} }

// dtypes are the weight and KV-cache formats plan tries, every weights
// choice with every KV choice: the colocated search's (Enumerate) and the
// P/D search's (pdSearch.candidates) alike, so a format the colocated
// candidates run is one the P/D pools are tried with. own is the spec's
// own when the space is empty (its colocated base did not resolve).
func (s Space) dtypes(own Settings) []dtype {
	var out []dtype
	for _, w := range s.Weights {
		for _, kv := range s.KV {
			out = append(out, dtype{w, kv})
		}
	}
	if len(out) == 0 {
		out = append(out, own.dtype())
	}
	return out
}

// NewSpace lists the choices for the spec's deployment d.
func NewSpace(d *resolve.Deployment) Space {
	s := Space{Layouts: layouts(d), DBO: dboExists(d.Release)}
	s.Weights = weightChoices(d)
	var why string
	if s.KV, why = kvChoices(d); why != "" {
		s.Left = append(s.Left, why)
	}
	s.Tokens = batchChoices(d)
	if d.Engine.Speculative == nil {
		s.Left = append(s.Left, "speculative decoding: the spec does not enable it (vllm.speculative); with a method set, plan varies the draft length and tries it off")
	}
	return s
}

// layouts are the parallel layouts of the layout search (layouts.All:
// one replica on every whole share of the nodes) that resolve.Place puts
// on the spec's nodes with its release (layouts.Placeable).
func layouts(d *resolve.Deployment) []resolve.Layout {
	return enum.Placeable(enum.All(d.Layout.Nodes, d.Layout.GPUsPerNode, d.Model), d.NodeGPUs(), d.Release)
}

// weightChoices: the checkpoint as shipped (`auto`); when the spec asks
// for another format (a converted copy at model.path), that one too; and
// FP8 from a 16-bit checkpoint on a GPU with FP8 cores — online
// quantization, which `vlaunch generate` writes as --quantization fp8, no
// other checkpoint needed (issue #27: aiconfigurator's winners often are).
func weightChoices(d *resolve.Deployment) []string {
	out := []string{"auto"}
	if w := orAuto(d.Spec.Model.Weights); w != "auto" && !d.Engine.WeightsFromCheckpoint {
		out = append(out, w)
	}
	if ck := d.Model.CheckpointDType(); (ck == "bf16" || ck == "fp16") && d.GPU.FP8TFLOPS > 0 && !slices.Contains(out, "fp8") {
		out = append(out, "fp8")
	}
	return out
}

func dboExists(r vllm.Release) bool {
	return r.DBORequirement().Available == vllm.Present
}

// batchChoices are the max_num_batched_tokens values tried: the release's
// default (0) and a quarter, half and twice it (larger chunks prefill a
// prompt in fewer steps; smaller ones stall running decodes less).
// max_num_seqs depends on the layout (seqsChoices).
func batchChoices(d *resolve.Deployment) []int {
	tokens := []int{0}
	def := d.Engine.MaxNumBatchedTokens.Value
	for _, f := range []float64{0.25, 0.5, 2} {
		if t := int(float64(def) * f); t >= minBatchedTokens && t <= d.Engine.MaxModelLen.Value {
			tokens = append(tokens, t)
		}
	}
	return tokens
}

// minBatchedTokens is the smallest chunk plan tries, an assumption: below
// it a chunk's GEMMs are too small to keep a GPU busy, so prefills only
// get slower.
const minBatchedTokens = 1024

// seqsChoices are the max_num_seqs values tried for a layout with dp
// ranks: the release's default (0) and, when smaller, the fullest rank's
// share of the sessions rounded up to a power of two (vLLM profiles the
// sampler with max_num_seqs rows: fewer rows leave more memory for KV).
func seqsChoices(d *resolve.Deployment, dp int) []int {
	out := []int{0}
	share := (max(d.Workload.Concurrency, 1) + dp - 1) / dp
	p := 1
	for p < share {
		p *= 2
	}
	if p < d.Engine.MaxNumSeqs.Value {
		out = append(out, p)
	}
	return out
}
