package resolve

import (
	"errors"
	"slices"
	"testing"
)

// TestPlaceSubNode: replicas smaller than a node fill the nodes in order,
// each on consecutive GPUs of one node (never part of two), as single-node
// servers; leftover GPUs are the node's idle ones, later nodes stay
// unused; more replicas than the nodes hold are refused at
// parallelism.replicas, and a replica no smaller than a node keeps taking
// whole nodes.
func TestPlaceSubNode(t *testing.T) {
	rel := release(t, "0.11.0")
	type site struct{ node, first int }
	tests := []struct {
		name  string
		l     Layout
		nodes []int
		sites []site // nil: an error at parallelism.replicas
		idle  []int  // each node's idle GPUs
		used  []int  // each node's replica count
	}{
		{"two TP4 on one node", Layout{TP: 4, PP: 1, DP: 1, Replicas: 2}, []int{8}, []site{{0, 0}, {0, 4}}, []int{0}, []int{2}},
		{"eight single-GPU replicas", Layout{TP: 1, PP: 1, DP: 1, Replicas: 8}, []int{8}, []site{{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}, {0, 6}, {0, 7}}, []int{0}, []int{8}},
		{"in order over nodes", Layout{TP: 2, PP: 1, DP: 1, Replicas: 5}, []int{8, 8}, []site{{0, 0}, {0, 2}, {0, 4}, {0, 6}, {1, 0}}, []int{0, 6}, []int{4, 1}},
		{"DP inside a replica", Layout{TP: 2, PP: 1, DP: 2, Replicas: 2}, []int{8, 8}, []site{{0, 0}, {0, 4}}, []int{0, 0}, []int{2, 0}},
		{"leftover GPUs", Layout{TP: 1, PP: 3, DP: 1, Replicas: 3}, []int{8, 8}, []site{{0, 0}, {0, 3}, {1, 0}}, []int{2, 5}, []int{2, 1}},
		{"never across nodes", Layout{TP: 4, PP: 1, DP: 1, Replicas: 3}, []int{6, 6}, nil, nil, nil},
		{"too many", Layout{TP: 4, PP: 1, DP: 1, Replicas: 5}, []int{8, 8}, nil, nil, nil},
	}
	for _, tt := range tests {
		p, err := Place(tt.l, tt.nodes, rel)
		var fe *FieldError
		if tt.sites == nil {
			if !errors.As(err, &fe) || fe.Path != "parallelism.replicas" {
				t.Errorf("%s: %v, want an error at parallelism.replicas", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !p.SubNode || p.Kind != KindSingle || p.ReplicaNodes != 1 || len(p.Sites) != len(tt.sites) {
			t.Errorf("%s: %+v, want %d single-node sites", tt.name, p, len(tt.sites))
			continue
		}
		for r, s := range p.Sites {
			if s.Node != tt.sites[r].node || s.FirstGPU != tt.sites[r].first || s.GPUs != tt.l.GPUs() || p.ReplicaStart[r] != s.Node {
				t.Errorf("%s: replica %d at %+v (start %d), want node %d from GPU %d", tt.name, r, s, p.ReplicaStart[r], tt.sites[r].node, tt.sites[r].first)
			}
		}
		for i, n := range p.Nodes {
			if n.IdleGPUs != tt.idle[i] || n.Replicas != tt.used[i] || n.Used != (tt.used[i] > 0) || (n.Used && n.DPLocal != tt.l.DP) {
				t.Errorf("%s: node %d %+v, want %d replicas, %d idle GPUs", tt.name, i, n, tt.used[i], tt.idle[i])
			}
		}
	}
	if got := (Site{FirstGPU: 4, GPUs: 4}).Devices(); !slices.Equal(got, []int{4, 5, 6, 7}) {
		t.Errorf("devices %v", got)
	}
	// A replica as large as a node takes whole nodes, as before.
	if p, err := Place(Layout{TP: 8, PP: 1, DP: 1, Replicas: 2}, []int{8, 8}, rel); err != nil || p.SubNode {
		t.Errorf("whole-node replicas: %+v %v", p, err)
	}
}
