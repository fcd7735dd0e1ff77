package diag

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/vlaunch/vlaunch/internal/golden"
)

// sample is one fixed set of diagnostics every format renders.
var sample = Diagnostics{
	{Code: "SPEC002", Severity: Error, File: "spec.yaml", Line: 3, Col: 3, Path: "model.nmae", Message: "unknown key \"nmae\"", Hint: `did you mean "name"?`},
	{Code: "VL107", Severity: Warning, File: "node0.sh", Line: 2, Col: 8, Message: "VLLM_ALL2ALL_BACKEND was removed, value a,b: c"},
	{Code: "EST106", Severity: Info, Message: "weights are bf16 but the checkpoint ships fp8"},
}

var sources = Sources{"spec.yaml": []byte("apiVersion: vlaunch/v1\nmodel:\n  nmae: deepseek-v3\n")}

func TestSortOrdersByFileLineColCode(t *testing.T) {
	ds := Diagnostics{
		{Code: "B", File: "b", Line: 1}, {Code: "A", File: "a", Line: 9, Col: 2},
		{Code: "Z", File: "a", Line: 9, Col: 1}, {Code: "A", File: "a", Line: 2},
	}
	ds.Sort()
	var got []string
	for _, d := range ds {
		got = append(got, string(d.Code)+"@"+d.Location())
	}
	want := []string{"A@a:2", "Z@a:9:1", "A@a:9:2", "B@b:1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

func TestCountsAndGates(t *testing.T) {
	if !sample.HasErrors() || sample.Count(Warning) != 1 || sample.Summary() != "1 error, 1 warning" {
		t.Errorf("counts wrong: errors=%v warnings=%d summary=%q", sample.HasErrors(), sample.Count(Warning), sample.Summary())
	}
	if (Diagnostics{{Severity: Warning}}).HasErrors() || !(Diagnostics{{Severity: Warning}}).AtLeast(Warning) {
		t.Error("a warning is not an error but is at least a warning")
	}
}

func TestParseSeverityAndFormat(t *testing.T) {
	if s, err := ParseSeverity("warning"); err != nil || s != Warning {
		t.Errorf("ParseSeverity(warning) = %v, %v", s, err)
	}
	if _, err := ParseSeverity("fatal"); err == nil {
		t.Error("ParseSeverity accepted an unknown severity")
	}
	if _, err := ParseFormat("xml", FormatText, FormatJSON); err == nil {
		t.Error("ParseFormat accepted a format outside the allowed list")
	}
	if Severity(0).String() != "invalid" {
		t.Error("the zero severity must read as invalid")
	}
}

// TestFormatsGolden renders the sample through every format; JSON and SARIF
// must also decode.
func TestFormatsGolden(t *testing.T) {
	rules := []RuleInfo{{Code: "VL107", Summary: "Environment variable removed", HelpURI: "https://example.invalid/rules#vl107"}}
	for _, f := range []Format{FormatText, FormatJSON, FormatSARIF, FormatGitHub} {
		t.Run(string(f), func(t *testing.T) {
			var buf bytes.Buffer
			if err := Print(&buf, f, sample, sources, rules); err != nil {
				t.Fatal(err)
			}
			if f == FormatJSON || f == FormatSARIF {
				var v map[string]interface{}
				if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
					t.Fatalf("%s output does not decode: %v", f, err)
				}
			}
			golden.Check(t, filepath.Join("testdata", "sample."+string(f)), buf.Bytes())
		})
	}
}

func TestJSONEmptyListIsNotNull(t *testing.T) {
	var buf bytes.Buffer
	if err := Print(&buf, FormatJSON, nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(buf.Bytes(), []byte(`"diagnostics": []`)) {
		t.Errorf("empty JSON report should have an empty list:\n%s", buf.String())
	}
}
