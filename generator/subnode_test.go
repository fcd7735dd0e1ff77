package generator

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/spec"
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

// TestSubNodePDExample: examples/gpt-oss-120b-pd-2x8h100.yaml (eight TP 1
// prefill instances on one node, two TP 4 decode instances on the other)
// generates in every runtime a script per instance, each on GPUs of its own
// with its own API port and NIXL side-channel base, the router listing
// every instance; the scripts parse with bash, pass shellcheck and lint
// with no warning.
func TestSubNodePDExample(t *testing.T) {
	d, ds := spec.Load(filepath.Join("..", "examples", "gpt-oss-120b-pd-2x8h100.yaml"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	for _, rt := range Runtimes {
		b, ds := gen(t, d, Options{Runtime: rt})
		if ds.HasErrors() {
			t.Fatalf("%s: %v", rt, ds)
		}
		for _, f := range lintBundle(t, d, b) {
			if f.Severity >= diag.Warning {
				t.Errorf("%s: %s", rt, f)
			}
		}
		if rt == "kubernetes" {
			continue
		}
		scripts, side := map[string][]byte{}, map[string]bool{}
		for _, f := range b.Files {
			if strings.HasSuffix(f.Path, ".sh") {
				scripts[strings.ReplaceAll(f.Path, "/", "-")] = f.Data
			}
			for _, l := range strings.Split(string(f.Data), "\n") {
				if strings.HasPrefix(l, "export VLLM_NIXL_SIDE_CHANNEL_PORT=") || strings.Contains(l, "VLLM_NIXL_SIDE_CHANNEL_PORT=") {
					key := strings.SplitN(f.Path, "/", 2)[0] + " " + l[strings.Index(l, "=")+1:]
					if side[key] {
						t.Errorf("%s: %s: side-channel base %s twice in the pool", rt, f.Path, l)
					}
					side[key] = true
				}
			}
		}
		if len(scripts) != 11 { // 8 prefill, 2 decode, the router
			t.Errorf("%s: %d scripts, want 11", rt, len(scripts))
		}
		if router := string(scripts["router.sh"]); strings.Count(router, "--prefill http://192.168.2.10:810") != 8 || strings.Count(router, "--decode http://192.168.2.11:810") != 2 {
			t.Errorf("%s: router.sh does not list every instance:\n%s", rt, router)
		}
		checkShell(t, scripts)
	}
}

// TestSubNodePDSideChannelCollision: two decode instances of one node on
// one NIXL side-channel base are reported (VL223): lint compares the
// instances' files as engines of one host (their host directive).
func TestSubNodePDSideChannelCollision(t *testing.T) {
	d, ds := spec.Load(filepath.Join("..", "examples", "gpt-oss-120b-pd-2x8h100.yaml"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	b, _ := gen(t, d, Options{Runtime: "bare"})
	var in []lint.Input
	for _, f := range b.Files {
		if !strings.HasSuffix(f.Path, ".sh") {
			continue
		}
		data := f.Data
		if f.Path == "decode/node1-replica2.sh" {
			data = bytes.Replace(data, []byte("VLLM_NIXL_SIDE_CHANNEL_PORT=5601"), []byte("VLLM_NIXL_SIDE_CHANNEL_PORT=5600"), 1)
		}
		in = append(in, lint.Input{Name: f.Path, Data: data})
	}
	got, err := lint.Lint(in, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range got {
		if g.Code == codes.VLNixlPorts && g.File == "decode/node1-replica2.sh" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("want one VL223 in decode/node1-replica2.sh, got %v", got)
	}
}

// TestSubNodeDPReplicas: replicas smaller than a node with DP inside (and
// expert parallelism) each get their own --data-parallel-rpc-port next to
// their API port, and lint clean.
func TestSubNodeDPReplicas(t *testing.T) {
	d := loadSpec(t, "replicas-subnode")
	d.Parallelism = spec.Parallelism{Tensor: 1, Pipeline: 1, Data: 2, Expert: true, Replicas: 8}
	b, ds := gen(t, d, Options{Runtime: "bare"})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	rpc := map[string]bool{}
	for _, f := range b.Files {
		if !strings.HasPrefix(f.Path, "node0-") {
			continue
		}
		i := bytes.Index(f.Data, []byte("--data-parallel-rpc-port "))
		if i < 0 {
			t.Fatalf("%s has no --data-parallel-rpc-port:\n%s", f.Path, f.Data)
		}
		port := strings.Fields(string(f.Data[i:]))[1]
		if rpc[port] {
			t.Errorf("%s: DP RPC port %s twice on node0", f.Path, port)
		}
		rpc[port] = true
	}
	if len(rpc) != 4 {
		t.Errorf("node0's replicas use DP RPC ports %v, want 4", rpc)
	}
	for _, f := range lintBundle(t, d, b) {
		if f.Severity >= diag.Warning {
			t.Error(f)
		}
	}
}

// TestSubNodePDPortsPerRuntime: a Kubernetes spec whose two decode
// instances on one node share one NIXL side-channel base (vllm.env)
// validates — each is a pod of its own on the pod network — and generates
// for Kubernetes, but generating it for bare metal or Docker, where both
// instances listen in the node's port space, is refused (GEN009) rather
// than written with a clash.
func TestSubNodePDPortsPerRuntime(t *testing.T) {
	d, ds := spec.Load(filepath.Join("..", "examples", "gpt-oss-120b-pd-2x8h100.yaml"))
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d.Runtime.Kind = "kubernetes"
	d.Disaggregation.Decode.VLLM.Env = map[string]string{vllm.NixlSideChannelPortEnv: "5700"}
	for _, rt := range Runtimes {
		b, ds := validated(t, d, Options{Runtime: rt})
		refused := slices.ContainsFunc(ds, func(x diag.Diagnostic) bool {
			return x.Code == codes.GenRuntime && x.Severity == diag.Error && strings.Contains(x.Message, "5700")
		})
		if want := rt != "kubernetes"; refused != want || (b == nil) != want {
			t.Errorf("runtime %s: refused %v (bundle %v), want refused %v: %v", rt, refused, b != nil, want, ds)
		}
	}
}
