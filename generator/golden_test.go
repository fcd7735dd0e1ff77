package generator

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/spec"
)

// goldenCases: every case renders testdata/<spec>/spec.yaml with a runtime
// and compares each file with testdata/golden/<name>/<file>.golden.
var goldenCases = []struct {
	name, spec, runtime string
}{
	{"reference-bare", "reference", "bare"},
	{"reference-docker", "reference", "docker"},
	{"reference-kubernetes", "reference", "kubernetes"},
	{"single-node-ep", "single-node-ep", ""},
	{"tp-pp-nnodes", "tp-pp-nnodes", ""},
	{"tp-pp-ray", "tp-pp-ray", ""},
	{"tp-pp-ray-docker", "tp-pp-ray", "docker"},
	{"tp-pp-ray-kubernetes", "tp-pp-ray", "kubernetes"},
	{"dp-ep-0.10.1", "dp-ep-0.10.1", ""},
	{"dp-ep-0.11.1", "dp-ep-0.11.1", ""},
	{"ethernet-docker", "ethernet", ""},
	{"replicas-node-bare", "replicas-node", ""},
	{"replicas-node-kubernetes", "replicas-node", "kubernetes"},
	{"replicas-dp-docker", "replicas-dp", ""},
	{"replicas-ray", "replicas-ray", ""},
	{"replicas-nnodes-kubernetes", "replicas-nnodes", "kubernetes"},
	{"replicas-subnode-bare", "replicas-subnode", ""},
	{"replicas-subnode-docker", "replicas-subnode", "docker"},
	{"replicas-subnode-kubernetes", "replicas-subnode", "kubernetes"},
	{"pd-bare", "pd", "bare"},
	{"pd-docker", "pd", "docker"},
	{"pd-kubernetes", "pd", "kubernetes"},
	{"pd-router-kubernetes", "pd-image", ""},
	{"pd-wideep-bare", "pd-wideep", "bare"},
	{"pd-wideep-docker", "pd-wideep", "docker"},
	{"pd-wideep-kubernetes", "pd-wideep", "kubernetes"},
	{"pd-llmd-kubernetes", "pd-llmd", ""},
	{"routergen-bare", "routergen", "bare"},
	{"routergen-docker", "routergen", "docker"},
	{"routergen-kubernetes", "routergen", "kubernetes"},
}

// loadSpec reads and defaults a fixture.
func loadSpec(t *testing.T, dir string) *spec.Deployment {
	t.Helper()
	d, ds := spec.Load(filepath.Join("testdata", dir, "spec.yaml"))
	if ds.HasErrors() {
		t.Fatalf("load %s: %v", dir, ds)
	}
	spec.ApplyDefaults(d)
	return d
}

func generate(t *testing.T, specDir, runtime string) (*Bundle, diag.Diagnostics) {
	t.Helper()
	b, ds := gen(t, loadSpec(t, specDir), Options{Runtime: runtime, Summary: ""})
	if ds.HasErrors() {
		t.Fatalf("generate %s: %v", specDir, ds)
	}
	return b, ds
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			b, ds := generate(t, tc.spec, tc.runtime)
			dir := filepath.Join("testdata", "golden", tc.name)
			var diags strings.Builder
			for _, d := range ds {
				diags.WriteString(d.String() + "\n")
			}
			files := map[string][]byte{"diagnostics.golden": []byte(diags.String())}
			for _, f := range b.Files {
				files[f.Path+".golden"] = f.Data
			}
			golden.CheckDir(t, dir, files)
		})
	}
}

// fileData is the content of one bundle file; a missing file fails the test.
func fileData(t *testing.T, b *Bundle, path string) []byte {
	t.Helper()
	f, ok := b.File(path)
	if !ok {
		t.Fatalf("the bundle has no %s", path)
	}
	return f.Data
}

// TestKubeRayWorkerNamesItsAddress: the LWS Ray worker starts Ray on the
// pod's own address (VLLM_HOST_IP), as the leader and the bare and docker
// workers do, instead of letting Ray pick one that may differ from it.
func TestKubeRayWorkerNamesItsAddress(t *testing.T) {
	b, _ := generate(t, "tp-pp-ray", "kubernetes")
	for _, f := range b.Files {
		if f.Path != "lws.yaml" {
			continue
		}
		s := string(f.Data)
		i := strings.Index(s, "LWS worker: join the Ray head")
		if i < 0 {
			t.Fatalf("no Ray worker in lws.yaml:\n%s", s)
		}
		if !strings.Contains(s[i:], `--node-ip-address \"$VLLM_HOST_IP\"`) {
			t.Errorf("the Ray worker lets Ray pick its address:\n%s", s[i:])
		}
		return
	}
	t.Fatal("no lws.yaml")
}
