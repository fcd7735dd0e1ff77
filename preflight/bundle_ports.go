package preflight

import (
	"fmt"
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
// and bind no fixed port. ok is false where the plan is not read this way:
// a P/D pool (its sidecars, routers and shared nodes: enginePorts), a
// Kubernetes bundle (its pods: one pod's ports), or a spec the generator
// refuses.
func (e *env) bundlePorts() (ps []boundPort, ok bool) {
	if e.opts.Role != nil || e.r == nil || e.d.Runtime.Kind == "kubernetes" {
		return nil, false
	}
	plan, ds := generator.MakePlan(e.r, e.d.Runtime.Kind)
	if plan == nil || ds.HasErrors() {
		return nil, false
	}
	for _, n := range plan.Nodes {
		if n.Index != e.idx {
			continue
		}
		for _, st := range n.Steps {
			ps = append(ps, stepPorts(n, st)...)
		}
	}
	return ps, true
}

// stepPorts are the fixed ports one command of the bundle binds.
func stepPorts(n generator.NodePlan, st generator.Step) []boundPort {
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
	api, rpc := "API server (vllm.port)", "DP RPC (vllm.rpc_port)"
	if k := n.Slot; k > 0 {
		api = fmt.Sprintf("API server of the node's replica %d (vllm.port + %d)", k+1, k)
		rpc = fmt.Sprintf("DP RPC of the node's replica %d (vllm.rpc_port + %d)", k+1, k)
	}
	var what map[string]string
	if ray {
		if _, head := flags["--head"]; !head {
			return nil
		}
		what = map[string]string{"--port": "Ray head's GCS (ray start --head --port)"}
	} else {
		what = map[string]string{
			"--port":                   api,
			"--data-parallel-rpc-port": rpc,
			"--master-port":            "torch.distributed master of node rank 0 (--master-port)",
		}
	}
	var ps []boundPort
	for _, f := range []string{"--port", "--data-parallel-rpc-port", "--master-port"} {
		w, ok := what[f]
		if !ok {
			continue
		}
		if v, set := flags[f]; set {
			if p, err := strconv.Atoi(v); err == nil && p > 0 {
				ps = append(ps, boundPort{p, w})
			}
		}
	}
	return ps
}
