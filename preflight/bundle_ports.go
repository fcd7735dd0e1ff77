package preflight

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/vlaunch/vlaunch/generator"
)

// bundlePorts are the fixed ports the node's commands in the generated
// bundle bind, read from those commands (generator.MakePlan's steps, the
// words node<i>.sh runs) rather than derived a second time from the spec:
// a `vllm serve` that is not --headless binds its --port (API server),
// --data-parallel-rpc-port (DP coordination) and --master-port (the
// torch.distributed store of --nnodes rank 0); `ray start --head` binds
// its --port (the Ray GCS). A headless engine and a Ray worker dial out
// and bind no fixed port.
//
// A P/D pool's plan is MakePlan of the pool's own deployment, the call
// generator.generatePD makes for prefill/ and decode/ (it only appends
// --kv-transfer-config, which binds nothing): on a node both pools share,
// each instance's node plan carries its slot and port (vllm.port + slot).
// Behind llm-d's router (Role.SidecarPort) the routing sidecar listens on
// the sidecar port + slot in front of each instance's engine, whose
// --port is disaggregation.router.decode_port.
//
// On Kubernetes a whole-node pod runs with hostNetwork
// (templates/kubernetes/lws.yaml.tmpl), so the host's ports are exactly
// the node's commands'. Pods smaller than a node run on the pod network:
// no host port matters, and preflight, run inside one pod, checks that
// pod's own namespace, where every pod binds slot 0's ports (lws.yaml's
// one template): the node's slot-0 commands.
//
// ok is false when the generator refuses the spec (no bundle to read).
func (e *env) bundlePorts() (ps []boundPort, ok bool) {
	if e.r == nil {
		return nil, false
	}
	runtime := e.d.Runtime.Kind
	plan, ds := generator.MakePlan(e.r, runtime)
	if plan == nil || ds.HasErrors() {
		return nil, false
	}
	sidecar := 0
	if e.opts.Role != nil {
		sidecar = e.opts.Role.SidecarPort
	}
	for _, n := range plan.Nodes {
		if n.Index != e.idx || (runtime == "kubernetes" && n.Slot != 0) {
			continue
		}
		for _, st := range n.Steps {
			ps = append(ps, e.stepPorts(n, st, sidecar)...)
		}
	}
	return ps, true
}

// portWhat names the ports of node plan n's instance in the messages.
type portWhat struct{ api, rpc, sidecar string }

func (e *env) portWhat(n generator.NodePlan, sidecar bool) portWhat {
	k := n.Slot
	if e.share().Shared { // an instance of one of the two pools sharing the node
		pool := e.opts.Role.Name
		gpus := "all GPUs"
		if len(n.Devices) > 0 {
			gpus = fmt.Sprintf("GPUs %d-%d", slices.Min(n.Devices), slices.Max(n.Devices))
		}
		return portWhat{
			api:     fmt.Sprintf("API server of the %s instance on %s (vllm.port + %d)", pool, gpus, k),
			rpc:     fmt.Sprintf("DP RPC of the %s instance on %s (vllm.rpc_port + %d)", pool, gpus, k),
			sidecar: fmt.Sprintf("llm-d's routing sidecar of the %s instance on %s (vllm.port + %d)", pool, gpus, k),
		}
	}
	w := portWhat{api: "API server (vllm.port)", rpc: "DP RPC (vllm.rpc_port)", sidecar: "llm-d's routing sidecar (vllm.port)"}
	if sidecar {
		w.api = "decode engine behind llm-d's routing sidecar (disaggregation.router.decode_port)"
	}
	if n.ExtLB && e.d.Runtime.Kind != "kubernetes" {
		w.api = fmt.Sprintf("API server of DP rank %d (vllm.port + %d, external load balancing behind the router)", n.DPStart, k)
		w.rpc = fmt.Sprintf("DP RPC of DP rank %d (vllm.rpc_port: the DP coordinator the other ranks dial)", n.DPStart)
	} else if k > 0 && e.d.Runtime.Kind != "kubernetes" {
		w.api = fmt.Sprintf("API server of the node's replica %d (vllm.port + %d)", k+1, k)
		w.rpc = fmt.Sprintf("DP RPC of the node's replica %d (vllm.rpc_port + %d)", k+1, k)
		w.sidecar = fmt.Sprintf("llm-d's routing sidecar of the node's replica %d (vllm.port + %d)", k+1, k)
	}
	return w
}

// stepPorts are the fixed ports one command of the bundle binds; sidecar
// (llm-d's routing sidecar port, 0 none) is bound in front of the API
// server of each instance, at sidecar + the instance's slot.
func (e *env) stepPorts(n generator.NodePlan, st generator.Step, sidecar int) []boundPort {
	args := st.Args
	ray := len(args) >= 2 && args[0].Text == "ray" && args[1].Text == "start"
	flags := map[string]string{}
	for i, a := range args {
		if i+1 < len(args) && len(a.Text) > 2 && a.Text[:2] == "--" && !args[i+1].Raw {
			flags[a.Text] = args[i+1].Text
		} else if a.Text == "--headless" || a.Text == "--head" {
			flags[a.Text] = ""
		}
	}
	if _, headless := flags["--headless"]; headless {
		return nil
	}
	if r, ok := flags["--data-parallel-rank"]; ok && r != "0" {
		// An external-LB rank other than 0 dials rank 0's DP RPC port
		// (generator/extlb.go): only rank 0 binds it.
		delete(flags, "--data-parallel-rpc-port")
	}
	w := e.portWhat(n, sidecar > 0)
	var what map[string]string
	if ray {
		if _, head := flags["--head"]; !head {
			return nil
		}
		what = map[string]string{"--port": "Ray head's GCS (ray start --head --port)"}
	} else {
		what = map[string]string{
			"--port":                   w.api,
			"--data-parallel-rpc-port": w.rpc,
			"--master-port":            "torch.distributed master of node rank 0 (--master-port)",
		}
	}
	var ps []boundPort
	for _, f := range []string{"--port", "--data-parallel-rpc-port", "--master-port"} {
		wf, ok := what[f]
		if !ok {
			continue
		}
		v, set := flags[f]
		if !set {
			continue
		}
		p, err := strconv.Atoi(v)
		if err != nil || p <= 0 {
			continue
		}
		if f == "--port" && !ray && sidecar > 0 {
			ps = append(ps, boundPort{sidecar + n.Slot, w.sidecar})
		}
		ps = append(ps, boundPort{p, wf})
	}
	return ps
}
