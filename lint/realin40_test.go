package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// findingsAt lints a real-corpus directory for a release and returns the
// findings of one code.
func findingsAt(t *testing.T, dir, version, code string) diag.Diagnostics {
	t.Helper()
	ds, err := Lint(readCorpusInputs(t, dir), Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	var out diag.Diagnostics
	for _, d := range ds {
		if string(d.Code) == code {
			out = append(out, d)
		}
	}
	return out
}

// TestDCPDoubleDashPerRelease: the `--dcp 4` of a real three-node launch
// (rewritten as serve-node.sh, line 17) per release. 0.18.0 on: --dcp-comm-backend and
// --dcp-kv-cache-interleave-size both exist, argparse exits "ambiguous
// option" (error); 0.11.1-0.17.x: the unique prefix of the interleave size,
// DCP stays 1 (warning); 0.10.2-0.11.0: no flag has the prefix (error).
// Every one hints the -dcp alias.
func TestDCPDoubleDashPerRelease(t *testing.T) {
	const dir = "testdata/corpus/real/shp-deepseek-dcp-double-dash"
	for _, c := range []struct {
		version string
		sev     diag.Severity
		msg     string
	}{
		{"0.10.2", diag.Error, "unknown flag --dcp"},
		{"0.11.0", diag.Error, "unknown flag --dcp"},
		{"0.11.1", diag.Warning, "read as --dcp-kv-cache-interleave-size"},
		{"0.17.1", diag.Warning, "read as --dcp-kv-cache-interleave-size"},
		{"0.18.0", diag.Error, "could match --dcp-comm-backend, --dcp-kv-cache-interleave-size"},
		{"0.24.0", diag.Error, "in every release from 0.18.0"},
		{"", diag.Error, "ambiguous"},
	} {
		ds := findingsAt(t, dir, c.version, "VL101")
		if len(ds) != 1 {
			t.Fatalf("%q: want one VL101, got %v", c.version, ds)
		}
		d := ds[0]
		if d.Line != 17 || d.Severity != c.sev || !strings.Contains(d.Message, c.msg) {
			t.Errorf("%q: got %s %d: %s; want %s with %q", c.version, d.Severity, d.Line, d.Message, c.sev, c.msg)
		}
		if !strings.Contains(d.Hint, "-dcp (--decode-context-parallel-size)") {
			t.Errorf("%q: hint %q does not name the -dcp alias", c.version, d.Hint)
		}
	}
}

// TestAmbiguousOnlyWhereBothFlags: an abbreviation of one flag stays a
// warning, with its flag's choices checked; a prefix of two flags of the
// release is an error without a hint of one of them.
func TestAmbiguousOnlyWhereBothFlags(t *testing.T) {
	lint := func(src, v string) diag.Diagnostics {
		ds, err := Lint([]Input{{Name: "x.sh", Data: []byte(src)}}, Options{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		return ds
	}
	ds := lint("vllm serve m -tp 4 -dcp 4 --dcp-comm 4\n", "0.19.0")
	var sevs []string
	for _, d := range ds {
		if d.Code == "VL101" || d.Code == "VL104" {
			sevs = append(sevs, string(d.Code)+":"+d.Severity.String())
		}
	}
	if strings.Join(sevs, " ") != "VL101:warning VL104:error" {
		t.Errorf("--dcp-comm 4 on 0.19.0: got %v, want a VL101 warning and a VL104 error", sevs)
	}
	ds = lint("vllm serve m -tp 4 --dcp-kv 4 --dcp-co ag_rs --dcp x\n", "0.19.0")
	var errs int
	for _, d := range ds {
		if d.Code == "VL101" && d.Severity == diag.Error {
			errs++
			if !strings.Contains(d.Hint, "-dcp (") {
				t.Errorf("--dcp: hint %q", d.Hint)
			}
		}
	}
	if errs != 1 {
		t.Errorf("want one ambiguous error (--dcp), got %d in %v", errs, ds)
	}
}

// TestShBashismOnlyUnderSh: the #!/bin/sh script (a rewrite of a real one) warns at both
// launch conditions; the same text under #!/bin/bash does not.
func TestShBashismOnlyUnderSh(t *testing.T) {
	const dir = "testdata/corpus/real/ascend-5399-dsv32-sh-bashism"
	ds := findingsAt(t, dir, "", "VL311")
	if len(ds) != 2 || ds[0].Line != 10 || ds[1].Line != 23 || ds[0].Severity != diag.Warning {
		t.Fatalf("want VL311 warnings at 10 and 23, got %v", ds)
	}
	if !strings.Contains(ds[0].Message, "unexpected operator") || !strings.Contains(ds[0].Message, "where sh is bash it works") {
		t.Errorf("message: %s", ds[0].Message)
	}
	in := readCorpusInputs(t, dir)
	in[0].Data = []byte(strings.Replace(string(in[0].Data), "#!/bin/sh", "#!/bin/bash", 1))
	got, err := Lint(in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range got {
		if d.Code == "VL311" {
			t.Errorf("#!/bin/bash: unexpected %s", d)
		}
	}
}

// TestKServeTemplateNamesController: {{.Name}} in an LLMInferenceService is
// the controller's to fill in; a Helm action in the same kind is not.
func TestKServeTemplateNamesController(t *testing.T) {
	ds := findingsAt(t, "testdata/corpus/real/rhoai3-nemotron-llmisvc-name-template", "", "VL009")
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "KServe's LLMInferenceService controller fills in {{.Name}}") || strings.Contains(ds[0].Hint, "helm template") {
		t.Fatalf("got %v", ds)
	}
	helm := "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata: {name: x}\nspec:\n  model: {name: a/b}\n  template:\n    containers:\n    - name: main\n      args: [\"--served-model-name={{ .Values.name }}\"]\n"
	got, err := Lint([]Input{{Name: "h.yaml", Data: []byte(helm)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range got {
		if d.Code == "VL009" {
			n++
			if !strings.Contains(d.Hint, "helm template") {
				t.Errorf("a Helm action: %s / %s", d.Message, d.Hint)
			}
		}
	}
	if n != 1 {
		t.Errorf("a Helm action: want one VL009, got %d", n)
	}
}
