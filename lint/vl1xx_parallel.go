package lint

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

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
				p.ReportAt(s.Inv, at, "use "+vllm.BackendDeepEPLowLatency+" / "+vllm.BackendDeepEPHighThroughput+" (InfiniBand/RoCE) or "+vllm.BackendAllgatherReducescatter, "all-to-all backend %s is meant for a single node but this deployment spans nodes", name)
			}
		}
	}
}

// checkWorldSize reports more GPUs needed on a node than it has (VL111):
// one engine (TP x PP) larger than the node without a way to span nodes
// for the release and platform, or more local DP ranks than fit.
func checkWorldSize(p *pass) {
	for _, s := range p.Servers {
		tp, pp, dpl := s.TP(), s.PP(), s.DPL()
		if !tp.Known || !pp.Known || !dpl.Known || s.RayDP() {
			continue
		}
		gc := p.nodeGPUCount(s)
		engine := tp.N * pp.N
		if engine > gc.n {
			checkEngineSpan(p, s, engine, gc)
			continue
		}
		nn := s.NNodes()
		missingLocal := !s.Int("data-parallel-size-local", 0).Set && s.MultiNodeDP()
		exec, _ := s.Str("distributed-executor-backend")
		if nn.N <= 1 && dpl.N*engine > gc.n && !missingLocal && exec.Text != "ray" { // with Ray, VL220 says it
			reportLocalGPUs(p, s, dpl.N, engine, gc)
		}
	}
}

// checkEngineSpan decides whether an engine larger than its node can span
// nodes: with --distributed-executor-backend ray or --nnodes it can; with
// the executor unset, older releases fall back to Ray on CUDA (a Ray
// cluster must then provide the GPUs), newer ones and other platforms
// refuse (vllm.ExecutorRule says which a release does).
func checkEngineSpan(p *pass, s *server, engine int, gc gpuCount) {
	at := s.TP().At
	exec, execSet := s.Str("distributed-executor-backend")
	if nn := s.NNodes(); !nn.Known || nn.N > 1 || (execSet && exec.Text != "mp") {
		return // Ray, an unresolved executor, or mp across --nnodes nodes
	}
	platform := s.Inv.Platform
	unit := "GPUs"
	if platform == launch.PlatformTPU {
		unit = "TPU devices"
	}
	what := fmt.Sprintf("TP x PP = %d needs more %s than the node has (%d, %s)", engine, unit, gc.n, gc.src)
	cuda := platform == "" || platform == launch.PlatformCUDA
	sev := diag.Error
	if gc.assumed {
		sev = diag.Warning
	}
	switch {
	case execSet:
		p.ReportAtSeverity(s.Inv, exec.Pos, sev, "the mp executor runs on one node: add --nnodes/--node-rank/--master-addr, or use --distributed-executor-backend ray", "%s, and --distributed-executor-backend mp keeps every worker on this node", what)
	case cuda && s.Rel.ExecutorRule().CUDAFallsBackToRay:
		switch {
		case len(p.Rays) > 0:
		case confined(p, s, gc):
			p.ReportAtSeverity(s.Inv, at, diag.Error, "request as many GPUs as TP x PP for the container, or lower --tensor-parallel-size / --pipeline-parallel-size",
				"%s: vLLM %s falls back to the Ray executor, but no Ray cluster is started with this container, so Ray only has the container's GPUs", what, s.Rel)
		default:
			p.ReportAtSeverity(s.Inv, at, diag.Info, "start a Ray cluster over the nodes first (ray start --head / --address), or use --nnodes", "%s: vLLM %s falls back to the Ray executor, which needs a Ray cluster with those GPUs", what, s.Rel)
		}
	case platform == launch.PlatformTPU:
		if v, ok := s.Inv.LookupEnv("TPU_MULTIHOST_BACKEND"); ok && (!v.Value.Known || v.Value.Text == "ray") {
			return // tpu-inference runs its Ray executor over the hosts
		}
		p.ReportAtSeverity(s.Inv, at, sev, tpuSpanHint, "%s; on tpu vLLM does not fall back to Ray by itself", what)
	case !cuda:
		p.ReportAtSeverity(s.Inv, at, sev, "add --distributed-executor-backend ray (with a Ray cluster over the nodes), or --nnodes/--node-rank/--master-addr", "%s; on %s vLLM does not fall back to Ray by itself", what, platform)
	default:
		if !s.Stated && !confined(p, s, gc) {
			sev = diag.Warning
		}
		hint := "add --distributed-executor-backend ray (a running Ray cluster is not enough), or --nnodes/--node-rank/--master-addr on every node"
		if confined(p, s, gc) {
			hint = "give the container TP x PP GPUs, lower --tensor-parallel-size / --pipeline-parallel-size, or span nodes (--nnodes/--node-rank/--master-addr, or Ray)"
		}
		p.ReportAtSeverity(s.Inv, at, sev, hint,
			"%s; vLLM %s refuses (%q) instead of falling back to Ray as older releases did%s", what, s.Rel, s.Rel.ExecutorTooSmall(), unstatedSuffix(s))
	}
}

