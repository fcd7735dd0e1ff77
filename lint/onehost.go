package lint

// declaredOneHost reports whether two servers are shown to run on one host,
// where sharing the host's address (VLLM_HOST_IP) is right rather than a
// copy of another node's (VL210):
//
//   - their files carry the same `# vlaunch:host=NAME` (hostDirective):
//     `vlaunch generate` writes it on the scripts of replicas smaller than
//     a node and on the per-rank scripts of external DP load balancing
//     (generator/extlb.go), several files to a node;
//   - both are external-LB ranks (--data-parallel-rank set: one vllm serve
//     per rank) on different --port values: vLLM's own example of ranks
//     co-located on one node gives each "a different HTTP server port"
//     (docs/serving/data_parallel_deployment.md, "External Load Balancing",
//     at the v0.11.0 tag), while ranks copied onto another node keep the
//     same port. The same port stays a VL210.
//
// Their GPUs and ports are still compared where the rules know the host
// (VL212, VL223, VL228).
func (p *pass) declaredOneHost(a, b *server) bool {
	if a.Inv.File == b.Inv.File {
		return false
	}
	ha, oka := p.hosts[a.Inv.File]
	hb, okb := p.hosts[b.Inv.File]
	if oka && okb {
		return ha == hb
	}
	ra, rb := a.Int("data-parallel-rank", 0), b.Int("data-parallel-rank", 0)
	pa, pb := a.Int("port", 0), b.Int("port", 0)
	return ra.Set && rb.Set && pa.Set && pa.Known && pb.Set && pb.Known && pa.N != pb.N
}
