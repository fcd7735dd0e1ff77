package resolve

import "fmt"

// Assumptions lists, for reports, the defaults resolution chose that the
// user may not expect, in the order they were resolved.
func (d *Deployment) Assumptions() []string {
	var out []string
	e := d.Engine
	if d.Version.From == SourceAssumed {
		out = append(out, d.Version.Why)
	}
	if e.GPUMemoryUtilization.From == SourceRelease {
		out = append(out, fmt.Sprintf("gpu_memory_utilization %.2f (vLLM %s default)", e.GPUMemoryUtilization.Value, d.Version.Value))
	}
	if e.MaxModelLen.From == SourceDerived {
		out = append(out, fmt.Sprintf("max_model_len %d (the model's max_position_embeddings)", e.MaxModelLen.Value))
	}
	if e.BlockSize.From == SourceDerived && d.blockSizeOverridden() {
		out = append(out, e.BlockSize.Why)
	}
	if s := e.Speculative; s != nil && s.Acceptance.From == SourceAssumed {
		out = append(out, s.Acceptance.Why)
	}
	return out
}

// blockSizeOverridden: the spec asked for another block size than the one
// vLLM forces.
func (d *Deployment) blockSizeOverridden() bool {
	if d.Spec == nil || d.Spec.VLLM.BlockSize == nil {
		return false
	}
	return *d.Spec.VLLM.BlockSize != d.Engine.BlockSize.Value
}
