package generator

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// matrixScenario is one deployment shape of the release matrix.
type matrixScenario struct {
	name string
	// spec is a YAML spec with %[1]s for the release, %[2]s for the
	// all-to-all backend and %[3]s for the runtime.
	spec string
}

const matrixDPEP = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: m-dpep}
model: {name: deepseek-v3, weights: fp8, path: deepseek-ai/DeepSeek-V3-0324}
hardware:
  gpu: h200
  nodes:
    - {name: a, address: 10.10.0.1, gpus: 8, interface: ib0, rdma_devices: [mlx5_0, mlx5_1]}
    - {name: b, address: 10.10.0.2, gpus: 8, interface: ib0, rdma_devices: [mlx5_0, mlx5_1]}
  network:
    inter_node: {kind: infiniband, bandwidth_gbit_per_s: 400, nics_per_node: 8}
workload: {concurrency: 256, max_model_len: 8192, input_tokens: 1000, output_tokens: 1000}
parallelism: {tensor: 1, pipeline: 1, data: 16, expert: true}
vllm: {version: "%[1]s", all2all_backend: %[2]s, api_server_count: 4}
runtime: {kind: %[3]s, image: "registry.example.com/vllm-ep:v%[1]s"}
`

const matrixTPPP = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: m-tppp}
model: {name: llama-3.1-405b, weights: fp8, path: /models/Llama-3.1-405B}
hardware:
  gpu: h100-sxm
  nodes:
    - {name: a, address: 10.1.0.1, gpus: 8, interface: ib0, rdma_devices: [mlx5_0]}
    - {name: b, address: 10.1.0.2, gpus: 8, interface: ib0, rdma_devices: [mlx5_0]}
  network:
    inter_node: {kind: infiniband, bandwidth_gbit_per_s: 400, nics_per_node: 8}
workload: {concurrency: 16, max_model_len: 8192}
parallelism: {tensor: 8, pipeline: 2, data: 1, expert: false}
vllm: {version: "%[1]s", all2all_backend: %[2]s}
runtime: {kind: %[3]s, kubernetes: {model_host_path: /models/Llama-3.1-405B}}
`

const matrixTP = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: m-tp}
model: {name: qwen3-30b-a3b, path: Qwen/Qwen3-30B-A3B}
hardware:
  gpu: h100-sxm
  nodes:
    - {name: a, address: 10.0.0.5, gpus: 8}
