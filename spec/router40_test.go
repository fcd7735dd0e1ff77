package spec

import "testing"

// TestColocatedRouterOnlyNode: a colocated deployment's router.node may be
// a CPU-only host (RouterOnlyNode), and EngineView leaves it out of the
// nodes the engines are laid out on while RouterNode still finds it; a
// GPU-less node that is not the router's is no router-only node, and a
// spec without such a host is its own view (no copy).
func TestColocatedRouterOnlyNode(t *testing.T) {
	d := &Deployment{Hardware: Hardware{Nodes: []Node{{Name: "rt", GPUs: 0}, {Name: "n0", GPUs: 8}, {Name: "n1", GPUs: 8}}},
		Router: &Router{Node: "rt"}}
	ApplyDefaults(d)
	if !d.RouterOnlyNode("rt") || d.RouterOnlyNode("n0") || d.RouterOnlyNode("") {
		t.Errorf("RouterOnlyNode: rt %v, n0 %v", d.RouterOnlyNode("rt"), d.RouterOnlyNode("n0"))
	}
	v := d.EngineView()
	if v == d || len(v.Hardware.Nodes) != 2 || v.Hardware.Nodes[0].Name != "n0" || len(d.Hardware.Nodes) != 3 {
		t.Fatalf("EngineView: %+v (the spec: %+v)", v.Hardware.Nodes, d.Hardware.Nodes)
	}
	if n, ok := v.RouterNode(); !ok || n.Name != "rt" || n.GPUs != 0 {
		t.Errorf("the view's RouterNode: %+v %v", n, ok)
	}
	if v.EngineView() != v {
		t.Error("a view's view is a copy again")
	}
	d.Router.Node = "n0"
	if d.RouterOnlyNode("rt") || d.EngineView() != d {
		t.Error("a GPU-less node that is not router.node: still router-only")
	}
	plain := &Deployment{Hardware: Hardware{Nodes: []Node{{Name: "n0", GPUs: 8}}}, Router: &Router{Node: "n0"}}
	ApplyDefaults(plain)
	if plain.EngineView() != plain {
		t.Error("no CPU-only host: EngineView copied the spec")
	}
}
