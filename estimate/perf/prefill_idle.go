package perf

// PrefillIdleCached is the TTFT of one request of n prompt tokens whose
// first cached tokens a prefix-cache hit serves, with nothing else running:
// the prompt runs on one DP rank (attention and dense layers are not split
// across DP), its n − cached new tokens in chunks of maxBatched, while its
// routed experts are spread over the EP group. cached is clamped to
// [0, n−1] (vLLM recomputes at least a prompt's last token).
//
// A hit skips computing the cached blocks' KV, not reading it: vLLM's
// scheduler starts the request at num_computed_tokens = the hit
// (KVCacheManager.get_computed_blocks, vllm/v1/core/sched/scheduler.py at
// v0.11.0), and the attention of each new token spans the whole context —
// FlashAttention's varlen call gets seqused_k = the context length with
// the new tokens as queries (vllm/v1/attention/backends/flash_attn.py,
// v0.11.0: seq_lens, query_start_loc). So the linear layers see the new
// tokens only, and attention new × (cached + new/2) query-key pairs (qa44b
// F5): chunk i starts after cached + i·maxBatched tokens.
//
// Under PP the chunks before the last keep the pipeline full (one stage
// each); the last crosses every stage on its own (pipeline.go).
func (sm *StepModel) PrefillIdleCached(n, cached, maxBatched int) PrefillPoint {
	pt := PrefillPoint{InputTokens: n}
	cached = max(0, min(cached, n-1))
	c := max(1, maxBatched)
	k, last := chunking(n-cached, c)
	var sum prefillSums
	if k > exactChunks {
		sum = sm.integrateChunks(cached, k, c)
	} else {
		for i := 0; i < k; i++ {
			sum.add(sm.prefillChunk(cached+i*c, c, false), 1)
		}
	}
	pt.Steps = k
	if last > 0 {
		sum.add(sm.prefillChunk(cached+k*c, last, true), 1)
		pt.Steps++
	}
	pt.TTFTS, pt.InterBytesPerNode, pt.NetworkS, pt.ComputeS = sum.total, sum.inter, sum.net, sum.computeS
	pt.GPUS, pt.KernelGapsS, pt.HostS = sum.gpu, sum.gaps, sum.host
	pt.HostBetweenS, pt.LaunchS = sum.between, sum.launch
	pt.GPUBinding, pt.GPUClass, pt.Bindings = sum.gpuBind, sum.gpuClass, sum.bind
	pt.Binding = bindingOf(sum.comp, sum.mem, sum.net)
	if sum.host > max(sum.comp, sum.mem, sum.net) {
		pt.Binding = "overhead"
	} else if sum.gaps > max(sum.comp, sum.mem, sum.net) {
		pt.Binding = "kernel_gaps"
	}
	return pt
}

// chunking splits n prompt tokens into chunks of c: k full chunks before
// the last, and the last chunk's size (0 when n ≤ 0).
func chunking(n, c int) (k, last int) {
	if n <= 0 {
		return 0, 0
	}
	full, rest := n/c, n%c
	if rest > 0 {
		return full, rest
	}
	return full - 1, c
}
