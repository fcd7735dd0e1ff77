package lint

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// rankScript is one external-LB rank's script as generate writes it
// (generator/extlb.go): its host directive, VLLM_HOST_IP and --port.
func rankScript(host, addr string, rank, port int) string {
	return "#!/usr/bin/env bash\n# vlaunch:vllm-version=0.11.0\n# vlaunch:host=" + host + "\nexport VLLM_HOST_IP=" + addr +
		"\nexec vllm serve Qwen/Qwen3-30B-A3B --data-parallel-size 4 --data-parallel-rank " + strconv.Itoa(rank) +
		" --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345 --port " + strconv.Itoa(port) + "\n"
}

// routedBundle: four ranks on two nodes and a router.sh (head is its
// header lines: a host directive or none), with the hosts table when rows
// is set.
func routedBundle(head, routerArgs string, rows bool) []Input {
	in := []Input{
		{Name: "b/node0-rank0.sh", Data: []byte(rankScript("node0", "10.0.0.1", 0, 8000))},
		{Name: "b/node0-rank1.sh", Data: []byte(rankScript("node0", "10.0.0.1", 1, 8001))},
		{Name: "b/node1-rank2.sh", Data: []byte(rankScript("node1", "10.0.0.2", 2, 8000))},
		{Name: "b/node1-rank3.sh", Data: []byte(rankScript("node1", "10.0.0.2", 3, 8001))},
		{Name: "b/router.sh", Data: []byte("#!/usr/bin/env bash\n# vlaunch:vllm-version=0.11.0\n" + head + "set -euo pipefail\n\nexec vllm-router " + routerArgs + "\n")},
	}
	if rows {
		in = append(in, Input{Name: "b/hosts", Data: []byte("# t\n# node\taddress\tgpus\trole\tdp_ranks\tscript\n" +
			"node0\t10.0.0.1\t1:0\tdp-rank\t0-0\tnode0-rank0.sh\nnode0\t10.0.0.1\t1:1\tdp-rank\t1-1\tnode0-rank1.sh\n" +
			"node1\t10.0.0.2\t1:0\tdp-rank\t2-2\tnode1-rank2.sh\nnode1\t10.0.0.2\t1:1\tdp-rank\t3-3\tnode1-rank3.sh\n" +
			"node0\t10.0.0.1\t0\trouter\t-\trouter.sh\n")})
	}
	return in
}

const allWorkers = "--worker-urls http://10.0.0.1:8000 http://10.0.0.1:8001 http://10.0.0.2:8000 http://10.0.0.2:8001 "

// findings are the messages of code at sev or above in ds.
func findings(ds diag.Diagnostics, code diag.Code, sev diag.Severity) []string {
	var out []string
	for _, d := range ds {
		if d.Code == code && d.Severity >= sev {
			out = append(out, d.File+": "+d.Message)
		}
	}
	return out
}