// tpuSpanHint says how a TPU engine spans hosts. The vllm-tpu images'
// tpu-inference plugin picks its executor from TPU_MULTIHOST_BACKEND alone
// ("ray": its RayDistributedExecutor; unset: one host, uni or mp),
// overriding --distributed-executor-backend
// (vllm-project/tpu-inference, tpu_inference/platforms/tpu_platform.py,
// check_and_update_config); vLLM's own TPU backend before it took
// --distributed-executor-backend ray.
const tpuSpanHint = "set TPU_MULTIHOST_BACKEND=ray on every host with a Ray cluster over them (vllm-tpu's tpu-inference plugin chooses its executor from it, whatever --distributed-executor-backend says); with vLLM's own older TPU backend, --distributed-executor-backend ray"

// confined reports an engine whose GPUs are certainly the container's:
// the count comes from the container's own device limit (--gpus, a
// device-plugin resource, a visible-devices variable), and no Ray cluster
// is started anywhere in the inputs nor named by RAY_ADDRESS, so no release
// can reach more GPUs (older ones fall back to a Ray that starts inside the
// container with its GPUs only).
func confined(p *pass, s *server, gc gpuCount) bool {
	if s.Inv.Container == nil || gc.assumed || len(p.Rays) > 0 {
		return false
	}
	_, ray := s.Inv.LookupEnv("RAY_ADDRESS")
	return !ray
}

// reportLocalGPUs explains a node asked to host more DP ranks than it has GPUs for.
func reportLocalGPUs(p *pass, s *server, dpl, engine int, gc gpuCount) {
	f := s.Int("data-parallel-size-local", 0)
	hint := "set --data-parallel-size-local to the DP ranks this node runs"
	if v, ok := s.Str("distributed-executor-backend"); len(p.Rays) > 0 || (ok && v.Text == "ray") {
		hint = "with a Ray cluster, add --data-parallel-backend ray so Ray places the ranks; or " + hint
	}
	what := "local DP"
	if !f.Set {
		what = "--data-parallel-size-local is unset, so every DP rank starts here:"
	}
	sev := diag.Error
	if gc.assumed {
		sev = diag.Warning
	}
	p.ReportAtSeverity(s.Inv, f.At, sev, hint, "%s %d x TP x PP %d = %d GPUs, but the node has %d (%s)", what, dpl, engine, dpl*engine, gc.n, gc.src)
}

