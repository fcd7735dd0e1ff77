package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkBackendNoEP reports a DeepEP backend that cannot run: all-to-all
// kernels only run with DP > 1 and expert parallel on (VL109).
func checkBackendNoEP(p *Pass) {
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
func checkBackendMultiNode(p *Pass) {
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

// defaultGPUsPerNode is assumed when nothing says how many GPUs a node
// has: 8 is the largest count of the common GPU servers (HGX/DGX boards).
const defaultGPUsPerNode = 8

// ascendNPUsPerNode is assumed for Ascend NPU scripts (vllm-ascend): Atlas
// A3 nodes carry 16 NPUs, and the vllm-ascend guides run TP16 on one node.
const ascendNPUsPerNode = 16

// ascendPlatform reports a script written for Ascend NPUs: HCCL (Huawei's
// collective library) or ASCEND_* variables have no meaning on a GPU host.
func ascendPlatform(inv *Invocation) bool {
	for _, e := range inv.Env {
		if strings.HasPrefix(e.Name, "HCCL_") || strings.HasPrefix(e.Name, "ASCEND_") {
			return true
		}
	}
	return false
}

// nodeGPUs returns the GPUs an invocation sees and how that is known.
func (p *Pass) nodeGPUs(s *Server) (int, string) {
	if s.Inv.GPUs > 0 {
		return s.Inv.GPUs, s.Inv.GPUSource
	}
	if n := p.specGPUs(s); n > 0 {
		return n, "the spec"
	}
	if ascendPlatform(s.Inv) {
		return ascendNPUsPerNode, "assumed for an Ascend node; pass --spec for the real count"
	}
	return defaultGPUsPerNode, "assumed; pass --spec for the real count"
}

// hasMultiNodeEngine reports a mechanism that lets one engine span nodes.
func (p *Pass) hasMultiNodeEngine(s *Server) bool {
	if n := s.NNodes(); !n.Known || n.N > 1 {
		return true
	}
	if v, ok := s.Str("distributed-executor-backend"); ok && v.Text == "ray" {
		return true
	}
	return len(p.Rays) > 0
}

// checkWorldSize reports more GPUs needed on a node than it has (VL111).
func checkWorldSize(p *Pass) {
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
func reportLocalGPUs(p *Pass, s *Server, dpl, engine, gpus int, src string) {
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
func checkHeadless(p *Pass) {
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
func checkStartRankPrimary(p *Pass) {
	for _, s := range p.Servers {
		sr := s.StartRank()
		if s.Headless() || !sr.Set || !sr.Known || sr.N == 0 || s.Has("data-parallel-hybrid-lb") {
			continue
		}
		p.ReportAt(s.Inv, sr.At, "add --headless on secondary nodes; the primary has no start rank", "--data-parallel-start-rank %d without --headless makes vLLM infer hybrid load balancing and start an API server here", sr.N)
	}
}

// headroomMin is the fraction of GPU memory left for what vLLM does not
// budget: CUDA context and NCCL/DeepEP buffers take roughly 2-3 GiB of an
// 80 GiB GPU, i.e. about 3%.
const headroomMin = 0.03

// checkGPUMemUtil reports a gpu_memory_utilization with no headroom (VL114).
func checkGPUMemUtil(p *Pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("gpu-memory-utilization")
		if !ok || !v.Known {
			continue
		}
		x, err := strconv.ParseFloat(v.Text, 64)
		if err != nil || x > 1 || x <= 0 {
			continue
		}
		if 1-x < headroomMin {
			p.ReportAt(s.Inv, v.Pos, "0.90-0.95 is usual; multi-node NCCL and DeepEP buffers need room outside the budget", "--gpu-memory-utilization %s leaves under %.0f%% of GPU memory for CUDA context and communication buffers", v.Text, headroomMin*100)
		}
	}
}

// modelFor finds the served model in the catalog by repo id or directory name.
func modelFor(s *Server) *catalog.Model {
	if s.Model == nil || !s.Model.Known {
		return nil
	}
	name := strings.TrimRight(s.Model.Text, "/")
	for _, m := range catalog.Models() {
		if strings.EqualFold(m.HFRepo, name) || strings.EqualFold(lastSegment(m.HFRepo), lastSegment(name)) {
			return m
		}
	}
	return nil
}

// checkTrustRemoteCode reports models that need --trust-remote-code (VL115).
func checkTrustRemoteCode(p *Pass) {
	for _, s := range p.Servers {
		m := modelFor(s)
		if m == nil || !m.TrustRemoteCode || s.Has("trust-remote-code") {
			continue
		}
		p.ReportAt(s.Inv, s.Model.Pos, "add --trust-remote-code", "%s ships its own model code; vLLM refuses to load it without --trust-remote-code", m.HFRepo)
	}
}

// checkKVDType reports a KV-cache dtype the model's attention cannot use (VL116).
func checkKVDType(p *Pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("kv-cache-dtype")
		m := modelFor(s)
		if !ok || !v.Known || m == nil {
			continue
		}
		if v.Text == "fp8_ds_mla" && !m.IsMLA() {
			p.ReportAt(s.Inv, v.Pos, "use fp8 (or auto)", "--kv-cache-dtype fp8_ds_mla is the DeepSeek MLA format; %s does not use MLA attention", m.HFRepo)
		}
	}
}

// parseHumanInt reads 32768, 32k (1000s), 32K (1024s), 2M.
func parseHumanInt(t string) (int, bool) {
	mult := 1.0
	switch {
	case strings.HasSuffix(t, "k"):
		mult = 1e3
	case strings.HasSuffix(t, "K"):
		mult = 1024
	case strings.HasSuffix(t, "m"):
		mult = 1e6
	case strings.HasSuffix(t, "M"):
		mult = 1024 * 1024
	}
	if mult != 1 {
		t = t[:len(t)-1]
	}
	x, err := strconv.ParseFloat(t, 64)
	return int(x * mult), err == nil
}

// checkMaxModelLen reports a context longer than the model supports (VL117).
func checkMaxModelLen(p *Pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("max-model-len")
		m := modelFor(s)
		if !ok || !v.Known || m == nil || m.MaxPositionEmbeddings == 0 || s.Flag("hf-overrides") != nil || s.Flag("rope-scaling") != nil {
			continue
		}
		n, ok := parseHumanInt(v.Text)
		if !ok || n <= m.MaxPositionEmbeddings {
			continue
		}
		if e, set := s.Inv.LookupEnv("VLLM_ALLOW_LONG_MAX_MODEL_LEN"); set && e.Value.Text == "1" {
			continue
		}
		p.ReportAt(s.Inv, v.Pos, "lower it, or set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 if the model really extrapolates", "--max-model-len %d exceeds %s's max_position_embeddings (%d); vLLM refuses to start", n, m.HFRepo, m.MaxPositionEmbeddings)
	}
}
