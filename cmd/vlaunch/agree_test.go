package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/report"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
	"gopkg.in/yaml.v3"
)

// variant edits an example into another deployment the commands must agree on.
type variant struct {
	name string
	edit func(d *spec.Deployment)
}

// agreementVariants cover what used to make check and generate disagree:
// the backend variable in vllm.env (with `auto` and with an explicit
// backend), custom GPU figures and PCIe links, `parallelism: auto`, and
// releases on both sides of --all2all-backend (0.11.1) and of the
// variable's removal (0.16.0), independent replicas (one per node), and
// every engine setting left to its default (#27).
var agreementVariants = []variant{
	{"as written", func(d *spec.Deployment) {}},
	{"engine settings unset", unsetEngine},
	{"parallelism auto", func(d *spec.Deployment) { d.Parallelism = spec.Parallelism{Auto: true} }},
	{"env naive, backend auto", func(d *spec.Deployment) { setEnv(d, vllm.All2AllEnv, "naive"); d.VLLM.All2AllBackend = "auto" }},
	{"env naive, backend explicit", func(d *spec.Deployment) {
		setEnv(d, vllm.All2AllEnv, "naive")
		d.VLLM.All2AllBackend = vllm.BackendAllgatherReducescatter
	}},
	{"0.11.1, env naive", func(d *spec.Deployment) { setVersion(d, "0.11.1"); setEnv(d, vllm.All2AllEnv, "naive") }},
	{"0.10.1", func(d *spec.Deployment) { setVersion(d, "0.10.1") }},
	{"0.16.0, env naive", func(d *spec.Deployment) { setVersion(d, "0.16.0"); setEnv(d, vllm.All2AllEnv, "naive") }},
	{"custom GPU over PCIe", func(d *spec.Deployment) {
		d.Hardware.GPU = spec.GPURef{Custom: &spec.GPUFigures{Name: "PCIe part", MemoryMiB: 97285, HBMBandwidthGBytesPerS: 4000,
			BF16TFLOPS: 148, FP8TFLOPS: 296, IntraNodeGBytesPerS: 64}}
		d.Hardware.Network.IntraNode = spec.IntraNode{Kind: "pcie"}
	}},
	{"catalog GPU over PCIe", func(d *spec.Deployment) {
		d.Hardware.Network.IntraNode = spec.IntraNode{Kind: "pcie", BandwidthGBytesPerS: 64}
	}},
	{"a replica per node", replicaPerNode},
	{"decode context parallel", decodeContextParallel},
}

// decodeContextParallel splits the TP group's KV cache over all its GPUs
// (vllm.decode_context_parallel_size = tensor): validate takes it for the
// MLA examples and refuses it for GQA ones whose KV heads TP does not
// replicate (SPEC135), which are then skipped.
func decodeContextParallel(d *spec.Deployment) {
	if tp := d.Parallelism.Tensor; tp > 1 && !d.Parallelism.Auto {
		d.VLLM.DecodeContextParallelSize = &tp
	}
}

// replicaPerNode makes every node an independent replica of the example's
// engine shape, with DP filling the node (an engine larger than a node is
// left as written).
func replicaPerNode(d *spec.Deployment) {
	p, nodes := &d.Parallelism, d.Hardware.Nodes
	if p.Auto || len(nodes) < 2 || p.Tensor*p.Pipeline > nodes[0].GPUs {
		return
	}
	p.Data, p.Replicas = nodes[0].GPUs/(p.Tensor*p.Pipeline), len(nodes)
}

func setEnv(d *spec.Deployment, k, v string) {
	if d.VLLM.Env == nil {
		d.VLLM.Env = map[string]string{}
	}
	d.VLLM.Env[k] = v
}

func setVersion(d *spec.Deployment, v string) {
	d.VLLM.Version, d.Runtime.Image = v, "vllm/vllm-openai:v"+v
}

