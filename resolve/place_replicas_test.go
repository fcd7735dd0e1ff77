package resolve

import (
	"errors"
	"slices"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// TestPlaceReplicas: replicas take whole nodes in order, each placed by the
// one-replica rule; the kind is one replica's (single-node replicas are
// single servers, never joined by a DP coordinator); replicas that
// outnumber the room on the nodes or sit on nodes of another shape are
// refused at parallelism.replicas (replicas smaller than a node:
// TestPlaceSubNode).
func TestPlaceReplicas(t *testing.T) {
	rel := release(t, "0.11.0")
	tests := []struct {
		name  string
		l     Layout
		nodes []int
		kind  string
		start []int // "" kind: an error at parallelism.replicas
		span  int
	}{
		{"one engine per node", Layout{TP: 8, PP: 1, DP: 1, Replicas: 4}, []int{8, 8, 8, 8}, KindSingle, []int{0, 1, 2, 3}, 1},
		{"DP inside a node", Layout{TP: 1, PP: 1, DP: 8, EP: true, Replicas: 4}, []int{8, 8, 8, 8}, KindSingle, []int{0, 1, 2, 3}, 1},
		{"DP over two nodes", Layout{TP: 1, PP: 1, DP: 16, EP: true, Replicas: 2}, []int{8, 8, 8, 8}, KindDP, []int{0, 2}, 2},
		{"spanning engines", Layout{TP: 8, PP: 2, DP: 1, Replicas: 2}, []int{8, 8, 8, 8}, KindRay, []int{0, 2}, 2},
		{"one replica", Layout{TP: 8, PP: 1, DP: 4, Replicas: 1}, []int{8, 8, 8, 8}, KindDP, []int{0}, 4},
		{"idle node after the replicas", Layout{TP: 8, PP: 1, DP: 1, Replicas: 2}, []int{8, 8, 8}, KindSingle, []int{0, 1}, 1},
		{"more small replicas than a node holds", Layout{TP: 4, PP: 1, DP: 1, Replicas: 3}, []int{8}, "", nil, 0},
		{"more replicas than nodes", Layout{TP: 8, PP: 1, DP: 1, Replicas: 5}, []int{8, 8, 8, 8}, "", nil, 0},
		{"unlike nodes", Layout{TP: 4, PP: 1, DP: 2, Replicas: 2}, []int{8, 4, 4}, "", nil, 0},
	}
	for _, tt := range tests {
		p, err := Place(tt.l, tt.nodes, rel)
		var fe *FieldError
		switch {
		case tt.kind == "" && (!errors.As(err, &fe) || fe.Path != "parallelism.replicas"):
			t.Errorf("%s: %v, want an error at parallelism.replicas", tt.name, err)
		case tt.kind == "":
		case err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case p.Kind != tt.kind || p.ReplicaNodes != tt.span || !slices.Equal(p.ReplicaStart, tt.start):
			t.Errorf("%s: kind %s, %d node(s) per replica starting at %v; want %s, %d, %v", tt.name, p.Kind, p.ReplicaNodes, p.ReplicaStart, tt.kind, tt.span, tt.start)
		default:
			for i, s := range p.Nodes {
				r := i / tt.span
				if want := r < len(tt.start); s.Used != want || (want && (s.Replica != r || s.Rank != i%tt.span)) {
					t.Errorf("%s: node %d %+v, want used %v in replica %d at rank %d", tt.name, i, s, want, r, i%tt.span)
				}
			}
		}
	}
}

// TestReplicaNodes: what lint --spec and preflight read off a spec is
// Place's placement: one replica on every node without replicas (or with
// `parallelism: auto`), else each replica's nodes and first node.
func TestReplicaNodes(t *testing.T) {
	nodes := []spec.Node{{Name: "a", GPUs: 8}, {Name: "b", GPUs: 8}, {Name: "c", GPUs: 8}, {Name: "d", GPUs: 8}}
	for _, tc := range []struct {
		p     spec.Parallelism
		per   int
		heads []int
	}{
		{spec.Parallelism{Tensor: 1, Pipeline: 1, Data: 32, Expert: true}, 4, []int{0}},
		{spec.Parallelism{Tensor: 1, Pipeline: 1, Data: 16, Expert: true, Replicas: 2}, 2, []int{0, 2}},
		{spec.Parallelism{Tensor: 8, Pipeline: 1, Data: 1, Replicas: 4}, 1, []int{0, 1, 2, 3}},
		{spec.Parallelism{Auto: true}, 4, []int{0}},
		{spec.Parallelism{Tensor: 4, Pipeline: 1, Data: 1, Replicas: 8}, 1, []int{0, 0, 1, 1, 2, 2, 3, 3}}, // two per node
		{spec.Parallelism{Tensor: 4, Pipeline: 1, Data: 1, Replicas: 9}, 4, []int{0}},                      // Place refuses: one replica on all
	} {
		d := &spec.Deployment{Parallelism: tc.p}
		d.Hardware.Nodes = nodes
		per, heads := ReplicaNodes(d)
		if per != tc.per || !slices.Equal(heads, tc.heads) {
			t.Errorf("%+v: %d nodes per replica, first nodes %v; want %d, %v", tc.p, per, heads, tc.per, tc.heads)
		}
	}
}