workload: {concurrency: 32, max_model_len: 8192}
parallelism: {tensor: 8, pipeline: 1, data: 1, expert: true}
vllm: {version: "%[1]s", all2all_backend: %[2]s}
runtime: {kind: %[3]s}
`

// matrixCase is one generated (or refused) bundle of the matrix.
type matrixCase struct {
	release  vllm.Release
	scenario string
	backend  string
	runtime  string
	bundle   *Bundle
	diags    diag.Diagnostics
	resolved *resolve.Deployment // nil when validate refused the spec
}

// matrixCache holds the matrix once per test binary: TestReleaseMatrix and
// TestMatrixScriptsParse read the same bundles.
var matrixCache struct {
	once  sync.Once
	cases []matrixCase
}

// matrixCases generates every release × runtime × scenario, and the DP+EP
// scenario once per backend the release has.
func matrixCases(t *testing.T) []matrixCase {
	t.Helper()
	matrixCache.once.Do(func() { matrixCache.cases = buildMatrix() })
	return matrixCache.cases
}

func buildMatrix() []matrixCase {
	var out []matrixCase
	for _, r := range vllm.Releases() {
		v := r.Version.String()
		type job struct{ scenario, tmpl, backend string }
		jobs := []job{{"dp-ep", matrixDPEP, "auto"}, {"tp-pp", matrixTPPP, "auto"}, {"tp", matrixTP, "auto"}}
		for _, b := range r.All2AllBackends() {
			jobs = append(jobs, job{"dp-ep", matrixDPEP, b})
		}
		for _, j := range jobs {
			for _, rt := range Runtimes {
				data := fmt.Sprintf(j.tmpl, v, j.backend, rt)
				res, ds, err := validate.Bytes(filepath.Join("matrix", j.scenario+".yaml"), []byte(data))
				c := matrixCase{release: r, scenario: j.scenario, backend: j.backend, runtime: rt, diags: ds}
				if err == nil && !ds.HasErrors() {
					c.resolved = res
					b, gds := Generate(res, Options{})
					c.bundle, c.diags = b, append(ds, gds...)
				}
				out = append(out, c)
			}
		}
	}
	return out
}

func (c matrixCase) String() string {
	return fmt.Sprintf("%s/%s/%s/%s", c.release.Version, c.scenario, c.backend, c.runtime)
}

// TestReleaseMatrix generates every release in vllm/ × runtime × scenario
// (DP+EP across nodes, TP×PP across nodes, TP within a node, and DP+EP
// once per all-to-all backend) and checks what the bundles say against
// the release data: every flag exists in the release (and its value is
// one of its choices), every vLLM variable exists in the release, the
// backend is one the release has and is selected by its mechanism; every
// Kubernetes manifest passes the vendored LWS and core schemas, resolves
// the leader to an IP and mounts a local model; every bundle lints clean
// and every script passes bash -n (and shellcheck, in TestMatrixShellcheck).
// A refusal must be a GEN011 naming what the release lacks.
func TestReleaseMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the release matrix is long")
	}
	generated, refused := 0, 0
	for _, c := range matrixCases(t) {
		if c.bundle == nil {
			refused++
			checkRefusal(t, c)
			continue
		}
		generated++
		for _, l := range bundleLaunches(t, c) {
			checkLaunch(t, c, l)
		}
		if c.runtime == "kubernetes" {
			checkKubeBundle(t, c)
		}
		if got := lintBundle(t, c.bundle.Plan.Spec, c.bundle); got.HasErrors() {
			t.Errorf("%s: lint reports errors: %v", c, got)
		}
	}
	t.Logf("%d bundles generated and checked, %d refused (the release lacks the layout's flags)", generated, refused)
	if generated == 0 {
		t.Fatal("nothing generated")
	}
}

// checkRefusal: only a release that cannot express the layout may refuse.
func checkRefusal(t *testing.T, c matrixCase) {
	t.Helper()
	errs := 0
	for _, d := range c.diags {
		if d.Severity != diag.Error {
			continue
		}
		errs++
		if d.Code != CodeUnsupported {
			t.Errorf("%s: refused with %s: %s", c, d.Code, d.Message)
		}
	}
	if errs == 0 {
		t.Errorf("%s: no bundle and no error", c)
	}
	if _, ok := c.release.Flag("data-parallel-size"); ok && c.release.Version.AtLeast(vllm.Version{Minor: 9}) {
		t.Errorf("%s: a release with DP and EP flags refused: %v", c, c.diags)
	}
}

// bundleLaunches reads every launch in the bundle: scripts, and on
// Kubernetes each container's env and kubelet-expanded bash body.
func bundleLaunches(t *testing.T, c matrixCase) []launch {
	t.Helper()
	var out []launch
	for _, f := range c.bundle.Files {
		if strings.HasSuffix(f.Path, ".sh") {
			out = append(out, scriptLaunch(t, c.String()+"/"+f.Path, string(f.Data)))
		}
	}
	if c.runtime != "kubernetes" {
		return out
	}
	for i, k := range kubeContainers(t, fileData(t, c.bundle, "lws.yaml")) {
		l := scriptLaunch(t, fmt.Sprintf("%s/lws.yaml[%d]", c, i), kubeletExpand(k.Command[2], nil))
		for _, e := range k.Env {
			v := ""
			if e.Value != nil {
				v = kubeletExpand(*e.Value, nil)
			}
			l.env[e.Name] = v
		}
		out = append(out, l)
	}
	return out
}

// checkLaunch holds one launch against the release data.
func checkLaunch(t *testing.T, c matrixCase, l launch) {
	t.Helper()
	r := c.release
	for name, v := range l.env {
		e, known := vllm.KnownEnvEver(name)
		switch {
		case !known && name != "HF_TOKEN" && name != "VLLM_API_KEY":
			t.Errorf("%s: sets %s, which vllm/ does not know", c, name)
		case known && e.Owner == "vllm":
			if _, ok := r.Env(name); !ok {
				t.Errorf("%s: sets %s, which vLLM %s does not have", c, name, r.Version)
			}
		}
		if name == "VLLM_ALL2ALL_BACKEND" {
			checkBackend(t, c, v, vllm.ViaEnv)
		}
	}
	if len(l.serve) == 0 && c.bundle.Plan.Layout != LayoutRay {
		t.Errorf("%s: a launch without vllm serve", c)
	}
	for _, args := range l.serve {
		for name, v := range flagsOf(args) {
			f, ok := r.Flag(name)
			if !ok {
				t.Errorf("%s: vLLM %s has no %s", c, r.Version, name)
				continue
			}
			if v != "" && !strings.HasPrefix(v, "$") && len(f.Choices) > 0 && !f.HasChoice(v) {
				t.Errorf("%s: %s %s is not one of %v", c, name, v, f.Choices)
			}
			if name == "--all2all-backend" {
				checkBackend(t, c, v, vllm.ViaFlag)
			}
		}
		if p := c.bundle.Plan; p.Via == vllm.ViaFlag.String() && flagsOf(args)["--all2all-backend"] != p.All2AllWritten {
			t.Errorf("%s: the backend %s is not selected on this node", c, p.All2AllWritten)
		}
	}
}

// checkBackend: the backend exists in the release, is selected by the
// release's mechanism and is the one the plan chose.
func checkBackend(t *testing.T, c matrixCase, name string, via vllm.Mechanism) {
	t.Helper()
	if _, ok := c.release.All2AllBackend(name); !ok {
		t.Errorf("%s: vLLM %s has no all-to-all backend %s", c, c.release.Version, name)
	}
	if via != c.release.All2AllVia() {
		t.Errorf("%s: backend selected by %s, vLLM %s uses %s", c, via, c.release.Version, c.release.All2AllVia())
	}
	if name != c.bundle.Plan.All2AllWritten {
		t.Errorf("%s: backend %s written, plan says %s", c, name, c.bundle.Plan.All2AllWritten)
	}
}

// checkKubeBundle: schema, leader address, model volume.
func checkKubeBundle(t *testing.T, c matrixCase) {
	t.Helper()
	manifest := fileData(t, c.bundle, "lws.yaml")
	checkKubeSchema(t, c.String(), manifest)
	p := c.bundle.Plan
	ks := kubeContainers(t, manifest)
	leader, worker := kubeletExpand(ks[0].Command[2], nil), kubeletExpand(ks[1].Command[2], nil)
	for _, body := range []string{leader, worker} {
		for _, l := range scriptLaunch(t, c.String(), body).serve {
			for _, a := range l {
				if strings.Contains(a, "LWS_LEADER_ADDRESS") {
					t.Errorf("%s: vllm gets the leader's DNS name: %q", c, a)
				}
			}
		}
	}
	if p.Layout != LayoutSingle && !strings.Contains(worker, `getent ahostsv4 "$LWS_LEADER_ADDRESS"`) {
		t.Errorf("%s: the worker does not resolve the leader:\n%s", c, worker)
	}
	if validate.LocalModel(p.Model) && !strings.Contains(string(manifest), "mountPath: "+yq(p.Model)) {
		t.Errorf("%s: the local model %s is not mounted", c, p.Model)
	}
}

// matrixScripts are the distinct shell scripts of the matrix (node scripts
// and LWS bash bodies), keyed by a name; comment lines are dropped before
// comparing, since they cannot change how bash or shellcheck read a script.
func matrixScripts(t *testing.T) map[string][]byte {
	t.Helper()
	seen := map[string]bool{}
	out := map[string][]byte{}
	add := func(name, script string) {
		var kept []string
		for _, line := range strings.Split(script, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(line), "#") || strings.HasPrefix(line, "#!") || strings.Contains(line, "shellcheck") {
				kept = append(kept, line)
			}
		}
		key := strings.Join(kept, "\n")
		if !seen[key] {
			seen[key] = true
			out[strings.NewReplacer("/", "_").Replace(name)] = []byte(script)
		}
	}
	for _, c := range matrixCases(t) {
		if c.bundle == nil {
			continue
		}
		for _, f := range c.bundle.Files {
			if strings.HasSuffix(f.Path, ".sh") {
				add(c.String()+"-"+f.Path, string(f.Data))
			}
		}
		if c.runtime == "kubernetes" {
			for i, k := range kubeContainers(t, fileData(t, c.bundle, "lws.yaml")) {
				add(fmt.Sprintf("%s-lws%d.sh", c, i), "#!/usr/bin/env bash\n"+kubeletExpand(k.Command[2], nil))
			}
		}
	}
	return out
}

// TestMatrixScriptsParse runs bash -n and shellcheck over every distinct
// script of the release matrix.
func TestMatrixScriptsParse(t *testing.T) {
	if testing.Short() {
		t.Skip("the release matrix is long")
	}
	scripts := matrixScripts(t)
	t.Logf("%d distinct scripts", len(scripts))
	checkShell(t, scripts)
}