// TestCheckAndGenerateAgree runs `vlaunch check` and `vlaunch generate`
// over every example and every variant and asserts they describe one
// deployment: the layout check reports is the one the scripts start, every
// engine setting check uses is the one the scripts write or leave to vLLM
// (assertSettingsAgree: the all-to-all backend vLLM selects from the
// scripts' flag and variables, the API-server count, ...), and the bundle
// README carries check's own memory and SLO figures (same deployment, same
// simulation seed). Both commands run in
// full; generate reuses check's estimate only when its input is equal to
// the one check estimated (sharedEstimates), and the cases run in
// parallel.
func TestCheckAndGenerateAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the layout search several times")
	}
	memo := shareEstimates(t)
	examples, _ := filepath.Glob("../../examples/*.yaml")
	var agreed atomic.Int64
	t.Run("cases", func(t *testing.T) {
		for _, ex := range examples {
			for _, v := range agreementVariants {
				t.Run(filepath.Base(ex)+"/"+v.name, func(t *testing.T) {
					t.Parallel()
					path, rel, ok := writeVariant(t, ex, v)
					if !ok {
						return
					}
					rep := checkJSON(t, path)
					bundle := generateBundle(t, path)
					assertAgree(t, rep, bundle)
					assertSettingsAgree(t, rep, bundle, rel)
					assertSimulated(t, rep, memo.inputOf(t, path))
					if v.name == "engine settings unset" {
						assertUnset(t, rep)
					}
					agreed.Add(1)
				})
			}
		}
	})
	colocated := len(examples) - len(pdExamples(t))
	if want := colocated * len(agreementVariants) * 2 / 3; int(agreed.Load()) < want {
		t.Errorf("only %d of %d cases ran (validate refused the rest); the matrix lost its coverage", agreed.Load(), colocated*len(agreementVariants))
	}
}

// pdExamples are the examples with a disaggregation: block (the matrix
// above varies one engine's settings; TestPDCheckAndGenerateAgree takes
// these).
func pdExamples(t *testing.T) []string {
	t.Helper()
	examples, _ := filepath.Glob("../../examples/*.yaml")
	var out []string
	for _, ex := range examples {
		d, ds := spec.Load(ex)
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		if d.Disaggregation != nil {
			out = append(out, ex)
		}
	}
	return out
}

// TestPDCheckAndGenerateAgree: a disaggregated bundle's README carries
// `vlaunch check`'s own verdicts of the two pools (same deployment, same
// simulation seed), as a colocated bundle's does.
func TestPDCheckAndGenerateAgree(t *testing.T) {
	pds := pdExamples(t)
	if len(pds) == 0 {
		t.Fatal("no disaggregated example")
	}
	for _, ex := range pds {
		t.Run(filepath.Base(ex), func(t *testing.T) {
			rep := checkJSON(t, ex)
			readme := generateBundle(t, ex)["README.md"]
			if len(rep.SLO) == 0 {
				t.Fatal("check gave no SLO verdicts")
			}
			if summary := report.SummaryMarkdown(rep); !strings.Contains(readme, summary) {
				t.Errorf("the README's feasibility section is not check's:\n--- check ---\n%s\n--- README ---\n%s", summary, readme)
			}
		})
	}
}

// sharedEstimates remembers every estimate the commands make during the
// test, with its input: the simulation dominates the test's time, and
// check and generate of one case estimate the same deployment. An estimate
// is reused only for an input deeply equal to the remembered one
// (unexported fields included) with the same options, so a command that
// worked out a different deployment is estimated afresh and disagrees as
// it would without the memo.
type sharedEstimates struct {
	mu      sync.Mutex
	entries []sharedEstimate
	next    func(*estimate.Input, estimate.PerfOptions, *estimate.PerfConfirmation) estimate.Report
	reused  int
}

type sharedEstimate struct {
	file string // the spec the input came from: entries of other specs are not compared
	in   estimate.Input
	opt  estimate.PerfOptions
	rep  estimate.Report
}

// inputSpec is the spec file an input was resolved from ("" in the quick form).
func inputSpec(in *estimate.Input) string {
	if r := in.Resolved(); r != nil && r.Spec != nil {
		return r.Spec.File
	}
	return ""
}

// everything compares unexported fields too (the input's resolved
// deployment).
var everything = cmp.Exporter(func(reflect.Type) bool { return true })

func (m *sharedEstimates) estimate(in *estimate.Input, opt estimate.PerfOptions, confirmed *estimate.PerfConfirmation) estimate.Report {
	file := inputSpec(in)
	m.mu.Lock()
	var same []sharedEstimate
	for _, e := range m.entries {
		if e.file == file && e.opt == opt {
			same = append(same, e)
		}
	}
	m.mu.Unlock()
	for _, e := range same {
		if cmp.Equal(e.in, *in, everything) {
			m.mu.Lock()
			m.reused++
			m.mu.Unlock()
			return e.copy()
		}
	}
	rep := m.next(in, opt, confirmed)
	e := sharedEstimate{file: file, in: *in, opt: opt, rep: rep}
	m.mu.Lock()
	m.entries = append(m.entries, e)
	m.mu.Unlock()
	return e.copy()
}

