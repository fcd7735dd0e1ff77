package input

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// MarlinMoE is whether in's release runs the routed experts through
// Marlin's fused MoE and how that call sizes its caches
// (vllm.Release.MarlinMoE), for the experts' stored format (ExpertFormat),
// the expert width one GPU holds and the GPU in. The memory model reads
// WholeBatch (Marlin's per-call caches), the step model Runs (Marlin's
// block heuristic, perf.UseMarlinBlocks).
func MarlinMoE(in *Input) vllm.MarlinMoEPath {
	m := in.Model
	format, group := ExpertFormat(in)
	shards := 1
	if !in.Layout.EP {
		shards = in.Layout.EPSize()
	}
	q := vllm.MarlinMoEQuery{
		ExpertFormat: format, GroupSize: group,
		HiddenSize: m.HiddenSize, IntermediatePerGPU: (m.MoEIntermediateSize + shards - 1) / max(1, shards),
		All2All: in.All2AllBackend != "",
		Env:     in.Env,
	}
	if g := in.GPU; g != nil {
		q.NVIDIA, q.SMMajor = g.Vendor == "nvidia", g.ComputeMajor
	}
	return in.Release().MarlinMoE(q)
}

// ExpertFormat is the routed experts' stored format as vllm.MarlinMoEQuery
// reads it, and their group size: the checkpoint's own format when vLLM
// loads the checkpoint as shipped and its quantization reaches the routed
// experts — their own format where it differs from the other layers'
// (catalog.Model.RoutedExpertFormat, as the storage rule sizes them);
// "" otherwise (unquantized, converted or unknown).
func ExpertFormat(in *Input) (string, int) {
	q := in.Model.Quant
	ckpt := in.CheckpointDType()
	if !in.WeightsFromCheckpoint || in.WeightsDType != ckpt {
		return "", 0
	}
	switch in.Model.RoutedExpertFormat() {
	case catalog.FormatMXFP4:
		return catalog.FormatMXFP4, mxfp4BlockValues
	case catalog.FormatNVFP4:
		return catalog.FormatNVFP4, q.GroupSize
	}
	if q.Shares != nil && q.Shares.Routed == 0 {
		return "", 0
	}
	switch ckpt {
	case catalog.FormatINT4:
		return catalog.FormatINT4, q.GroupSize
	case catalog.FormatMXFP4, catalog.FormatNVFP4, "fp8":
		return ckpt, q.GroupSize
	}
	return "", 0
}
