package generator

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/validate"
)

// TestRoutedLWSHasNoLeaderService: behind the top-level router the LWS
// bundle writes no "<name>-api" Service over the leader (it reached rank
// 0 alone and bypassed the router's policy); the router's Service is the
// one entry point, and both manifests pass the Kubernetes schemas. The
// same spec without a router keeps its "-api" Service.
func TestRoutedLWSHasNoLeaderService(t *testing.T) {
	spec := routedBase + "vllm: {version: \"0.11.0\"}\nruntime: {kubernetes: {model_host_path: /data/hf}}\n"
	plain, codes, msg := routedGen(t, spec, "kubernetes")
	if plain == nil || len(codes) > 0 {
		t.Fatalf("without a router: %v %s", codes, msg)
	}
	if !strings.Contains(string(fileData(t, plain, "lws.yaml")), `name: "routed-api"`) {
		t.Fatal("without a router: lws.yaml lost its -api Service")
	}
	b, codes, _ := routedGen(t, spec+"router: {policy: cache_aware, image: registry.example.com/vllm-router:v1}\n", "kubernetes")
	if b == nil || len(codes) > 0 {
		t.Fatalf("with a router: %v", codes)
	}
	lws := fileData(t, b, "lws.yaml")
	if strings.Contains(string(lws), "kind: Service") || strings.Contains(string(lws), "routed-api") {
		t.Errorf("a routed lws.yaml still writes a Service:\n%s", lws)
	}
	router := fileData(t, b, "router.yaml")
	if !strings.Contains(string(router), "name: \"routed-router\"") {
		t.Errorf("router.yaml has no router Service:\n%s", router)
	}
	checkKubeSchema(t, "lws.yaml", lws)
	checkKubeSchema(t, "router.yaml", router)
}

