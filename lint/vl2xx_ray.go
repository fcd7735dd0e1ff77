package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
)

// rayEngine reports a server whose workers Ray places: --data-parallel-backend
// ray, --distributed-executor-backend ray, or an engine larger than its node
// on a release that falls back to Ray by itself.
func (p *pass) rayEngine(s *server) bool {
	if s.RayDP() {
		return true
	}
	if v, ok := s.Str("distributed-executor-backend"); ok {
		return v.Text == "ray"
	}
	tp, pp := s.TP(), s.PP()
	if nn := s.NNodes(); nn.N > 1 || !tp.Known || !pp.Known {
		return false
	}
	cuda := s.Inv.Platform == "" || s.Inv.Platform == launch.PlatformCUDA
	return cuda && s.Rel.ExecutorRule().CUDAFallsBackToRay && tp.N*pp.N > p.nodeGPUCount(s).n
}

// rayAcrossNodes reports a Ray-placed server that spans nodes: Ray workers
// join from other nodes, or one engine is larger than this node.
func (p *pass) rayAcrossNodes(s *server) bool {
	if !p.rayEngine(s) {
		return false
	}
	if len(p.rayStarts(launch.KindRayWorker)) > 0 {
		return true
	}
	tp, pp := s.TP(), s.PP()
	return tp.Known && pp.Known && tp.N*pp.N > p.nodeGPUCount(s).n
}

// meantForRayCluster reports a server whose engine (TP x PP) is larger
// than its node while Ray workers join a head in the inputs (`ray start
// --address`, an LWS worker pod running ray_init.sh/multi-node-serving.sh
// worker): the deployment is meant to span the Ray cluster's nodes, even
// where the release refuses to without --distributed-executor-backend ray
// (VL111 says so). Rules about traffic between nodes apply to it.
func (p *pass) meantForRayCluster(s *server) bool {
	if len(p.rayStarts(launch.KindRayWorker)) == 0 {
		return false
	}
	tp, pp := s.TP(), s.PP()
	return tp.Known && pp.Known && tp.N*pp.N > p.nodeGPUCount(s).n
}

// onRayCluster reports a lone server that spans (or may span, or is meant
// to span) the nodes of the Ray cluster the inputs start.
func (p *pass) onRayCluster(s *server) bool {
	return p.rayAcrossNodes(s) || p.mayRunOnRayCluster(s) || p.meantForRayCluster(s)
}

// mayRunOnRayCluster reports a server that may span the Ray cluster the
// inputs start although neither it nor the linter's node count says so: a
// hand-written multi-node script starts a Ray head and workers that join it,
// then `vllm serve` with TP x PP > 1 and no --distributed-executor-backend,
// on a node whose GPU count nothing states (the count is the assumed
// default), for a release that falls back to Ray when the engine is larger
// than the node (vllm.ExecutorRule), or with no release stated. Whether the
// engine spans the nodes then depends on the node's real GPUs, which only
// the host knows; VL209 is a note about it, not a certainty.
func (p *pass) mayRunOnRayCluster(s *server) bool {
	if s.Flag("distributed-executor-backend") != nil || len(p.rayStarts(launch.KindRayWorker)) == 0 || len(p.rayStarts(launch.KindRayHead)) == 0 {
		return false
	}
	tp, pp := s.TP(), s.PP()
	if !tp.Known || !pp.Known || tp.N*pp.N <= 1 || !p.nodeGPUCount(s).assumed {
		return false
	}
	cuda := s.Inv.Platform == "" || s.Inv.Platform == launch.PlatformCUDA
	return cuda && (s.Rel.ExecutorRule().CUDAFallsBackToRay || !s.Stated)
}

