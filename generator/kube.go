package generator

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// KubePlan is the LeaderWorkerSet: Replicas groups (one per independent
// replica) of Size pods (one per node), each group's leader running its
// replica's first node's role and every worker the headless role, with
// ranks derived from the LWS environment (LWS_WORKER_INDEX counts within a
// group). One Service spreads requests over the groups' leaders.
type KubePlan struct {
	Replicas   int
	Size       int
	GPUsPerPod int
	// GPUResource is the device plugin's resource the pods request:
	// nvidia.com/gpu, or amd.com/gpu on AMD GPUs (Plan.AMD).
	GPUResource string
	// ComputeDomain gives the pods IMEX channels (multi-node NVLink); nil: none.
	ComputeDomain *ComputeDomainPlan
	Env           []EnvVar
	// LeaderScript and WorkerScript are bash scripts (run with bash -c).
	LeaderScript, WorkerScript string
	RDMAResource               string
	// Model is how the pods get the weights.
	Model KubeModel
	// LeaderLabels are extra labels of the leader pods, and Sidecar a
	// container beside the leader's engine (llm-d's, pd_llmd.go; none
	// otherwise).
	LeaderLabels []KubeLabel
	Sidecar      *KubeSidecar
}

// Addresses in the LWS scripts. LWS sets LWS_LEADER_ADDRESS to the leader
// pod's DNS name (<lws>-<group>.<subdomain>.<namespace>, kubernetes-sigs/lws
// pkg/utils/pod/pod_utils.go AddLWSVariables), but vLLM binds its DP
// handshake (and, in some releases, --master-addr) to the string it is given
// and ZMQ does not resolve names when binding. So the leader uses its own
// pod IP (VLLM_HOST_IP from the downward API) and the workers resolve the
// leader's name to an IP before starting (leaderResolve).
const (
	leaderSelf = `"$VLLM_HOST_IP"`
	leaderIP   = `"$leader_ip"`
	lwsIndex   = `"$LWS_WORKER_INDEX"`
)

func makeKubePlan(p *Plan, d *spec.Deployment) (*KubePlan, diag.Diagnostics) {
	if p.extLB {
		return makeKubeExtLBPlan(p, d)
	}
	n0 := p.activeNodes()[0]
	others := p.otherActive(n0)
	for _, n := range others {
		if n.GPUs != n0.GPUs || n.DPLocal != n0.DPLocal {
			return nil, diag.Diagnostics{gdiag(d, CodeRuntime, diag.Error, "hardware.nodes",
				"a LeaderWorkerSet runs identical pods: every node needs the same GPU count and DP ranks", "")}
		}
	}
	var ds diag.Diagnostics
	for _, n := range others {
		if n.Interface != n0.Interface || strings.Join(n.RDMADevices, ",") != strings.Join(n0.RDMADevices, ",") {
			ds = append(ds, gdiag(d, CodeRuntime, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", n.Index),
				fmt.Sprintf("node %s's interface or RDMA devices differ from %s's; every pod uses %s's", n.Name, n0.Name, n0.Name), ""))
		}
	}
	mount := kubeModelMount(p, d)
	kp := &KubePlan{Replicas: max(1, p.Replicas), Size: p.ReplicaNodes, GPUsPerPod: n0.GPUs, GPUResource: gpuResource(p), RDMAResource: d.Runtime.Kubernetes.RDMAResource, Model: mount}
	if p.RDMA && kp.RDMAResource == "" {
		kp.RDMAResource = "rdma/ib"
	}
	if !p.RDMA {
		kp.RDMAResource = ""
	}
	kp.Env = nodeEnv(p, d, n0, EnvVar{FieldRef: "status.podIP"})
	kp.ComputeDomain = computeDomain(p, d, kp)
	leader, worker, err := kubeSteps(p, d)
	if err == nil {
		kp.LeaderScript, err = script(leader)
	}
	if err == nil {
		kp.WorkerScript, err = script(worker)
	}
	if err != nil {
		return nil, append(ds, diag.Diagnostic{Code: CodeTemplate, Severity: diag.Error, File: d.File, Message: err.Error()})
	}
	return kp, ds
}

// otherActive are the active nodes after n0, every one of them whichever
// nodes the plan holds (nodeAt): the pods must be alike.
func (p *Plan) otherActive(n0 *NodePlan) []NodePlan {
	var out []NodePlan
	for i, s := range p.placement.Nodes {
		if s.Used && i > n0.Index {
			n := p.nodeAt(i)
			if p.SubNode { // a pod is one replica, whatever its node holds
				n.GPUs, n.DPLocal = n0.GPUs, n0.DPLocal
			}
			out = append(out, n)
		}
	}
	return out
}

