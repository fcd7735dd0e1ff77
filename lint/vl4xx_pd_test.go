package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// pdSpecPath is the P/D fixture spec: prefill on node0 (192.168.2.10),
// decode on node1 (192.168.2.11), one TP-8 instance each.
const pdSpecPath = "testdata/specs/pd-two-nodes.yaml"

// serversIn parses one file (its name decides the pool by name) for the
// newest release.
func serversIn(t *testing.T, name, script string) []*server {
	t.Helper()
	invs, _, _ := launch.Parse(name, []byte(script))
	var out []*server
	for _, inv := range invs {
		if inv.Kind == launch.KindServe {
			out = append(out, newServer(inv, vllm.Newest(), true))
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s: %d servers, want 1", name, len(out))
	}
	return out
}

// TestAssignPoolsPrecedence: a server goes to the pool its file's name
// names, else the pool of its node, else the pool of its kv_role; none of
// them places it nowhere.
func TestAssignPoolsPrecedence(t *testing.T) {
	d, _ := loadSpec(t, pdSpecPath)
	kv := func(role string) string {
		return ` --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"` + role + `"}'`
	}
	cases := []struct {
		file, script, pool, by string
	}{
		// the directory wins over a prefill node and a producer role
		{"bundle/decode/x.sh", "export VLLM_HOST_IP=192.168.2.10\nvllm serve m" + kv("kv_producer"), "decode", poolByName},
		{"prefill-node1.sh", "export VLLM_HOST_IP=192.168.2.11\nvllm serve m" + kv("kv_consumer"), "prefill", poolByName},
		// the node wins over the role
		{"x.sh", "export VLLM_HOST_IP=192.168.2.10\nvllm serve m" + kv("kv_consumer"), "prefill", poolByNode},
		{"x.sh", "ssh node1 vllm serve m" + kv("kv_both"), "decode", poolByNode},
		// the role last
		{"y.sh", "vllm serve m" + kv("kv_consumer"), "decode", poolByRole},
		{"y.sh", "vllm serve m" + kv("kv_producer"), "prefill", poolByRole},
		// nothing says: no pool ("decoder" is not "decode", and a name
		// naming both pools names none)
		{"decoder.sh", "vllm serve m" + kv("kv_both"), "", ""},
		{"prefill/decode/z.sh", "vllm serve m" + kv("kv_both"), "", ""},
	}
	for _, c := range cases {
		ss := serversIn(t, c.file, c.script)
		p := &pass{Spec: d, Servers: ss}
		p.pools = assignPools(p)
		if len(p.pools) != 2 || p.pools[0].Role != "prefill" || p.pools[1].Role != "decode" ||
			p.pools[0].KVRole != "kv_producer" || p.pools[1].KVRole != "kv_consumer" {
			t.Fatalf("pools = %+v", p.pools)
		}
		pl := p.poolOf(ss[0])
		switch {
		case c.pool == "" && pl != nil:
			t.Errorf("%s: assigned to %s, want no pool", c.file, pl.Role)
		case c.pool != "" && (pl == nil || pl.Role != c.pool || byOf(pl, ss[0]) != c.by):
			t.Errorf("%s: pool %+v, want %s by %s", c.file, pl, c.pool, c.by)
		}
	}
}

// TestPoolInstancesCountReplicas: one LeaderWorkerSet with replicas: 3 is
// three instances of its pool, a bare script one; an unknown replica
// count leaves the count unknown.
func TestPoolInstancesCountReplicas(t *testing.T) {
	lws := func(replicas string) string {
		return `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: decode}
spec:
` + replicas + `  leaderWorkerTemplate:
    size: 1
    leaderTemplate:
      spec:
        containers:
          - name: vllm
            image: vllm/vllm-openai:v0.11.0
            command: ["vllm", "serve", "m", "--tensor-parallel-size", "8"]
`
	}
	for _, c := range []struct {
		replicas string
		n        int
		known    bool
	}{{"  replicas: 3\n", 3, true}, {"", 1, true}, {"  replicas: $(N)\n", 0, false}} {
		invs, _, _ := launch.Parse("lws.yaml", []byte(lws(c.replicas)))
		var ss []*server
		for _, inv := range invs {
			if inv.Kind == launch.KindServe {
				ss = append(ss, newServer(inv, vllm.Newest(), true))
			}
		}
		if len(ss) == 0 {
			t.Fatalf("%q: no server parsed", c.replicas)
		}
		n, _, known := instances(ss)
		if known != c.known || (known && n != c.n) {
			t.Errorf("replicas %q: %d instances (known %v), want %d (known %v)", c.replicas, n, known, c.n, c.known)
		}
	}
	bare := serversIn(t, "a.sh", "vllm serve m --tensor-parallel-size 8")
	if n, _, known := instances(bare); n != 1 || !known {
		t.Errorf("a bare script: %d instances (known %v), want 1", n, known)
	}
}

// TestSpecLayoutColocatedSwitch: VL405 compares a colocated spec's layout
// with UseSpecLayoutColocated (on; two-nodes.yaml: TP 1 x DP 16 with EP),
// and says nothing with it off.
func TestSpecLayoutColocatedSwitch(t *testing.T) {
	d, _ := loadSpec(t, "testdata/specs/two-nodes.yaml")
	in := []Input{{Name: "node0.sh", Data: []byte("vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 8\n")}}
	count := func() int {
		ds, err := Lint(in, Options{Spec: d})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, dg := range ds {
			if dg.Code == codes.VLSpecLayout {
				n++
				if !strings.Contains(dg.Message, "the spec has") && !strings.Contains(dg.Message, "the spec runs") {
					t.Errorf("colocated VL405 names a pool: %s", dg.Message)
				}
			}
		}
		return n
	}
	// TP 8 (spec 1), DP 1 (spec 16), no EP (spec expert-parallel).
	if n := count(); n != 3 {
		t.Errorf("VL405 on a colocated spec with the switch on: %d findings, want 3", n)
	}
	UseSpecLayoutColocated = false
	defer func() { UseSpecLayoutColocated = true }()
	if n := count(); n != 0 {
		t.Errorf("VL405 on a colocated spec with the switch off: %d findings", n)
	}
}

// TestSpecColocatedOtherBundle is qa39's case: the Llama-3.1-8B TP1 bundle
// `vlaunch generate` writes for qa/qa39/llama8b-1xh100.yaml (its node0.sh,
// the serve line as written), linted with --spec
// qa/qa39/qwen3-8b-2xrtxpro6000.yaml (Qwen3-8B, TP 2): before, only VL403
// (the address); the model (VL410) and TP (VL405) differ too.
func TestSpecColocatedOtherBundle(t *testing.T) {
	d, _ := loadSpec(t, "testdata/specs/qwen3-8b-2xrtxpro6000.yaml")
	const node0 = `exec docker run --rm --name llama8b-1xh100-box \
  --gpus all --network host \
  --ipc host \
  -e 'VLLM_HOST_IP=10.0.0.5' \
  --entrypoint vllm \
  vllm/vllm-openai:v0.22.1 \
  serve meta-llama/Llama-3.1-8B-Instruct \
  --tensor-parallel-size 1 \
  --pipeline-parallel-size 1 \
  --max-model-len 16384 \
  --port 8000 \
  --api-server-count 1
`
	ds, err := Lint([]Input{{Name: "node0.sh", Data: []byte(node0)}}, Options{Spec: d})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]int{}
	for _, dg := range ds {
		got[string(dg.Code)] = append(got[string(dg.Code)], dg.Line)
	}
	// VL410 at line 10 too: --max-model-len 16384 where the spec writes
	// 32768 (qa45c F2).
	for code, line := range map[string]int{"VL403": 4, "VL405": 8, "VL410": 7} {
		if !slices.Contains(got[code], line) {
			t.Errorf("want %s at line %d, got %v\n%s", code, line, got, ds)
		}
	}
	if !slices.Contains(got["VL410"], 10) {
		t.Errorf("want VL410 at line 10 (max-model-len), got %v", got)
	}
}
