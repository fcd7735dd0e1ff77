package resolve

// NamedSetting is one effective engine value with where it came from, as
// reports list them (`settings` in JSON).
type NamedSetting struct {
	// Name is the setting as the spec or vLLM calls it (kv_cache_dtype,
	// max_num_seqs, cuda_graphs, ...).
	Name string `json:"name"`
	// Value is the effective value: a string, a number or a boolean.
	Value any    `json:"value"`
	From  Source `json:"from"`
	// Why says how the value was reached ("" when From says enough).
	Why string `json:"why,omitempty"`
}

// Settings lists every effective engine value with its provenance, in the
// order reports show them: the release, the dtypes, the memory and
// scheduler limits, the KV block, the all-to-all backend, CUDA graphs, the
// API-server count and, with speculative decoding, the mean acceptance length, and
// the arrivals' burstiness and the client's cap when the spec gives them. A
// release default without an explanation of its own names the release.
func (d *Deployment) Settings() []NamedSetting {
	e := d.Engine
	out := []NamedSetting{
		named("vllm_version", d.Version),
		named("weights", e.WeightsDType),
		named("kv_cache_dtype", e.KVCacheDType),
		named("gpu_memory_utilization", e.GPUMemoryUtilization),
		named("max_model_len", e.MaxModelLen),
		named("max_num_seqs", e.MaxNumSeqs),
		named("max_num_batched_tokens", e.MaxNumBatchedTokens),
		named("block_size", e.BlockSize),
		named("all2all_backend", e.All2All),
		named("cuda_graphs", e.CUDAGraphs),
		named("api_server_count", e.APIServers),
	}
	if s := e.Speculative; s != nil {
		out = append(out, named("mean_acceptance_length", s.Acceptance))
	}
	if e.DCP.Value > 1 {
		// Listed only when on, as the acceptance length only with
		// speculation: reports of every other deployment stay as they were.
		out = append(out, named("decode_context_parallel_size", e.DCP))
	}
	if e.KVCacheMemoryBytes.Value > 0 {
		// Listed only when given, as DCP: every other report stays as it was.
		out = append(out, named("kv_cache_memory_bytes", e.KVCacheMemoryBytes))
	}
	if l := e.LoRA; l.Enabled.Value {
		// Listed only when on, as DCP: every other report stays as it was.
		out = append(out, named("enable_lora", l.Enabled), named("max_loras", l.MaxLoras), named("max_lora_rank", l.MaxRank),
			named("fully_sharded_loras", l.FullySharded), named("lora_dtype", l.DType))
	}
	if b := d.ArrivalBurstiness(); b.From == SourceSpec {
		// Listed only when the spec shapes its arrivals: every other
		// report stays as it was.
		out = append(out, named("arrival_burstiness", b))
	}
	if c := d.ClientMaxConcurrency(); c.From == SourceSpec {
		// Listed only when the spec caps its client, as the burstiness.
		out = append(out, named("client_max_concurrency", c))
	}
	for i := range out {
		if out[i].From == SourceRelease && out[i].Why == "" {
			out[i].Why = "vLLM " + d.Version.Value + " default"
		}
	}
	return out
}

func named[T any](name string, s Setting[T]) NamedSetting {
	return NamedSetting{Name: name, Value: s.Value, From: s.From, Why: s.Why}
}
