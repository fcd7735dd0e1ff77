package resolve

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// sharedSpec is a gpt-oss-120b P/D spec on 8-GPU nodes n0 (and n1), with
// the pools, release and runtime given.
func sharedSpec(t *testing.T, nodes int, prefill, decode, version, runtime string) *spec.Deployment {
	t.Helper()
	var hw strings.Builder
	for i := range nodes {
		hw.WriteString("    - {name: n" + strconv.Itoa(i) + ", address: 10.0.0." + strconv.Itoa(i+1) + ", gpus: 8}\n")
	}
	y := `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: shared}
model: {name: gpt-oss-120b, path: /models/gpt-oss-120b}
hardware:
  gpu: h100-80g
  nodes:
` + hw.String() + `workload: {concurrency: 8, max_model_len: 16000, input_tokens: 5000, output_tokens: 250}
disaggregation:
  connector: nixl
  router: {node: n0, port: 8000}
  prefill: ` + prefill + `
  decode: ` + decode + `
vllm: {version: "` + version + `", port: 8100}
runtime: {kind: ` + runtime + `, image: vllm/vllm-openai:v` + version + `}
`
	path := filepath.Join(t.TempDir(), "s.yaml")
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	d, ds := spec.Load(path)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	return d
}

// site is one instance as a pool's placement and side channels give it.
type site struct {
	node    string
	devices []int
	slot    int
	side    int
}

// sitesOf lists a pool's instances: node, GPUs, slot (API port vllm.port
// + slot) and side-channel base.
func sitesOf(t *testing.T, r Role) []site {
	t.Helper()
	pl, err := r.Deployment.Place()
	if err != nil {
		t.Fatalf("%s: %v", r.Name, err)
	}
	var out []site
	for _, s := range pl.Sites {
		out = append(out, site{node: r.Deployment.Nodes[s.Node].Name, devices: s.Devices(), slot: s.Slot, side: -1})
	}
	for i, sc := range r.SideChannels {
		if i < len(out) && sc.Node.Name == out[i].node && sc.Slot == out[i].slot {
			out[i].side = sc.BasePort
		}
	}
	return out
}

// TestSharedNodeSplit: a node both pools name splits prefill first (GPUs,
// slots and side-channel ports from 0 and the base), then decode from
// where prefill stops; nothing collides (PortProblems), and check's
// same-node flag holds only when both pools run on one node. Side-channel
// bases: vLLM 0.11.0 listens on base + dp_rank·TP + tp_rank (TP 4: four
// ports from 5557, vllm.NixlSidePorts), 0.22.1 on base + DP rank (one
// port per TP 2 instance from 5600).
func TestSharedNodeSplit(t *testing.T) {
	for _, c := range []struct {
		name             string
		nodes            int
		prefill, decode  string
		version          string
		wantPre, wantDec []site
		sameNode         bool
	}{
		{"1P TP4 + 1D TP4", 1, "{nodes: [n0], parallelism: {tensor: 4}}", "{nodes: [n0], parallelism: {tensor: 4}}", "0.11.0",
			[]site{{"n0", []int{0, 1, 2, 3}, 0, 5557}}, []site{{"n0", []int{4, 5, 6, 7}, 1, 5561}}, true},
		{"2P TP2 + 2D TP2", 1, "{instances: 2, nodes: [n0], parallelism: {tensor: 2}}", "{instances: 2, nodes: [n0], parallelism: {tensor: 2}}", "0.22.1",
			[]site{{"n0", []int{0, 1}, 0, 5600}, {"n0", []int{2, 3}, 1, 5601}},
			[]site{{"n0", []int{4, 5}, 2, 5602}, {"n0", []int{6, 7}, 3, 5603}}, true},
		{"1P TP4 + 3D TP4 over n0 and n1", 2, "{nodes: [n0], parallelism: {tensor: 4}}", "{instances: 3, nodes: [n0, n1], parallelism: {tensor: 4}}", "0.22.1",
			[]site{{"n0", []int{0, 1, 2, 3}, 0, 5600}},
			[]site{{"n0", []int{4, 5, 6, 7}, 1, 5601}, {"n1", []int{0, 1, 2, 3}, 0, 5600}, {"n1", []int{4, 5, 6, 7}, 1, 5601}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := mustResolve(t, sharedSpec(t, c.nodes, c.prefill, c.decode, c.version, "bare"))
			if got := sitesOf(t, r.PD.Roles[0]); !slices.EqualFunc(got, c.wantPre, sameSite) {
				t.Errorf("prefill %+v, want %+v", got, c.wantPre)
			}
			if got := sitesOf(t, r.PD.Roles[1]); !slices.EqualFunc(got, c.wantDec, sameSite) {
				t.Errorf("decode %+v, want %+v", got, c.wantDec)
			}
			for _, rt := range []string{"bare", "docker"} {
				if q := r.PD.PortProblems(rt); len(q) != 0 {
					t.Errorf("%s: port problems %+v", rt, q)
				}
			}
			if r.PD.SameNode() != c.sameNode {
				t.Errorf("SameNode %v, want %v", r.PD.SameNode(), c.sameNode)
			}
		})
	}
}

