package report

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/validate"
)

// checkExample runs both halves of `vlaunch check` on an example spec, with
// the layout search for `parallelism: auto`, as the command does.
func checkExample(t testing.TB, name string) *estimate.Report {
	t.Helper()
	d, ds, err := validate.File(filepath.Join("..", "examples", name))
	if err != nil || ds.HasErrors() {
		t.Fatalf("%s: %v %v", name, err, ds)
	}
	in := estimate.FromResolved(d)
	r := estimate.Check(&in)
	r.AddPerformance(&in, estimate.PerfOptions{Seed: 1})
	d.Spec.Locate(r.Findings) // as the command does: findings point into the spec
	return &r
}

// TestGolden pins every renderer on the examples: a change of layout shows
// up here as a diff to read, and a change of figures means the model moved.
func TestGolden(t *testing.T) {
	for _, name := range []string{"deepseek-v3-32xh20", "deepseek-v3-fp8-2x8h200", "llama-3.1-70b-8xa100", "qwen3-30b-a3b-1xh100"} {
		r := checkExample(t, name+".yaml")
		var text, md, js bytes.Buffer
		WriteText(&text, r)
		WriteMarkdown(&md, r)
		if err := WriteJSON(&js, r); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, name+".txt", text.String())
		checkGolden(t, name+".md", md.String())
		checkGolden(t, name+".json", js.String())
		checkGolden(t, name+".summary.md", SummaryMarkdown(r))
	}
}

// checkGolden compares got with testdata/<name>.golden (go test ./report -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

func TestJSONHasTheContract(t *testing.T) {
	r := checkExample(t, "deepseek-v3-32xh20.yaml")
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Memory struct {
			PerGPU map[string]float64 `json:"per_gpu"`
			BPT    int64              `json:"kv_bytes_per_token"`
			Tokens int64              `json:"kv_tokens_per_rank"`
			Conc   *float64           `json:"max_concurrency_at_max_model_len"`
		} `json:"memory"`
		Findings []map[string]interface{} `json:"findings"`
		Feasible *bool                    `json:"feasible"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"weights_gib", "kv_cache_gib", "activation_gib", "other_gib", "usable_gib", "device_gib"} {
		if _, ok := doc.Memory.PerGPU[k]; !ok {
			t.Errorf("memory.per_gpu.%s missing", k)
		}
	}
	if doc.Memory.BPT != 70272 || doc.Memory.Tokens <= 0 || doc.Memory.Conc == nil || doc.Feasible == nil || *doc.Feasible {
		t.Errorf("memory = %+v feasible = %v", doc.Memory, doc.Feasible)
	}
	if len(doc.Findings) == 0 || doc.Findings[0]["code"] != "EST103" || doc.Findings[0]["severity"] != "warning" || doc.Findings[0]["hint"] == "" ||
		doc.Findings[0]["file"] == nil || doc.Findings[0]["line"] == nil {
		t.Errorf("findings = %v", doc.Findings)
	}
}

func TestJSONWritesNoFindingsAsEmptyList(t *testing.T) {
	r := estimate.Report{}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"findings": []`) || r.Findings != nil {
		t.Errorf("findings must print as [] without changing the report:\n%s", buf.String())
	}
}

func TestTextShowsEveryTerm(t *testing.T) {
	r := checkExample(t, "deepseek-v3-32xh20.yaml")
	var text, md bytes.Buffer
	WriteText(&text, r)
	WriteMarkdown(&md, r)
	for _, want := range []string{"70,272", "37.55B parameters", "ceil(200/32) = 7", "16.1 GB", "124,928", "routed_experts", "fused-MoE workspace",
		"checkpoint as shipped", "DOES NOT FIT", "warning: ", "[EST103]", "    hint: ", "feasible: no"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
	for _, want := range []string{"| term | GiB | derivation |", "**Feasible: no — ", "## Notes", "| fp8 | checkpoint as shipped |", "```text\n../examples/deepseek-v3-32xh20.yaml:34:16: warning: "} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown report lacks %q", want)
		}
	}
}

// TestSummaryReference checks the bundle summary of the reference scenario
// says it is not feasible, names the failing SLOs and what binds them, and
// carries EST103, the warning that the sessions queue (not an error: vLLM
// serves them; the failing SLOs make it infeasible).
func TestSummaryReference(t *testing.T) {
	got := SummaryMarkdown(checkExample(t, "deepseek-v3-32xh20.yaml"))
	for _, want := range []string{"**not feasible**", "FAIL throughput (output tokens/s)", "bound by network", "[EST103]", "7 on the fullest rank"} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

func TestTextShowsPerformance(t *testing.T) {
	var buf bytes.Buffer
	WriteText(&buf, checkExample(t, "deepseek-v3-32xh20.yaml"))
	for _, want := range []string{"Performance", "floors: weight read", "SLO", "FAIL throughput", "what it would take"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text report lacks %q", want)
		}
	}
}
