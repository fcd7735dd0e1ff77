package generator

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
	"gopkg.in/yaml.v3"
)

// mnnvlBundle generates the NVL72 fixture (the example pinned), its text
// edited by edit, through validate as `vlaunch generate` does.
func mnnvlBundle(t *testing.T, runtime string, edit func(string) string) *Bundle {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "mnnvl", "spec.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	if edit != nil {
		if text = edit(text); text == string(data) {
			t.Fatal("the edit changed nothing")
		}
	}
	r, ds, err := validate.Bytes("spec.yaml", []byte(text))
	if err != nil || ds.HasErrors() {
		t.Fatalf("validate: %v %v", err, ds)
	}
	b, ds := Generate(r, Options{Runtime: runtime})
	if ds.HasErrors() {
		t.Fatalf("generate: %v", ds)
	}
	return b
}

// exports are a script's `export NAME=VALUE` lines, by name (repeats kept).
func exports(script []byte) map[string][]string {
	out := map[string][]string{}
	for _, l := range strings.Split(string(script), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "export "); ok {
			name, value, _ := strings.Cut(rest, "=")
			out[name] = append(out[name], strings.Trim(value, `"'`))
		}
	}
	return out
}

// An engine across the trays of an NVLink domain gets NCCL's cuMem and
// MNNVL switches and DeepEP low-latency's MNNVL switch; without the domain
// it gets none; the spec's own value wins and is exported once; a release
// before the DeepEP switch gets only NCCL's.
func TestMNNVLEnv(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(string) string
		want map[string]string // "" = absent
	}{
		{"domain", nil, map[string]string{"NCCL_CUMEM_ENABLE": "1", "NCCL_MNNVL_ENABLE": "1", "VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL": "1"}},
		{"no domain", func(s string) string { return strings.Replace(s, "nvlink_domain: {}", "", 1) },
			map[string]string{"NCCL_CUMEM_ENABLE": "", "NCCL_MNNVL_ENABLE": "", "VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL": ""}},
		{"spec's own value", func(s string) string {
			return strings.Replace(s, "vllm:\n", "vllm:\n  env: {NCCL_MNNVL_ENABLE: \"2\"}\n", 1)
		}, map[string]string{"NCCL_CUMEM_ENABLE": "1", "NCCL_MNNVL_ENABLE": "2"}},
		{"allgather_reducescatter", func(s string) string {
			return strings.Replace(s, "all2all_backend: deepep_low_latency", "all2all_backend: allgather_reducescatter", 1)
		}, map[string]string{"NCCL_MNNVL_ENABLE": "1", "VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL": ""}},
		{"0.11.0 (before the DeepEP switch)", func(s string) string { return strings.Replace(s, `version: "0.22.1"`, `version: "0.11.0"`, 1) },
			map[string]string{"NCCL_CUMEM_ENABLE": "1", "VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := mnnvlBundle(t, "bare", tc.edit)
			got := exports(fileData(t, b, "node3.sh"))
			for name, want := range tc.want {
				switch v := got[name]; {
				case want == "" && len(v) > 0:
					t.Errorf("%s exported (%v), want none", name, v)
				case want != "" && (len(v) != 1 || v[0] != want):
					t.Errorf("%s = %v, want exactly one %q", name, v, want)
				}
			}
		})
	}
}

// On Kubernetes the LeaderWorkerSet comes with a ComputeDomain whose
// ResourceClaimTemplate every pod claims an IMEX channel from; every
// document passes its vendored schema (the ComputeDomain's is the DRA
// driver's CRD), and the schema catches a misspelt field.
func TestMNNVLComputeDomain(t *testing.T) {
	b := mnnvlBundle(t, "kubernetes", nil)
	manifest := fileData(t, b, "lws.yaml")
	checkKubeSchema(t, "lws.yaml", manifest)
	docs := map[string]map[string]any{}
	dec := yaml.NewDecoder(bytes.NewReader(manifest))
	for {
		var doc map[string]any
		if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		docs[doc["kind"].(string)] = doc
	}
	cd := docs["ComputeDomain"]
	if cd == nil {
		t.Fatal("no ComputeDomain in lws.yaml")
	}
	spec := cd["spec"].(map[string]any)
	tpl := spec["channel"].(map[string]any)["resourceClaimTemplate"].(map[string]any)["name"]
	if n := spec["numNodes"]; n != 8 {
		t.Errorf("numNodes %v, want the 8 pods", n)
	}
	lt := docs["LeaderWorkerSet"]["spec"].(map[string]any)["leaderWorkerTemplate"].(map[string]any)
	for _, role := range []string{"leaderTemplate", "workerTemplate"} {
		pod := lt[role].(map[string]any)["spec"].(map[string]any)
		claims, _ := pod["resourceClaims"].([]any)
		if len(claims) != 1 || claims[0].(map[string]any)["resourceClaimTemplateName"] != tpl {
			t.Errorf("%s: resourceClaims %v, want one from %v", role, claims, tpl)
			continue
		}
		name := claims[0].(map[string]any)["name"]
		ctr := pod["containers"].([]any)[0].(map[string]any)
		cc, _ := ctr["resources"].(map[string]any)["claims"].([]any)
		if len(cc) != 1 || cc[0].(map[string]any)["name"] != name {
			t.Errorf("%s: container claims %v, want %v", role, cc, name)
		}
	}
	bad := strings.Replace(string(manifest), "    resourceClaimTemplate:", "    resourceClaimTemplates:", 1)
	if errs := schemaErrors(t, []byte(bad)); !strings.Contains(errs, "resourceClaimTemplate") {
		t.Errorf("a misspelt ComputeDomain field passed the schema: %q", errs)
	}
	plain := mnnvlBundle(t, "kubernetes", func(s string) string { return strings.Replace(s, "nvlink_domain: {}", "", 1) })
	if m := string(fileData(t, plain, "lws.yaml")); strings.Contains(m, "ComputeDomain") || strings.Contains(m, "resourceClaims") {
		t.Error("a deployment without an NVLink domain got a ComputeDomain")
	}
}

// The docker bundle asks the NVIDIA container runtime for IMEX channel 0;
// bare metal (the host's own channel) and Kubernetes (the DRA driver's
// claim) do not.
func TestMNNVLDockerIMEXChannel(t *testing.T) {
	for rt, want := range map[string]bool{"docker": true, "bare": false} {
		script := string(fileData(t, mnnvlBundle(t, rt, nil), "node1.sh"))
		if got := strings.Contains(script, "NVIDIA_IMEX_CHANNELS=0"); got != want {
			t.Errorf("%s: NVIDIA_IMEX_CHANNELS=0 written %v, want %v", rt, got, want)
		}
	}
	if m := string(fileData(t, mnnvlBundle(t, "kubernetes", nil), "lws.yaml")); strings.Contains(m, "NVIDIA_IMEX_CHANNELS") {
		t.Error("kubernetes: NVIDIA_IMEX_CHANNELS written; the ComputeDomain claim gives the channel")
	}
}

// The NVL72 example's bare and docker scripts pass bash -n and shellcheck,
// as every bundle's must.
func TestMNNVLScriptsPassShellcheck(t *testing.T) {
	scripts := map[string][]byte{}
	for _, rt := range []string{"bare", "docker"} {
		for _, f := range mnnvlBundle(t, rt, nil).Files {
			if strings.HasSuffix(f.Path, ".sh") {
				scripts[rt+"-"+strings.ReplaceAll(f.Path, "/", "-")] = f.Data
			}
		}
	}
	checkShell(t, scripts)
}