func sameSite(a, b site) bool {
	return a.node == b.node && slices.Equal(a.devices, b.devices) && a.slot == b.slot && a.side == b.side
}

// TestSharedNodeRefused: what a node both pools name cannot hold, each a
// field error at the pool's nodes entry that names it.
func TestSharedNodeRefused(t *testing.T) {
	for _, c := range []struct {
		name, prefill, decode, runtime string
		path, msg                      string
	}{
		{"decode overflows", "{nodes: [n0], parallelism: {tensor: 4}}", "{instances: 2, nodes: [n0], parallelism: {tensor: 4}}", "bare",
			"disaggregation.decode.nodes[0]", "node0: 4 of 8 GPUs left"},
		{"prefill takes it all", "{nodes: [n0], parallelism: {tensor: 4, data: 2}}", "{nodes: [n0], parallelism: {tensor: 4}}", "bare",
			"disaggregation.decode.nodes[0]", "n0: 0 of 8 GPUs left after the prefill pool's 8"},
		{"instance larger than the node", "{nodes: [n0, n1], parallelism: {tensor: 8, data: 2}}", "{nodes: [n1], parallelism: {tensor: 4}}", "bare",
			"disaggregation.prefill.nodes[1]", "16 GPUs) is larger than its 8 GPUs"},
		{"kubernetes", "{nodes: [n0], parallelism: {tensor: 4}}", "{nodes: [n0], parallelism: {tensor: 4}}", "kubernetes",
			"disaggregation.prefill.nodes[0]", "hostPID"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromSpec(sharedSpec(t, 2, c.prefill, c.decode, "0.22.1", c.runtime))
			fe, ok := err.(*FieldError)
			if !ok {
				t.Fatalf("err %v, want a field error", err)
			}
			if fe.Path != c.path || !strings.Contains(fe.Msg, strings.Replace(c.msg, "node0", "n0", 1)) {
				t.Errorf("%s: %s, want %s: …%s…", fe.Path, fe.Msg, c.path, c.msg)
			}
		})
	}
}

// TestHostPID: only a docker pool sharing its node runs with --pid host
// (the generator writes it, estimate/pd prices cuda_ipc from it).
func TestHostPID(t *testing.T) {
	shared := mustResolve(t, sharedSpec(t, 1, "{nodes: [n0], parallelism: {tensor: 4}}", "{nodes: [n0], parallelism: {tensor: 4}}", "0.22.1", "docker"))
	own := mustResolve(t, sharedSpec(t, 2, "{nodes: [n0], parallelism: {tensor: 8}}", "{nodes: [n1], parallelism: {tensor: 8}}", "0.22.1", "docker"))
	for _, c := range []struct {
		name    string
		r       *Deployment
		runtime string
		want    bool
	}{
		{"shared, docker", shared, "docker", true},
		{"shared, bare", shared, "bare", false},
		{"own nodes, docker", own, "docker", false},
	} {
		for _, role := range c.r.PD.Roles {
			if got := role.Deployment.HostPID(c.runtime); got != c.want {
				t.Errorf("%s, %s: HostPID %v, want %v", c.name, role.Name, got, c.want)
			}
		}
	}
	if own.PD.SameNode() {
		t.Error("pools on nodes of their own: SameNode")
	}
}
