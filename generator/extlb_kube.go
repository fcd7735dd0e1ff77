package generator

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// makeKubeExtLBPlan is the LeaderWorkerSet of a deployment behind its
// top-level router: one group of one pod per node, each pod (the whole
// node, host networking) starting its node's DP ranks side by side, every
// rank a `vllm serve --data-parallel-rank R` on its own GPUs
// (CUDA_VISIBLE_DEVICES inside the pod) and port. A rank that exits ends
// the pod's script, and the group is recreated (RecreateGroupOnPodRestart).
// The ranks' global numbers come from LWS_WORKER_INDEX; the leader (worker
// index 0) runs rank 0 and its DP coordinator on its pod IP, the workers
// resolve the leader's name first (leaderResolve). router.yaml gives every
// pod a Service (RouterPlan.Pods) the router reaches its ranks through.
func makeKubeExtLBPlan(p *Plan, d *spec.Deployment) (*KubePlan, diag.Diagnostics) {
	var per []*NodePlan // the first node's ranks: every pod runs the same
	for _, n := range p.rankPlans() {
		if n.Index == p.Nodes[0].Index {
			per = append(per, n)
		}
	}
	for i, s := range p.placement.Nodes {
		if s.Used && (s.DPLocal != len(per) || d.Hardware.Nodes[i].GPUs != d.Hardware.Nodes[p.Nodes[0].Index].GPUs) {
			return nil, diag.Diagnostics{gdiag(d, CodeRuntime, diag.Error, "hardware.nodes",
				"a LeaderWorkerSet runs identical pods: every node needs the same GPU count and DP ranks", "")}
		}
	}
	mount := kubeModelMount(p, d)
	size := 0
	for _, s := range p.placement.Nodes {
		if s.Used {
			size++
		}
	}
	pod := p.nodeAt(p.Nodes[0].Index) // the whole node: no CUDA_VISIBLE_DEVICES in the pod's env
	kp := &KubePlan{Replicas: 1, Size: size, GPUsPerPod: pod.GPUs, GPUResource: gpuResource(p), RDMAResource: d.Runtime.Kubernetes.RDMAResource, Model: mount}
	if p.RDMA && kp.RDMAResource == "" {
		kp.RDMAResource = "rdma/ib"
	}
	if !p.RDMA {
		kp.RDMAResource = ""
	}
	kp.Env = nodeEnv(p, d, &pod, EnvVar{FieldRef: "status.podIP"})
	kp.ComputeDomain = computeDomain(p, d, kp)
	var err error
	if kp.LeaderScript, err = p.kubeRanksScript(d, per, leaderSelf, false); err == nil {
		kp.WorkerScript, err = p.kubeRanksScript(d, per, leaderIP, true)
	}
	if err != nil {
		return nil, diag.Diagnostics{{Code: CodeTemplate, Severity: diag.Error, File: d.File, Message: err.Error()}}
	}
	return kp, nil
}

// kubeRanksScript starts a pod's ranks in the background, each with its
// GPUs and port, and waits: the first rank to exit ends the script with
// an error (so LWS recreates the group).
func (p *Plan) kubeRanksScript(d *spec.Deployment, ranks []*NodePlan, leader string, resolveLeader bool) (string, error) {
	common, err := commonArgs(p, d)
	if err != nil {
		return "", err
	}
	extra := extraArgs(d)
	var b strings.Builder
	if resolveLeader {
		b.WriteString(leaderResolve() + "\n")
	}
	for k, n := range ranks {
		a := &argList{r: p.Release}
		a.flag("data-parallel-size", itoa(p.DP))
		a.raw("data-parallel-rank", fmt.Sprintf(`"$((LWS_WORKER_INDEX * %d + %d))"`, len(ranks), k))
		a.raw("data-parallel-address", leader)
		a.flag("data-parallel-rpc-port", itoa(p.RPCPort))
		a.flag("port", itoa(n.Port))
		extLBAPIServers(a, p)
		if a.err != nil {
			return "", a.err
		}
		cmd, err := shellWords(join([]Arg{{Text: p.Binary}}, common, a.args, extra), "  ")
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "# DP rank LWS_WORKER_INDEX x %d + %d on the pod's GPUs %s, its own API server on port %d (external load balancing, behind the router)\n",
			len(ranks), k, n.DeviceList(), n.Port)
		fmt.Fprintf(&b, "CUDA_VISIBLE_DEVICES=%s %s &\n", n.DeviceList(), cmd)
	}
	b.WriteString("# the first rank to exit ends the pod, and LWS recreates the group\nwait -n\nexit 1\n")
	return b.String(), nil
}
