package lint

// CapacityQuery is one server's layout as a KV-capacity estimate needs it,
// read from its flags and the --spec hardware.
type CapacityQuery struct {
	// Model and GPU are catalog ids.
	Model, GPU string
	TP, PP, DP int
	EP         bool
	// MaxModelLen is the --max-model-len to fit, in tokens.
	MaxModelLen int
	// GPUMemoryUtilization is 0 for the release's default.
	GPUMemoryUtilization float64
	// KVCacheDType is "" for auto.
	KVCacheDType string
	// GPUsPerNode is 0 when unknown.
	GPUsPerNode int
	// VLLMVersion is the release the server is linted for.
	VLLMVersion string
}

// Capacity is what VL125 needs from an estimate of one rank's KV cache.
type Capacity struct {
	// OneSequenceFits is false when one MaxModelLen sequence does not fit.
	OneSequenceFits bool
	// LargestMaxModelLen is the longest context that fits, for the hint.
	LargestMaxModelLen int
	// AvailableGiB is the KV memory of one rank.
	AvailableGiB float64
}

// CapacityFunc estimates a server's KV capacity; ok is false when it cannot
// (unknown model or GPU). The caller supplies it (cmd/vlaunch wires package
// estimate in), so the linter depends on no estimator.
type CapacityFunc func(CapacityQuery) (c Capacity, ok bool)
