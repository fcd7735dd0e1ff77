package generator

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// KubePlan is the LeaderWorkerSet: one group of Size pods (one per node),
// the leader running node 0's role and every worker the headless role, with
// ranks derived from the LWS environment.
type KubePlan struct {
	Size       int
	GPUsPerPod int
	Env        []EnvVar
	// LeaderScript and WorkerScript are bash scripts (run with bash -c).
	LeaderScript, WorkerScript string
	RDMAResource               string
	ModelMountPath             string
}

// LWS environment variables (set by the LeaderWorkerSet controller).
const (
	lwsLeader = `"$LWS_LEADER_ADDRESS"`
	lwsIndex  = `"$LWS_WORKER_INDEX"`
)

func makeKubePlan(p *Plan, d *spec.Deployment) (*KubePlan, diag.Diagnostics) {
	active := p.activeNodes()
	n0 := active[0]
	for _, n := range active[1:] {
		if n.GPUs != n0.GPUs || n.DPLocal != n0.DPLocal {
			return nil, diag.Diagnostics{gdiag(d, CodeRuntime, diag.Error, "hardware.nodes",
				"a LeaderWorkerSet runs identical pods: every node needs the same GPU count and DP ranks", "")}
		}
	}
	var ds diag.Diagnostics
	for _, n := range active[1:] {
		if n.Interface != n0.Interface || strings.Join(n.RDMADevices, ",") != strings.Join(n0.RDMADevices, ",") {
			ds = append(ds, gdiag(d, CodeRuntime, diag.Warning, fmt.Sprintf("hardware.nodes[%d]", n.Index),
				fmt.Sprintf("node %s's interface or RDMA devices differ from %s's; every pod uses %s's", n.Name, n0.Name, n0.Name), ""))
		}
	}
	kp := &KubePlan{Size: len(active), GPUsPerPod: n0.GPUs, RDMAResource: d.Runtime.Kubernetes.RDMAResource}
	if p.RDMA && kp.RDMAResource == "" {
		kp.RDMAResource = "rdma/ib"
	}
	if !p.RDMA {
		kp.RDMAResource = ""
	}
	kp.ModelMountPath = modelMountPath(p)
	kp.Env = nodeEnv(p, d, n0, EnvVar{FieldRef: "status.podIP"})
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

// kubeSteps builds the leader and worker commands with ranks from LWS.
func kubeSteps(p *Plan, d *spec.Deployment) (leader, worker []Step, err error) {
	common, err := commonArgs(p, d)
	if err != nil {
		return nil, nil, err
	}
	var extra []Arg
	for _, a := range d.VLLM.ExtraArgs {
		extra = append(extra, Arg{Text: a})
	}
	bin := []Arg{{Text: p.Binary}}
	n0 := p.activeNodes()[0]
	switch p.Layout {
	case LayoutRay:
		return kubeRaySteps(p, bin, common, extra)
	case LayoutNNodes:
		headless := NodePlan{Role: RoleHeadless}
		la, err1 := spanningArgs(p, n0, Arg{Text: "0"}, Arg{Text: lwsLeader, Raw: true})
		wa, err2 := spanningArgs(p, &headless, Arg{Text: lwsIndex, Raw: true}, Arg{Text: lwsLeader, Raw: true})
		return []Step{{Args: join(bin, common, la, extra), Comment: "LWS leader: node rank 0"}},
			[]Step{{Args: join(bin, common, wa, extra), Comment: "LWS worker: node rank = LWS_WORKER_INDEX"}}, firstErr(err1, err2)
	}
	local := Arg{Text: itoa(n0.DPLocal)}
	start := Arg{Text: fmt.Sprintf(`"$((LWS_WORKER_INDEX * %d))"`, n0.DPLocal), Raw: true}
	primary := *n0
	primary.Role = RolePrimary
	headless := *n0
	headless.Role = RoleHeadless
	kp := *p
	kp.Primary = &NodePlan{Address: lwsLeader, DPLocal: n0.DPLocal}
	la, err1 := nodeArgs(&kp, &primary, &start, &local)
	wa, err2 := nodeArgs(&kp, &headless, &start, &local)
	return []Step{{Args: join(bin, common, rawAddress(la), extra), Comment: "LWS leader: API server and DP ranks 0.." + itoa(n0.DPLocal-1)}},
		[]Step{{Args: join(bin, common, rawAddress(wa), extra), Comment: "LWS worker: DP ranks from LWS_WORKER_INDEX x " + itoa(n0.DPLocal)}},
		firstErr(err1, err2)
}

// rawAddress marks the LWS leader address placeholder as a shell expression.
func rawAddress(args []Arg) []Arg {
	for i := range args {
		if args[i].Text == lwsLeader {
			args[i].Raw = true
		}
	}
	return args
}

func kubeRaySteps(p *Plan, bin, common, extra []Arg) (leader, worker []Step, err error) {
	own, err := spanningArgs(p, p.Primary, Arg{}, Arg{})
	total := p.Kube0GPUs() * len(p.activeNodes())
	leader = []Step{
		{Args: words("ray", "start", "--head", "--port", itoa(RayPort)), Comment: "LWS leader: Ray head"},
		{Args: join(bin, common, own, extra), WaitForRayGPUs: total, Comment: "serve once every worker has joined"},
	}
	worker = []Step{{Args: []Arg{{Text: "ray"}, {Text: "start"}, {Text: "--block"}, {Text: "--address"},
		{Text: fmt.Sprintf(`"$LWS_LEADER_ADDRESS:%d"`, RayPort), Raw: true}}, Comment: "LWS worker: join the Ray head"}}
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

// modelMountPath is where the model PVC (or host path) is mounted: the
// model path's directory when it is absolute, else the Hugging Face cache.
func modelMountPath(p *Plan) string {
	if len(p.Model) > 0 && p.Model[0] == '/' {
		return p.Model
	}
	return "/root/.cache/huggingface"
}