// kubeSteps builds the leader and worker commands with ranks from LWS.
func kubeSteps(p *Plan, d *spec.Deployment) (leader, worker []Step, err error) {
	common, err := commonArgs(p, d)
	if err != nil {
		return nil, nil, err
	}
	extra := extraArgs(d)
	bin := []Arg{{Text: p.Binary}}
	n0 := p.activeNodes()[0]
	switch p.Layout {
	case LayoutRay:
		return kubeRaySteps(p, bin, common, extra)
	case LayoutNNodes:
		headless := NodePlan{Role: RoleHeadless}
		la, err1 := spanningArgs(p, n0, Arg{Text: "0"}, Arg{Text: leaderSelf, Raw: true})
		wa, err2 := spanningArgs(p, &headless, Arg{Text: lwsIndex, Raw: true}, Arg{Text: leaderIP, Raw: true})
		return []Step{{Args: join(bin, common, la, extra), Comment: "LWS leader: node rank 0"}},
			[]Step{{Args: join(bin, common, wa, extra), ResolveLeader: true, Comment: "LWS worker: node rank = LWS_WORKER_INDEX"}}, firstErr(err1, err2)
	}
	local := Arg{Text: itoa(n0.DPLocal)}
	start := Arg{Text: fmt.Sprintf(`"$((LWS_WORKER_INDEX * %d))"`, n0.DPLocal), Raw: true}
	primary := *n0
	primary.Role = RolePrimary
	headless := *n0
	headless.Role = RoleHeadless
	la, err1 := nodeArgs(withPrimaryAddress(p, leaderSelf), &primary, &start, &local)
	leaderStep := Step{Args: join(bin, common, rawWords(la, leaderSelf), extra), Comment: "LWS leader: API server and DP ranks 0.." + itoa(n0.DPLocal-1)}
	if p.Layout == LayoutSingle {
		// A group of one pod starts no worker, but the template is required.
		workerStep := leaderStep
		workerStep.Comment = "LWS size 1: no worker pod is started; the template repeats the leader's"
		return []Step{leaderStep}, []Step{workerStep}, err1
	}
	wa, err2 := nodeArgs(withPrimaryAddress(p, leaderIP), &headless, &start, &local)
	workerStep := Step{Args: join(bin, common, rawWords(wa, leaderIP), extra), ResolveLeader: true,
		Comment: "LWS worker: DP ranks from LWS_WORKER_INDEX x " + itoa(n0.DPLocal)}
	return []Step{leaderStep}, []Step{workerStep}, firstErr(err1, err2)
}

// withPrimaryAddress is a copy of p whose primary is reached at addr (a
// shell expression), for building LWS commands.
func withPrimaryAddress(p *Plan, addr string) *Plan {
	kp := *p
	kp.Primary = &NodePlan{Address: addr, DPLocal: p.Primary.DPLocal}
	kp.Primaries = []*NodePlan{kp.Primary}
	return &kp
}

// rawWords marks the generator's own shell expressions among args as raw.
func rawWords(args []Arg, exprs ...string) []Arg {
	for i := range args {
		for _, e := range exprs {
			if args[i].Text == e {
				args[i].Raw = true
			}
		}
	}
	return args
}

func kubeRaySteps(p *Plan, bin, common, extra []Arg) (leader, worker []Step, err error) {
	own, err := spanningArgs(p, p.Primary, Arg{}, Arg{})
	total := p.Kube0GPUs() * p.ReplicaNodes
	leader = []Step{
		{Args: append(words("ray", "start", "--head", "--port", itoa(RayPort), "--node-ip-address"), Arg{Text: leaderSelf, Raw: true}),
			Comment: "LWS leader: Ray head"},
		{Args: join(bin, common, own, extra), WaitForRayGPUs: total, Comment: "serve once every worker has joined"},
	}
	// The worker names its own address as the leader does: Ray otherwise
	// picks one by itself, which on a multi-homed host may differ from
	// VLLM_HOST_IP (the bare and docker bundles pass the node's address).
	worker = []Step{{Args: []Arg{{Text: "ray"}, {Text: "start"}, {Text: "--block"}, {Text: "--address"},
		{Text: fmt.Sprintf(`"$leader_ip:%d"`, RayPort), Raw: true}, {Text: "--node-ip-address"}, {Text: leaderSelf, Raw: true}},
		ResolveLeader: true, Comment: "LWS worker: join the Ray head"}}
	return leader, worker, err
}

// Kube0GPUs is the GPU count of the first node (all pods are alike).
func (p *Plan) Kube0GPUs() int { return p.activeNodes()[0].GPUs }

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// gpuResource is the device plugin's resource for the plan's GPUs: AMD's
// k8s-device-plugin advertises amd.com/gpu, NVIDIA's nvidia.com/gpu.
func gpuResource(p *Plan) string {
	if p.AMD {
		return "amd.com/gpu"
	}
	return "nvidia.com/gpu"
}
