package input

import "github.com/vlaunch/vlaunch/catalog"

// Component names of a model's weights on a GPU, in the order the memory
// report lists them. The memory model places them (memory.Placement), the
// storage rule sizes them (StorageRule), and the step model streams them
// (perf's denseParts): one set of names for all three.
const (
	CompEmbedding = "embedding"
	CompLMHead    = "lm_head"
	CompAttention = "attention"
	CompMLACopies = "mla_absorbed_copies"
	CompIndexer   = "sparse_attention_indexer"
	CompDenseMLP  = "dense_mlp"
	CompRouted    = "routed_experts"
	CompRedundant = "redundant_experts"
	CompShared    = "shared_experts"
	CompRouter    = "router"
	CompNorms     = "norms"
	// CompHyperConn is DeepSeek-V4's hyper-connection mixers (float32).
	CompHyperConn = "hyper_connections"
	// CompLatentProj is a latent MoE's fc1/fc2_latent_proj (Nemotron-3
	// Super/Ultra).
	CompLatentProj = "moe_latent_projections"
	// CompRoPECache is RoPE's cos/sin cache: no parameter, but a buffer
	// vLLM builds with the model (memory's ropeCacheElems).
	CompRoPECache = "rope_cache"
	// CompEncoder is a multimodal wrapper's vision encoder and projector
	// (catalog.Encoder), which vLLM loads with the language model.
	CompEncoder = "vision_encoder"
	// CompDeepStack is Qwen3-VL's DeepStack buffers: no parameter, but
	// tensors its wrapper allocates with the model (memory's deepStackElems).
	CompDeepStack = "deepstack_buffers"
)

// KVHeadsPerRank is max(1, kv_heads / TP): vLLM replicates KV heads when TP
// exceeds their number.
func KVHeadsPerRank(m *catalog.Model, tp int) float64 {
	return float64(max(1, ceilDiv(m.NumKVHeads, tp)))
}

// HeadsPerRank is one TP rank's share of heads, rounded up.
func HeadsPerRank(heads, tp int) float64 { return float64(ceilDiv(heads, tp)) }

func ceilDiv(a, b int) int {
	if b <= 0 {
		return a
	}
	return (a + b - 1) / b
}

// DraftInput is in as the proposer's layers see it: the proposer's layers
// as the model, stored as the proposer stores them, on one pipeline stage
// (vLLM runs the proposer on the last PP rank, whole). The memory model
// places and sizes the proposer's weights from it, the step model streams
// them as they are stored; false without a proposer with layers of its own.
func DraftInput(in *Input) (*Input, bool) {
	s := in.Speculative
	if s == nil || s.Draft == nil || s.Draft.Layers.NumLayers < 1 {
		return nil, false
	}
	d := *in
	d.Model, d.WeightsDType = s.Draft.Layers, s.Draft.WeightsDType
	d.Layout.PP = 1
	return &d, true
}
