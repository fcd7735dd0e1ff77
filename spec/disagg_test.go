package spec

import (
	"reflect"
	"testing"
)

func pdSpec() *Deployment {
	one, two := 1, 2
	d := &Deployment{
		Hardware: Hardware{Nodes: []Node{{Name: "a", GPUs: 8}, {Name: "b", GPUs: 8}, {Name: "c", GPUs: 8}}},
		VLLM:     VLLM{Version: "0.12.0", MaxNumSeqs: &one, ExtraArgs: []string{"--x"}, Env: map[string]string{"A": "1", "B": "1"}},
		Disaggregation: &Disaggregation{
			Connector: "nixl",
			Prefill:   Pool{Nodes: []string{"c"}},
			Decode: Pool{Instances: 2, Nodes: []string{"b", "a"}, Parallelism: PoolParallelism{Tensor: 8},
				VLLM: PoolVLLM{MaxNumSeqs: &two, ExtraArgs: []string{"--y"}, Env: map[string]string{"B": "2"}}},
		},
	}
	ApplyDefaults(d)
	return d
}

// TestRoleView: a pool's view has its nodes in the pool's order, its
// layout with the instances as replicas, and the top-level settings with
// its overrides (env merged, extra_args appended), leaving the spec as it was.
func TestRoleView(t *testing.T) {
	d := pdSpec()
	v := d.RoleView(RoleDecode)
	if got := []string{v.Hardware.Nodes[0].Name, v.Hardware.Nodes[1].Name}; !reflect.DeepEqual(got, []string{"b", "a"}) || len(v.Hardware.Nodes) != 2 {
		t.Errorf("decode nodes %v", got)
	}
	if want := (Parallelism{Tensor: 8, Pipeline: 1, Data: 1, Replicas: 2}); v.Parallelism != want {
		t.Errorf("decode layout %+v, want %+v", v.Parallelism, want)
	}
	if *v.VLLM.MaxNumSeqs != 2 || !reflect.DeepEqual(v.VLLM.ExtraArgs, []string{"--x", "--y"}) || !reflect.DeepEqual(v.VLLM.Env, map[string]string{"A": "1", "B": "2"}) {
		t.Errorf("decode vllm %+v", v.VLLM)
	}
	if v.Disaggregation != nil || v.Root != d.Root || v.Metadata.Name != d.Metadata.Name+"-decode" {
		t.Errorf("view keeps the document, drops the block: %+v", v.Metadata)
	}
	if *d.VLLM.MaxNumSeqs != 1 || len(d.VLLM.ExtraArgs) != 1 || d.VLLM.Env["B"] != "1" {
		t.Errorf("the spec changed: %+v", d.VLLM)
	}
	p := d.RoleView(RolePrefill)
	if want := (Parallelism{Tensor: 1, Pipeline: 1, Data: 8, Replicas: 1}); p.Parallelism != want || *p.VLLM.MaxNumSeqs != 1 {
		t.Errorf("prefill layout %+v (data defaults to the pool's GPUs)", p.Parallelism)
	}
	if d.Parallelism != (Parallelism{}) || d.Disaggregation.Router.Node != "c" || d.Disaggregation.Router.Kind != RouterKindVLLM {
		t.Errorf("defaults: top-level parallelism %+v, router %+v", d.Parallelism, d.Disaggregation.Router)
	}
}

// TestRoleViewUnknownNodes: a name hardware.nodes lacks is left out of the
// view (validate reports it) and never panics.
func TestRoleViewUnknownNodes(t *testing.T) {
	d := pdSpec()
	d.Disaggregation.Prefill.Nodes = []string{"zz", "a"}
	if v := d.RoleView(RolePrefill); len(v.Hardware.Nodes) != 1 || v.Hardware.Nodes[0].Name != "a" {
		t.Errorf("nodes %+v", v.Hardware.Nodes)
	}
	if (&Deployment{}).RoleView(RolePrefill) != nil || d.RoleView("router") != nil {
		t.Error("a view of nothing must be nil")
	}
}