// checkHeadless reports --headless where it is ignored or refused (VL112).
func checkHeadless(p *pass) {
	for _, s := range p.Servers {
		f := s.Flag("headless")
		if f == nil || f.Negated {
			continue
		}
		asc := s.Int("api-server-count", 0)
		refused, _ := s.Rel.HeadlessRefusesAPIServerCount()
		switch {
		case moduleIgnoresHeadless(s):
			reportModuleHeadless(p, s, f)
		case asc.Set && asc.Known && asc.N > 0 && refused != vllm.Absent:
			reportHeadlessCount(p, s, asc, refused)
		case s.Has("data-parallel-hybrid-lb"):
			p.ReportAt(s.Inv, f.At.Pos, "hybrid LB nodes each serve an API: drop --headless", "--headless cannot be combined with --data-parallel-hybrid-lb")
		case s.DP().Known && s.DP().N <= 1 && s.NNodes().Known && s.NNodes().N <= 1:
			p.ReportAt(s.Inv, f.At.Pos, "--headless is for secondary nodes of a multi-node DP (or --nnodes) deployment", "--headless on a server with no data parallelism and no --nnodes starts nothing useful")
		case s.Int("data-parallel-size-local", 1).Known && s.Int("data-parallel-size-local", 1).N == 0:
			p.ReportAt(s.Inv, f.At.Pos, "", "--headless with --data-parallel-size-local 0 runs neither engines nor an API server")
		}
	}
}

// reportHeadlessCount reports --api-server-count N > 0 next to --headless:
// an error where the release refuses it, a warning where it may (no
// source pins the releases between the last one read without the refusal
// and the first one read with it).
func reportHeadlessCount(p *pass, s *server, asc intArg, refused vllm.Presence) {
	const hint = "drop --api-server-count on headless nodes"
	if refused == vllm.Maybe {
		p.ReportAtSeverity(s.Inv, asc.At, diag.Warning, hint, "--headless runs no API server; vLLM %s may refuse --api-server-count %d with it (unverified for this release)", s.Rel, asc.N)
		return
	}
	p.ReportVersioned(s, asc.At, hint, "--headless runs no API server; vLLM %s refuses --api-server-count %d with it", s.Rel, asc.N)
}

// checkStartRankPrimary reports a start rank on a node that serves the API:
// vLLM then infers hybrid load balancing (VL113).
func checkStartRankPrimary(p *pass) {
	for _, s := range p.Servers {
		sr := s.StartRank()
		if s.Headless() || !sr.Set || !sr.Known || sr.N == 0 || s.Has("data-parallel-hybrid-lb") || s.multiPortLB() || p.groupHasHeadless(s) {
			continue // with headless nodes in the deployment, VL217 says what breaks
		}
		p.ReportAt(s.Inv, sr.At, "add --headless on secondary nodes; the primary has no start rank", "--data-parallel-start-rank %d without --headless makes vLLM infer hybrid load balancing and start an API server here", sr.N)
	}
}

// moduleIgnoresHeadless reports --headless given to the OpenAI api_server
// module (directly, or as the entrypoint of an older vllm-openai image),
// which does not read it in the release (vllm.APIServerModuleIgnoresHeadless).
func moduleIgnoresHeadless(s *server) bool {
	module := strings.Contains(s.Inv.Launcher, "vllm.entrypoints.openai.api_server") ||
		(strings.HasPrefix(s.Inv.Launcher, "docker image") && s.Rel.ImageEntrypointIsAPIServerModule() == vllm.Present)
	pr, _ := s.Rel.APIServerModuleIgnoresHeadless()
	return module && pr != vllm.Absent
}

// reportModuleHeadless explains an ignored --headless: the node starts a
// full engine and API server, and a --nnodes follower fails ("collective_rpc
// should not be called on follower node").
func reportModuleHeadless(p *pass, s *server, f *cliFlag) {
	pr, _ := s.Rel.APIServerModuleIgnoresHeadless()
	sev := diag.Error
	if pr == vllm.Maybe || !s.Stated {
		sev = diag.Warning
	}
	p.ReportAtSeverity(s.Inv, f.At.Pos, sev, "start headless nodes with `vllm serve ... --headless` (in the vllm-openai image: --entrypoint vllm, then serve ...)",
		"the OpenAI api_server module ignores --headless in vLLM %s: this node starts an API server and a full engine instead of headless engine cores", s.Rel)
}
