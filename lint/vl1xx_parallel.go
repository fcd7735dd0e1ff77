package lint

import "github.com/vlaunch/vlaunch/vllm"

// checkBackendNoEP reports a DeepEP backend that cannot run: all-to-all
// kernels only run with DP > 1 and expert parallel on (VL109).
func checkBackendNoEP(p *pass) {
	for _, s := range p.Servers {
		name, at, set := s.Backend()
		b, ok := s.Rel.All2AllBackend(name)
		if !set || !ok || !b.DeepEP {
			continue
		}
		dp := s.DP()
		switch {
		case !s.EP():
			p.ReportAt(s.Inv, at, "add --enable-expert-parallel", "all-to-all backend %s has no effect without --enable-expert-parallel", name)
		case dp.Known && dp.N == 1:
			p.ReportAt(s.Inv, at, "the all-to-all kernels run only with --data-parallel-size > 1", "all-to-all backend %s has no effect with data-parallel size 1", name)
		}
	}
}

// checkBackendMultiNode reports single-node backends across nodes (VL110).
func checkBackendMultiNode(p *pass) {
	for _, g := range p.Groups {
		if !multiNode(g) {
			continue
		}
		for _, s := range g {
			name, at, set := s.Backend()
			b, ok := s.Rel.All2AllBackend(name)
			if !set || !ok || !s.EP() {
				continue
			}
			if !b.MultiNodeOK || b.FallsBack(s.Rel) || name == vllm.BackendNaive {
				p.ReportAt(s.Inv, at, "use deepep_low_latency / deepep_high_throughput (InfiniBand/RoCE) or allgather_reducescatter", "all-to-all backend %s is meant for a single node but this deployment spans nodes", name)
			}
		}
	}
}

// hasMultiNodeEngine reports a mechanism that lets one engine span nodes.
func (p *pass) hasMultiNodeEngine(s *server) bool {
	if n := s.NNodes(); !n.Known || n.N > 1 {
		return true
	}
	if v, ok := s.Str("distributed-executor-backend"); ok && v.Text == "ray" {
		return true
	}
	return len(p.Rays) > 0
}

// checkWorldSize reports more GPUs needed on a node than it has (VL111).
func checkWorldSize(p *pass) {
	for _, s := range p.Servers {
		tp, pp, dpl := s.TP(), s.PP(), s.DPL()
		if !tp.Known || !pp.Known || !dpl.Known || s.RayDP() {
			continue
		}
		gpus, src := p.nodeGPUs(s)
		engine := tp.N * pp.N
		if engine > gpus && !p.hasMultiNodeEngine(s) {
			p.ReportAt(s.Inv, tp.At, "use --nnodes/--node-rank/--master-addr (or a Ray cluster) to span nodes, or lower TP x PP", "TP x PP = %d needs more GPUs than the node has (%d, %s)", engine, gpus, src)
			continue
		}
		nn := s.NNodes()
		missingLocal := !s.Int("data-parallel-size-local", 0).Set && s.MultiNodeDP()
		if engine <= gpus && nn.N <= 1 && dpl.N*engine > gpus && !missingLocal {
			reportLocalGPUs(p, s, dpl.N, engine, gpus, src)
		}
	}
}

// reportLocalGPUs explains a node asked to host more DP ranks than it has GPUs for.
func reportLocalGPUs(p *pass, s *server, dpl, engine, gpus int, src string) {
	f := s.Int("data-parallel-size-local", 0)
	hint := "set --data-parallel-size-local to the DP ranks this node runs"
	if v, ok := s.Str("distributed-executor-backend"); len(p.Rays) > 0 || (ok && v.Text == "ray") {
		hint = "with a Ray cluster, add --data-parallel-backend ray so Ray places the ranks; or " + hint
	}
	what := "local DP"
	if !f.Set {
		what = "--data-parallel-size-local is unset, so every DP rank starts here:"
	}
	p.ReportAt(s.Inv, f.At, hint, "%s %d x TP x PP %d = %d GPUs, but the node has %d (%s)", what, dpl, engine, dpl*engine, gpus, src)
}

// checkHeadless reports --headless where it is ignored or refused (VL112).
func checkHeadless(p *pass) {
	for _, s := range p.Servers {
		f := s.Flag("headless")
		if f == nil || f.Negated {
			continue
		}
		asc := s.Int("api-server-count", 0)
		switch {
		case asc.Set && asc.Known && asc.N > 0:
			p.ReportAt(s.Inv, asc.At, "drop --api-server-count on headless nodes", "--headless runs no API server; --api-server-count %d is refused", asc.N)
		case s.Has("data-parallel-hybrid-lb"):
			p.ReportAt(s.Inv, f.At.Pos, "hybrid LB nodes each serve an API: drop --headless", "--headless cannot be combined with --data-parallel-hybrid-lb")
		case s.DP().Known && s.DP().N <= 1 && s.NNodes().Known && s.NNodes().N <= 1:
			p.ReportAt(s.Inv, f.At.Pos, "--headless is for secondary nodes of a multi-node DP (or --nnodes) deployment", "--headless on a server with no data parallelism and no --nnodes starts nothing useful")
		case s.Int("data-parallel-size-local", 1).Known && s.Int("data-parallel-size-local", 1).N == 0:
			p.ReportAt(s.Inv, f.At.Pos, "", "--headless with --data-parallel-size-local 0 runs neither engines nor an API server")
		}
	}
}

// checkStartRankPrimary reports a start rank on a node that serves the API:
// vLLM then infers hybrid load balancing (VL113).
func checkStartRankPrimary(p *pass) {
	for _, s := range p.Servers {
		sr := s.StartRank()
		if s.Headless() || !sr.Set || !sr.Known || sr.N == 0 || s.Has("data-parallel-hybrid-lb") {
			continue
		}
		p.ReportAt(s.Inv, sr.At, "add --headless on secondary nodes; the primary has no start rank", "--data-parallel-start-rank %d without --headless makes vLLM infer hybrid load balancing and start an API server here", sr.N)
	}
}