// copy is the remembered report with findings of its own: commands place
// them in their spec (Locate) and add their own.
func (e sharedEstimate) copy() estimate.Report {
	r := e.rep
	r.Findings = slices.Clone(r.Findings)
	return r
}

// shareEstimates installs sharedEstimates as check's and generate's
// estimator for the test and logs how much it saved.
func shareEstimates(t *testing.T) *sharedEstimates {
	m := &sharedEstimates{next: checkEstimate}
	checkEstimate = m.estimate
	t.Cleanup(func() {
		checkEstimate = m.next
		t.Logf("%d estimates made, %d shared between check and generate", len(m.entries), m.reused)
	})
	return m
}

// inputOf is the input the commands estimated for the spec at path (check
// and generate estimate equal inputs: the README test holds them to it).
func (m *sharedEstimates) inputOf(t *testing.T, path string) *estimate.Input {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.entries) - 1; i >= 0; i-- {
		if e := m.entries[i]; e.file == path {
			return &e.in
		}
	}
	t.Fatalf("no estimate of %s", path)
	return nil
}

// writeVariant writes the edited example into a temporary directory; ok is
// false when validate refuses the variant (e.g. a backend the release lacks).
func writeVariant(t *testing.T, example string, v variant) (string, vllm.Release, bool) {
	t.Helper()
	d, ds := spec.Load(example)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if d.Disaggregation != nil {
		// One engine's settings do not vary a disaggregated deployment:
		// TestPDCheckAndGenerateAgree takes it.
		return "", vllm.Release{}, false
	}
	v.edit(d)
	data, err := marshalSpec(d)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	if code := run([]string{"validate", path}, nil, &out, &errw); code != 0 {
		t.Logf("validate refuses this variant (exit %d): %s", code, out.String())
		return "", vllm.Release{}, false
	}
	rel, _, err := vllm.ResolveString(d.VLLM.Version)
	if err != nil {
		t.Fatal(err)
	}
	return path, rel, true
}

// marshalSpec writes d as YAML without the workload's zero counts: those
// fields are written even when zero, and a spec says "unset" (a burst
// without concurrency, max_model_len left to the model) by leaving them
// out.
func marshalSpec(d *spec.Deployment) ([]byte, error) {
	var doc yaml.Node
	if err := doc.Encode(d); err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		if doc.Content[i].Value != "workload" {
			continue
		}
		w := doc.Content[i+1]
		var kept []*yaml.Node
		for j := 0; j+1 < len(w.Content); j += 2 {
			if w.Content[j+1].Kind != yaml.ScalarNode || w.Content[j+1].Value != "0" {
				kept = append(kept, w.Content[j], w.Content[j+1])
			}
		}
		w.Content = kept
	}
	return yaml.Marshal(&doc)
}

func checkJSON(t *testing.T, path string) *estimate.Report {
	t.Helper()
	var out, errw bytes.Buffer
	if code := run([]string{"check", "-o", "json", path}, nil, &out, &errw); code == 2 {
		t.Fatalf("check: exit 2: %s", errw.String())
	}
	// Severities are written as names; read findings apart.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &raw); err != nil {
		t.Fatalf("check -o json: %v\n%s", err, out.String())
	}
	var findings []struct{ Code, Severity, Message string }
	_ = json.Unmarshal(raw["findings"], &findings)
	delete(raw, "findings")
	rest, _ := json.Marshal(raw)
	var rep estimate.Report
	if err := json.Unmarshal(rest, &rep); err != nil {
		t.Fatalf("check -o json: %v", err)
	}
	for _, f := range findings {
		sev, err := diag.ParseSeverity(f.Severity)
		if err != nil {
			t.Fatal(err)
		}
		rep.Findings = append(rep.Findings, diag.Diagnostic{Code: diag.Code(f.Code), Severity: sev, Message: f.Message})
	}
	return &rep
}

// generateBundle generates the bare-metal bundle and returns its files.
func generateBundle(t *testing.T, path string) map[string]string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	var out, errw bytes.Buffer
	if code := run([]string{"generate", path, "--out-dir", dir, "--runtime", bundleRuntime(t, path)}, nil, &out, &errw); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errw.String())
	}
	files := map[string]string{}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			continue // a P/D bundle's pools: the top-level README is what is compared
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = string(data)
	}
	return files
}