// routedBundleLint lints every file of a bundle but README.md and the
// marker (the hosts table included: it places router.sh), with the
// router's port changed from 30000 to port first.
func routedBundleLint(t *testing.T, b *Bundle, port string) diag.Diagnostics {
	t.Helper()
	var in []lint.Input
	for _, f := range b.Files {
		if f.Path == "README.md" || f.Path == MarkerFile {
			continue
		}
		data := f.Data
		if f.Path == "router.sh" {
			data = []byte(strings.Replace(string(data), "--port 30000", "--port "+port, 1))
		}
		in = append(in, lint.Input{Name: "b/" + f.Path, Data: data})
	}
	ds, err := lint.Lint(in, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestRouterScriptPlacedForLint: the generated router.sh says which node
// it runs on (`# vlaunch:host=NAME`) and the hosts table has its row, so
// lint compares its port with the ranks' in their own files: a router
// port that is rank 1's (node0, 8001) is VL212; the bundle as written is
// clean.
func TestRouterScriptPlacedForLint(t *testing.T) {
	spec := routedBase + "vllm: {version: \"0.11.0\"}\nrouter: {policy: cache_aware}\n"
	b, codes, msg := routedGen(t, spec, "bare")
	if b == nil || len(codes) > 0 {
		t.Fatalf("%v %s", codes, msg)
	}
	if !strings.Contains(string(fileData(t, b, "router.sh")), "\n# vlaunch:host=node0 ") {
		t.Errorf("router.sh has no host directive:\n%s", fileData(t, b, "router.sh"))
	}
	if !strings.Contains(string(fileData(t, b, "hosts")), "\nnode0\t10.0.0.1\t0\trouter\t-\trouter.sh\n") {
		t.Errorf("hosts has no router row:\n%s", fileData(t, b, "hosts"))
	}
	if ds := routedBundleLint(t, b, "30000"); ds.HasErrors() {
		t.Errorf("the bundle as written: %v", ds)
	}
	ds := routedBundleLint(t, b, "8001")
	found := false
	for _, d := range ds {
		found = found || (d.Code == codes212 && d.File == "b/router.sh" && strings.Contains(d.Message, "node0-rank1.sh"))
	}
	if !found {
		t.Errorf("router --port 8001 beside rank 1: no VL212 in %v", ds)
	}
}

const codes212 = "VL212"

// cpuRouterSpec: DP 4 on two 2-GPU nodes, the router on a CPU-only third
// node listed first (gpus: 0).
const cpuRouterSpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: cpurouted}
model: {name: qwen3-30b-a3b, path: Qwen/Qwen3-30B-A3B}
hardware:
  gpu: h100-80g
  nodes:
    - {name: rt, address: 10.0.0.9, gpus: 0}
    - {name: node0, address: 10.0.0.1, gpus: 2}
    - {name: node1, address: 10.0.0.2, gpus: 2}
  network:
    inter_node: {kind: ethernet, bandwidth_gbit_per_s: 100}
workload: {concurrency: 64, session_tokens: 16384, input_tokens: 1024, output_tokens: 256}
parallelism: {tensor: 1, data: 4, expert: true}
vllm: {version: "0.11.0"}
`

// TestRouterOnCPUOnlyNode: a colocated router on a node with no GPU, as
// P/D's router may have: validate accepts it, the ranks are laid out on
// the GPU nodes alone (node0 and node1, two each), router.sh runs on rt
// with every rank as a worker (bare and docker), and lint finds no error
// in the bundle. A GPU-less node that is not the router's stays refused.
func TestRouterOnCPUOnlyNode(t *testing.T) {
	for _, rt := range []string{"bare", "docker"} {
		b, codes, msg := routedGen(t, cpuRouterSpec+"router: {node: rt, port: 30000}\n", rt)
		codes = slices.DeleteFunc(codes, func(c string) bool { return strings.HasPrefix(c, "GEN004@") }) // allgather over Ethernet: said, not refused
		if b == nil || len(codes) > 0 {
			t.Fatalf("%s: %v %s", rt, codes, msg)
		}
		for _, name := range []string{"node0-rank0.sh", "node0-rank1.sh", "node1-rank2.sh", "node1-rank3.sh", "router.sh"} {
			if _, ok := b.File(name); !ok {
				t.Errorf("%s: no %s", rt, name)
			}
		}
		router := string(fileData(t, b, "router.sh"))
		if !strings.Contains(router, "# vlaunch:host=rt ") || !strings.Contains(router, "on rt (10.0.0.9)") ||
			!strings.Contains(router, "--worker-urls http://10.0.0.1:8000 http://10.0.0.1:8001 http://10.0.0.2:8000 http://10.0.0.2:8001 ") {
			t.Errorf("%s: router.sh:\n%s", rt, router)
		}
		if _, ok := b.File("rt.sh"); ok {
			t.Errorf("%s: a script for the CPU-only node", rt)
		}
		if ds := routedBundleLint(t, b, "30000"); ds.HasErrors() {
			t.Errorf("%s: lint: %v", rt, ds)
		}
	}
	_, ds, err := validate.Bytes("spec.yaml", []byte(strings.Replace(cpuRouterSpec, "name: rt,", "name: spare,", 1)+"router: {node: node0}\n"))
	if err != nil || !strings.Contains(fmt.Sprint(ds), `node "spare" has 0 GPUs`) {
		t.Errorf("a GPU-less node that is not the router's: %v %v", err, ds)
	}
}

// TestRankAPIServers: behind the router each rank is a `vllm serve` of its
// own, so the spec's api_server_count is written on every rank (vLLM
// 0.11.0 runs that many API servers on the rank's port: serve.py's
// run_multi_api_server accepts an external-LB rank); unset, nothing is
// written and each rank runs one — not the per-node count (8 here)
// resolve derives for an internal-LB node.
func TestRankAPIServers(t *testing.T) {
	base := routedBase + "vllm: {version: \"0.11.0\"%s}\nrouter: {policy: round_robin}\n"
	for _, c := range []struct {
		extra, want string
	}{{"", ""}, {", api_server_count: 2", "--api-server-count 2"}} {
		b, codes, msg := routedGen(t, fmt.Sprintf(base, c.extra), "bare")
		if b == nil || len(codes) > 0 {
			t.Fatalf("%q: %v %s", c.extra, codes, msg)
		}
		for r := 0; r < 8; r++ {
			s := string(fileData(t, b, "node0-rank"+itoa(r)+".sh"))
			got := ""
			if i := strings.Index(s, "--api-server-count "); i >= 0 {
				got = strings.Fields(s[i:])[0] + " " + strings.Fields(s[i:])[1]
			}
			if got != c.want {
				t.Errorf("%q rank %d: %q, want %q", c.extra, r, got, c.want)
			}
		}
		readme := string(fileData(t, b, "README.md"))
		if (c.want != "") != strings.Contains(readme, "API-server processes on its port") {
			t.Errorf("%q: README says of the ranks' API servers:\n%s", c.extra, readme)
		}
	}
}
