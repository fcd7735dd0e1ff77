package generator

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestSubNodeReplicasOwnGPUsAndPorts: replicas smaller than a node get one
// node plan (and script) each, on GPUs no other replica of the host has,
// on an API port of their own, every GPU of the node used once.
func TestSubNodeReplicasOwnGPUsAndPorts(t *testing.T) {
	for _, rt := range []string{"bare", "docker"} {
		b, _ := generate(t, "replicas-subnode", rt)
		p := b.Plan
		if !p.SubNode || p.Replicas != 8 || len(p.Nodes) != 8 || len(p.Primaries) != 8 {
			t.Fatalf("%s: subnode %v, %d replicas, %d node plans, %d primaries; want 8 single-node replicas", rt, p.SubNode, p.Replicas, len(p.Nodes), len(p.Primaries))
		}
		gpus, ports := map[string][]int{}, map[string][]int{}
		for _, n := range p.Nodes {
			if len(n.Devices) != 2 || n.GPUs != 2 || n.Role != RolePrimary {
				t.Errorf("%s: %s replica %d on %v (%d GPUs, %s)", rt, n.Name, n.Replica, n.Devices, n.GPUs, n.Role)
			}
			gpus[n.Name] = append(gpus[n.Name], n.Devices...)
			ports[n.Name] = append(ports[n.Name], n.Port)
		}
		for host, g := range gpus {
			slices.Sort(g)
			if !slices.Equal(g, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
				t.Errorf("%s: %s's replicas use GPUs %v, want each of 0-7 once", rt, host, g)
			}
			if q := ports[host]; !slices.Equal(q, []int{8000, 8001, 8002, 8003}) {
				t.Errorf("%s: %s's replicas serve ports %v", rt, host, q)
			}
		}
	}
}

// TestSubNodeBundlesLintClean: bundles of replicas sharing nodes pass
// `vlaunch lint` (with the spec) with no warning in every runtime: lint
// takes the replicas of one host as engines on disjoint GPUs and ports.
//
// Across releases: 0.5.4's frontend binds a fixed TCP port, which each
// replica of a host gets its own of (vllm.Release.SharedHost).
func TestSubNodeBundlesLintClean(t *testing.T) {
	for _, v := range []string{"0.5.4", "0.10.2", "0.11.0", "0.12.0", vllm.Newest().Version.String()} {
		for _, rt := range Runtimes {
			d := loadSpec(t, "replicas-subnode")
			d.VLLM.Version = v
			b, ds := gen(t, d, Options{Runtime: rt})
			if ds.HasErrors() {
				t.Fatalf("%s %s: %v", v, rt, ds)
			}
			for _, f := range lintBundle(t, d, b) {
				if f.Severity >= diag.Warning {
					t.Errorf("%s %s: %s", v, rt, f)
				}
			}
		}
	}
}

// TestSubNodeLintCatchesCollisions: the same bundle with two replicas of a
// host on one GPU, or on one port, is reported (VL228, VL212): the host
// directive makes lint compare the files, it does not silence it.
func TestSubNodeLintCatchesCollisions(t *testing.T) {
	for _, tc := range []struct {
		runtime, from, to string
		want              diag.Code
	}{
		{"bare", "CUDA_VISIBLE_DEVICES=2,3", "CUDA_VISIBLE_DEVICES=1,2", codes.VLSharedGPUs},
		{"docker", `'"device=2,3"'`, `'"device=0,3"'`, codes.VLSharedGPUs},
		{"bare", "--port 8001", "--port 8000", codes.VLPortConflict},
		{"docker", "--port 8001", "--port 8000", codes.VLPortConflict},
	} {
		d := loadSpec(t, "replicas-subnode")
		b, _ := gen(t, d, Options{Runtime: tc.runtime})
		var in []lint.Input
		edited := false
		for _, f := range b.Files {
			if !strings.HasSuffix(f.Path, ".sh") {
				continue
			}
			data := f.Data
			if f.Path == "node0-replica2.sh" {
				if !bytes.Contains(data, []byte(tc.from)) {
					t.Fatalf("%s: %s lacks %q:\n%s", tc.runtime, f.Path, tc.from, data)
				}
				data, edited = bytes.Replace(data, []byte(tc.from), []byte(tc.to), 1), true
			}
			in = append(in, lint.Input{Name: f.Path, Data: data})
		}
		if !edited {
			t.Fatalf("%s: no node0-replica2.sh", tc.runtime)
		}
		got, err := lint.Lint(in, lint.Options{Spec: d})
		if err != nil {
			t.Fatal(err)
		}
		var found []string
		for _, g := range got {
			if g.Code == tc.want && g.File == "node0-replica2.sh" {
				found = append(found, fmt.Sprint(g))
			}
		}
		if len(found) != 1 {
			t.Errorf("%s %s -> %s: want one %s in node0-replica2.sh, got %v", tc.runtime, tc.from, tc.to, tc.want, got)
		}
	}
}