// bundleRuntime is the runtime generateBundle writes path's bundle for:
// bare, but Kubernetes for a spec behind llm-d's router, which runs there
// only (GEN009).
func bundleRuntime(t *testing.T, path string) string {
	t.Helper()
	d, ds := spec.Load(path)
	if ds.HasErrors() {
		t.Fatalf("%s: %v", path, ds)
	}
	if d.Disaggregation != nil && d.Disaggregation.Router.Kind == spec.RouterKindLLMD {
		return "kubernetes"
	}
	return "bare"
}

// replicasIn counts the independent replicas a bundle starts: the distinct
// `# vlaunch:replica=N` of its scripts (1 when they carry none).
func replicasIn(files map[string]string) int {
	seen := map[string]bool{}
	for name, f := range files {
		if strings.HasSuffix(name, ".sh") {
			for _, m := range replicaRE.FindAllStringSubmatch(f, -1) {
				seen[m[1]] = true
			}
		}
	}
	return max(1, len(seen))
}

var (
	replicaRE = regexp.MustCompile(`(?m)^# vlaunch:replica=(\S+)`)
	flagRE    = regexp.MustCompile(`--(tensor-parallel-size|pipeline-parallel-size|data-parallel-size|all2all-backend) (\S+)`)
)

func assertAgree(t *testing.T, rep *estimate.Report, files map[string]string) {
	t.Helper()
	in := rep.Input
	script := files["node0.sh"]
	flags := map[string]string{"tensor-parallel-size": "1", "pipeline-parallel-size": "1", "data-parallel-size": "1"}
	for _, m := range flagRE.FindAllStringSubmatch(script, -1) {
		flags[m[1]] = strings.Trim(m[2], "'")
	}
	got := [4]string{flags["tensor-parallel-size"], flags["pipeline-parallel-size"], flags["data-parallel-size"], ""}
	if strings.Contains(script, "--enable-expert-parallel") {
		got[3] = "ep"
	}
	want := [4]string{strconv.Itoa(in.TP), strconv.Itoa(in.PP), strconv.Itoa(in.DP), ""}
	if in.EP {
		want[3] = "ep"
	}
	if got != want {
		t.Errorf("layout: check reports TP/PP/DP/EP %v, node0.sh starts %v", want, got)
	}
	if got, want := replicasIn(files), max(1, in.Replicas); got != want {
		t.Errorf("replicas: check predicts %d independent replicas, the bundle starts %d", want, got)
	}
	if summary := report.SummaryMarkdown(rep); !strings.Contains(files["README.md"], summary) {
		t.Errorf("the README's feasibility section is not check's:\n--- check ---\n%s\n--- README ---\n%s", summary, files["README.md"])
	}
}

// TestSharedEstimatesOnlyForEqualInputs: the memo of the agreement test
// hands back an estimate only for an equal input with equal options; any
// difference (a setting, the seed) is estimated afresh, so the memo
// cannot hide a disagreement between the commands.
func TestSharedEstimatesOnlyForEqualInputs(t *testing.T) {
	calls := 0
	m := &sharedEstimates{next: func(in *estimate.Input, _ estimate.PerfOptions, _ *estimate.PerfConfirmation) estimate.Report {
		calls++
		return estimate.Report{Findings: diag.Diagnostics{{Message: "x"}}}
	}}
	r, _, err := validate.File("../../examples/llama-3.1-70b-8xa100.yaml")
	if err != nil {
		t.Fatal(err)
	}
	a, b := estimate.FromResolved(r), estimate.FromResolved(r)
	m.estimate(&a, estimate.PerfOptions{Seed: 1}, nil)
	rep := m.estimate(&b, estimate.PerfOptions{Seed: 1}, nil)
	rep.Findings[0].Message = "changed by a caller"
	if calls != 1 || m.reused != 1 {
		t.Fatalf("equal inputs: %d estimates, %d reused", calls, m.reused)
	}
	if again := m.estimate(&b, estimate.PerfOptions{Seed: 1}, nil); again.Findings[0].Message != "x" {
		t.Error("a caller's change reached the remembered report")
	}
	m.estimate(&b, estimate.PerfOptions{Seed: 2}, nil)
	b.GPUMemoryUtilization += 0.01
	m.estimate(&b, estimate.PerfOptions{Seed: 1}, nil)
	c := estimate.FromResolved(r)
	c.Env = map[string]string{"VLLM_X": "1"}
	m.estimate(&c, estimate.PerfOptions{Seed: 1}, nil)
	if calls != 4 {
		t.Errorf("different seed, setting or environment: %d estimates, want 4", calls)
	}
}