func lintOrFail(t *testing.T, in []Input) diag.Diagnostics {
	t.Helper()
	ds, err := Lint(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestRouterPlacedOnItsHost: router.sh is placed on its node — by its
// `# vlaunch:host=` directive or by the bundle hosts table's router row —
// so a router --port that is a rank's --port in another file of that node
// is VL212; a port no rank of the node binds is not, and neither is the
// same port on the other node. Unplaced (no directive, no table, --host
// 0.0.0.0) it cannot be compared.
func TestRouterPlacedOnItsHost(t *testing.T) {
	cases := []struct {
		name, head, args string
		rows             bool
		want             int
	}{
		{"directive: clash with rank 1", "# vlaunch:host=node0\n", allWorkers + "--host 0.0.0.0 --port 8001", false, 1},
		{"table row: clash with rank 1", "", allWorkers + "--host 0.0.0.0 --port 8001", true, 1},
		{"metrics port on a rank's", "# vlaunch:host=node0\n", allWorkers + "--port 30000 --prometheus-port 8000", false, 1},
		{"--host is node0's address", "", allWorkers + "--host 10.0.0.1 --port 8000", false, 1},
		{"apart", "# vlaunch:host=node0\n", allWorkers + "--host 0.0.0.0 --port 30000", true, 0},
		{"other node's ports", "# vlaunch:host=node0\n", allWorkers + "--port 8002", false, 0},
		{"unplaced", "", allWorkers + "--host 0.0.0.0 --port 8001", false, 0},
	}
	for _, c := range cases {
		got := findings(lintOrFail(t, routedBundle(c.head, c.args, c.rows)), codes.VLPortConflict, diag.Error)
		if len(got) != c.want {
			t.Errorf("%s: VL212 %q, want %d", c.name, got, c.want)
		}
	}
}

// TestRouterWorkerURLs (VL234): a worker URL on a node of the bundle that
// no rank listens on is an error at the URL; a rank that no URL names is a
// warning at the rank; the router generate writes (every rank's URL) is
// clean; URLs on hosts lint cannot place are not judged.
func TestRouterWorkerURLs(t *testing.T) {
	head := "# vlaunch:host=node0\n"
	ds := lintOrFail(t, routedBundle(head, allWorkers+"--host 0.0.0.0 --port 30000", true))
	if got := findings(ds, codes.VLRouterWorkers, diag.Info); len(got) > 0 {
		t.Errorf("every rank a worker: %q", got)
	}
	ds = lintOrFail(t, routedBundle(head, "--worker-urls http://10.0.0.1:8000 http://10.0.0.1:8001 http://10.0.0.2:8000 http://10.0.0.2:8005 --port 30000", true))
	errs := findings(ds, codes.VLRouterWorkers, diag.Error)
	if len(errs) != 1 || !strings.Contains(errs[0], "b/router.sh") || !strings.Contains(errs[0], "http://10.0.0.2:8005") {
		t.Errorf("a URL on no rank's port: errors %q", errs)
	}
	warns := findings(ds, codes.VLRouterWorkers, diag.Warning)
	if len(warns) != 2 || !strings.Contains(strings.Join(warns, "\n"), "b/node1-rank3.sh") {
		t.Errorf("rank 3 named by no URL: findings %q", warns)
	}
	ds = lintOrFail(t, routedBundle(head, "--worker-urls http://worker1:8000 http://worker2:8000 --port 30000", true))
	if got := findings(ds, codes.VLRouterWorkers, diag.Info); len(got) > 0 {
		t.Errorf("hosts of no node: %q", got)
	}
}

// TestHandWrittenRouters: real public command lines of both programs
// installed as `vllm-router` are read as what they are.
//
//   - vllm-project/router's README (@03e9af5c, "Standard Data Parallelism
//     Routing"): workers by hostname, --intra-node-data-parallel-size;
//     nothing to judge.
//   - production-stack's router as sammshen/multiround-demo
//     production-stack/start_router.sh runs it (`vllm-router --port 30080
//     --service-discovery static --static-backends "http://localhost:8100"
//     ... --routing-logic roundrobin`): it binds --port alone (no 29000
//     metrics listener, which vllm-project/router's reading assumed: a
//     server on 29000 beside it was a false VL212), and its quoted
//     --static-backends are its workers (localhost: the router's host).
func TestHandWrittenRouters(t *testing.T) {
	readme := "vllm-router \\\n  --worker-urls http://worker1:8000 http://worker2:8000 \\\n    --policy consistent_hash \\\n    --intra-node-data-parallel-size 8\n"
	pstack := func(serverPort string) string {
		return "vllm serve meta-llama/Llama-3.1-70B-Instruct --port " + serverPort + " &\nvllm-router --port 30080 \\\n    --service-discovery static \\\n" +
			"    --static-backends \"http://localhost:8100\" \\\n    --static-models \"meta-llama/Llama-3.1-70B-Instruct\" \\\n" +
			"    --engine-stats-interval 10 \\\n    --log-stats \\\n    --routing-logic roundrobin\n"
	}
	cases := []struct {
		name, script   string
		ports, workers int
	}{
		{"router README", readme, 0, 0},
		{"production-stack, its backend started beside it", pstack("8100"), 0, 0},
		{"production-stack, a server on 29000", pstack("29000"), 0, 1},
		{"production-stack, a server on its --port", pstack("30080"), 1, 1},
	}
	ds := lintOrFail(t, []Input{{Name: "run.sh", Data: []byte(readme)}})
	if got := findings(ds, codes.VLNoLaunch, diag.Info); len(got) != 1 || !strings.Contains(got[0], "a vllm-router command and no vLLM server: only the router's own ports were checked") {
		t.Errorf("the README's router alone: VL008 %q", got)
	}
	for _, c := range cases {
		ds := lintOrFail(t, []Input{{Name: "run.sh", Data: []byte(c.script)}})
		if got := findings(ds, codes.VLPortConflict, diag.Error); len(got) != c.ports {
			t.Errorf("%s: VL212 %q, want %d", c.name, got, c.ports)
		}
		if got := findings(ds, codes.VLRouterWorkers, diag.Error); len(got) != c.workers {
			t.Errorf("%s: VL234 %q, want %d", c.name, got, c.workers)
		}
	}
}