// rayStarts lists the `ray start` invocations of one kind.
func (p *pass) rayStarts(k launch.Kind) []*launch.Invocation {
	var out []*launch.Invocation
	for _, r := range p.Rays {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// checkRayDriverEnv reports variables set only for the `vllm serve` that
// drives a multi-node Ray engine when the release does not copy them to the
// Ray workers, which run with the environment of their own `ray start`
// (VL218): socket interfaces never, NCCL_* only from the prefix copy, vLLM's
// own variables only from the copy of registered variables
// (vllm.RayEnvCopy).
func checkRayDriverEnv(p *pass) {
	workers := p.rayStarts(launch.KindRayWorker)
	for _, s := range p.Servers {
		if !p.rayAcrossNodes(s) {
			continue
		}
		copied := s.Rel.RayEnvCopy()
		for _, e := range s.Inv.Env {
			if !launch.IsLaunchEnv(e.Name) || perNodeVar(e.Name) || copied.Copies(s.Rel, e.Name) || setOnAll(workers, e.Name) {
				continue
			}
			p.ReportAt(s.Inv, e.Pos, "set it on every node before `ray start` (run_cluster.sh: -e "+e.Name+"=...), where the Ray workers inherit it",
				"%s is set only where vllm serve runs: vLLM %s does not pass it to the Ray workers on other nodes, which keep the environment of their own `ray start`", e.Name, s.Rel)
		}
	}
}

// perNodeVar reports variables that differ per node by design.
func perNodeVar(name string) bool {
	switch name {
	case "VLLM_HOST_IP", "VLLM_HOST_PORT", "CUDA_VISIBLE_DEVICES", "LOCAL_RANK", "HIP_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES":
		return true
	}
	return false
}

// setOnAll reports whether every worker start sets the variable (false
// when no worker start is visible).
func setOnAll(workers []*launch.Invocation, name string) bool {
	for _, w := range workers {
		if _, ok := w.LookupEnv(name); !ok && !w.EnvOpen {
			return false
		}
	}
	return len(workers) > 0
}

// checkRayNodeIP reports node addresses Ray and vLLM may disagree on (VL219):
// a VLLM_HOST_IP different from the node's `ray start --node-ip-address`; a
// head started without --node-ip-address while VLLM_HOST_IP is set (Ray then
// picks its own address and the placement group for node:<VLLM_HOST_IP>
// never forms, vLLM #7815); an address taken from `hostname -i`.
func checkRayNodeIP(p *pass) {
	for _, r := range p.Rays {
		host, hostSet := r.LookupEnv("VLLM_HOST_IP")
		nodeIP, ipSet := rayNodeIP(r)
		switch {
		case hostSet && ipSet && host.Value.Known && nodeIP.Known && host.Value.Text != nodeIP.Text:
			p.ReportAt(r, host.Value.Pos, "use one address: VLLM_HOST_IP and --node-ip-address must name the same interface",
				"VLLM_HOST_IP=%s but Ray registers this node as %s: vLLM asks Ray for a GPU on node:%s, which Ray does not know, and start-up waits", host.Value.Text, nodeIP.Text, host.Value.Text)
		case r.Kind == launch.KindRayHead && r.Launcher == "ray start" && !ipSet && (hostSet || p.anyHostIP()):
			sev := diag.Info
			if p.severalInterfaces() {
				sev = diag.Warning
			}
			p.ReportAtSeverity(r, r.Pos, sev, "start the head with --node-ip-address=$VLLM_HOST_IP (vLLM's run_cluster.sh does)",
				"VLLM_HOST_IP is set but `ray start --head` picks its own address: on a host with several interfaces they can differ and vLLM's placement group waits forever")
		}
	}
	seen := map[filePos]bool{}
	for _, v := range p.addressValues() {
		if k := fileAt(v.file, v.val.Pos); fromHostnameI(v.val) && !seen[k] {
			seen[k] = true
			p.Report(v.file, v.val.Pos, "use the address of the inter-node interface (ip -4 addr show <if>), or a fixed address",
				"%s comes from `hostname -i`, which can return 127.0.1.1 or several addresses", v.what)
		}
	}
}

// rayNodeIP reads `ray start --node-ip-address X` (or =X).
func rayNodeIP(r *launch.Invocation) (launch.Value, bool) {
	for i, a := range r.Args {
		if v, ok := strings.CutPrefix(a.Text, "--node-ip-address="); ok {
			return a.Slice(len(a.Text)-len(v), len(a.Text)), true
		}
		if a.Text == "--node-ip-address" && i+1 < len(r.Args) {
			return r.Args[i+1], true
		}
	}
	return launch.Value{}, false
}

// anyHostIP reports whether any server or Ray start sets VLLM_HOST_IP.
func (p *pass) anyHostIP() bool {
	for _, inv := range p.allInvocations() {
		if _, ok := inv.LookupEnv("VLLM_HOST_IP"); ok {
			return true
		}
	}
	return false
}

// addressValue is one node address a launch gives, for VL219.
type addressValue struct {
	file, what string
	val        launch.Value
}

// addressValues lists node addresses: VLLM_HOST_IP, --data-parallel-address,
// --master-addr and Ray's --node-ip-address.
func (p *pass) addressValues() []addressValue {
	var out []addressValue
	for _, inv := range p.allInvocations() {
		if e, ok := inv.LookupEnv("VLLM_HOST_IP"); ok {
			out = append(out, addressValue{inv.File, "VLLM_HOST_IP", e.Value})
		}
		if v, ok := rayNodeIP(inv); ok {
			out = append(out, addressValue{inv.File, "--node-ip-address", v})
		}
	}
	for _, s := range p.Servers {
		for _, f := range []string{"data-parallel-address", "master-addr"} {
			if v, ok := s.Str(f); ok {
				out = append(out, addressValue{s.Inv.File, "--" + f, v})
			}
		}
	}
	return out
}

// fromHostnameI reports a value produced by `hostname -i` (or -I, --ip-address).
func fromHostnameI(v launch.Value) bool {
	for _, u := range v.Unresolved {
		if strings.Contains(u, "hostname -i") || strings.Contains(u, "hostname --ip-address") {
			return true
		}
	}
	return false
}

// checkRayDPBackend reports DP > 1 with the Ray executor but the default
// mp DP backend (VL220): every DP rank's engine process then starts on this
// node, and Ray only places each rank's workers.
func checkRayDPBackend(p *pass) {
	for _, s := range p.Servers {
		v, ok := s.Str("distributed-executor-backend")
		dp := s.DP()
		if !ok || v.Text != "ray" || !dp.Known || dp.N <= 1 || s.RayDP() || s.MultiNodeDP() || s.Flag("data-parallel-backend") != nil {
			continue
		}
		p.ReportAt(s.Inv, v.Pos, "add --data-parallel-backend ray to let Ray place the DP ranks over the cluster",
			"--data-parallel-size %d with the Ray executor but the mp DP backend: all %d DP ranks start on this node", dp.N, dp.N)
	}
}

// severalInterfaces reports launches that pick a network interface
// (GLOO_SOCKET_IFNAME, NCCL_SOCKET_IFNAME, NCCL_IB_HCA) or run with the
// host's network stack (docker --network host, hostNetwork: true): the hosts have
// more than one, which is when Ray and vLLM can pick different addresses.
func (p *pass) severalInterfaces() bool {
	for _, inv := range p.allInvocations() {
		if inv.Container != nil && inv.Container.SharesHostNICs {
			return true // host networking: the host's NICs, docker0, veths
		}
		for _, n := range []string{"GLOO_SOCKET_IFNAME", "NCCL_SOCKET_IFNAME", "NCCL_IB_HCA"} {
			if _, ok := inv.LookupEnv(n); ok {
				return true
			}
		}
	}
	return false
}
