package diag_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/xeipuuv/gojsonschema"
)

// sarifSchema is the official SARIF 2.1.0 schema (testdata/sarif/SOURCE.md
// says where it comes from), compiled once.
var sarifSchema = sync.OnceValues(func() (*gojsonschema.Schema, error) {
	data, err := os.ReadFile(filepath.Join("testdata", "sarif", "sarif-schema-2.1.0.json"))
	if err != nil {
		return nil, err
	}
	return gojsonschema.NewSchema(gojsonschema.NewBytesLoader(data))
})

// schemaErrors validates a SARIF log against the official schema.
func schemaErrors(t *testing.T, log []byte) []string {
	t.Helper()
	s, err := sarifSchema()
	if err != nil {
		t.Fatalf("the SARIF schema does not load: %v", err)
	}
	res, err := s.Validate(gojsonschema.NewBytesLoader(log))
	if err != nil {
		t.Fatalf("the log is not JSON: %v", err)
	}
	var out []string
	for _, e := range res.Errors() {
		out = append(out, e.String())
	}
	return out
}

// lintDeployment is a two-node deployment with mistakes of every severity:
// cross-node errors with line and column, a misspelled variable (warning),
// a helper that starts nothing (info), a file name a URI must encode and a
// line with non-ASCII text before a finding's column.
var lintDeployment = []lint.Input{
	{Name: "node 0.sh", Data: []byte(`#!/bin/bash
# nœud 0 — tête
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0 VLLM_ALL2ALL_BACKNED=deepep_low_latency
MODÈLE=deepseek-ai/DeepSeek-V3-0324; vllm serve "$MODÈLE" --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 16 --data-parallel-size-local 8 \
  --data-parallel-address 192.168.1.100 --data-parallel-rpc-port 13345 --api-server-count=8
`)},
	{Name: "deploy/node1.sh", Data: []byte(`#!/bin/bash
export GLOO_SOCKET_IFNAME=eth0 NCCL_SOCKET_IFNAME=eth0
vllm serve deepseek-ai/DeepSeek-V3-0324 --tensor-parallel-size 1 --enable-expert-parallel \
  --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-start-rank 16 --headless \
  --data-parallel-address 192.168.1.100 --data-parallel-rpc-port 13346
`)},
	{Name: "helper#1.sh", Data: []byte("echo hello\n")},
}

// sarifOf renders diagnostics as `vlaunch lint -o sarif` does.
func sarifOf(t *testing.T, ds diag.Diagnostics, src diag.Sources) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := diag.Print(&buf, diag.FormatSARIF, ds, src, codes.RuleInfos("VL")); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSARIFMatchesOfficialSchema validates real lint output — errors,
// warnings and notes with file:line:col — and an empty result against the
// SARIF 2.1.0 schema, plus what the schema's format checks leave loose:
// every artifact URI is a strict RFC 3986 reference, columns count UTF-16
// code units, and every ruleId is among the rules.
func TestSARIFMatchesOfficialSchema(t *testing.T) {
	ds, err := lint.Lint(lintDeployment, lint.Options{Version: "0.11.0"})
	if err != nil {
		t.Fatal(err)
	}
	src := diag.Sources{}
	for _, in := range lintDeployment {
		src[in.Name] = in.Data
	}
	for _, sev := range []diag.Severity{diag.Error, diag.Warning, diag.Info} {
		if !hasSeverity(ds, sev) {
			t.Fatalf("the fixture must produce a %s finding to test its level; got:\n%v", sev, ds)
		}
	}
	log := sarifOf(t, ds, src)
	if errs := schemaErrors(t, log); len(errs) > 0 {
		t.Fatalf("lint's SARIF does not match the SARIF 2.1.0 schema:\n%s\n%s", strings.Join(errs, "\n"), log)
	}
	got := decodeLog(t, log)
	if len(got.Runs) != 1 || len(got.Runs[0].Results) != len(ds) {
		t.Fatalf("want one run with %d results, got %+v", len(ds), got)
	}
	rules := map[string]bool{}
	for _, r := range got.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	uris := map[string]bool{}
	for i, r := range got.Runs[0].Results {
		if !rules[r.RuleID] {
			t.Errorf("result %d: ruleId %s is not among tool.driver.rules", i, r.RuleID)
		}
		for _, l := range r.Locations {
			uri := l.PhysicalLocation.ArtifactLocation.URI
			uris[uri] = true
			if !uriReference.MatchString(uri) {
				t.Errorf("result %d: artifact uri %q is not an RFC 3986 URI reference", i, uri)
			}
		}
	}
	for _, want := range []string{"node%200.sh", "deploy/node1.sh", "helper%231.sh"} {
		if !uris[want] {
			t.Errorf("no result locates %s; uris: %v", want, uris)
		}
	}
	// VL004 points at "$MODÈLE" on line 4, byte column 39: "È" is two bytes
	// and one UTF-16 unit, so SARIF's column is 38.
	if c := columnOf(got, "VL004", 4); c != 38 {
		t.Errorf("VL004's startColumn = %d, want 38 (UTF-16 code units past a 2-byte È)", c)
	}

	empty := sarifOf(t, nil, nil)
	if errs := schemaErrors(t, empty); len(errs) > 0 {
		t.Fatalf("an empty result does not match the schema:\n%s\n%s", strings.Join(errs, "\n"), empty)
	}
	if e := decodeLog(t, empty); len(e.Runs) != 1 || e.Runs[0].Results == nil || len(e.Runs[0].Results) != 0 {
		t.Errorf("an empty result must be one run with an empty results list (no results means a clean run):\n%s", empty)
	}
}

// TestSARIFSchemaRejects shows the validation can fail: logs that break
// the schema in ways a writer could (a level SARIF lacks, a result without
// a message, a negative line) are each rejected.
func TestSARIFSchemaRejects(t *testing.T) {
	good := sarifOf(t, diag.Diagnostics{{Code: "VL105", Severity: diag.Error, File: "run.sh", Line: 1, Col: 3, Message: "m"}}, nil)
	if errs := schemaErrors(t, good); len(errs) > 0 {
		t.Fatalf("the base log must be valid: %v", errs)
	}
	for name, edit := range map[string][2]string{
		"level info":    {`"level": "error"`, `"level": "info"`},
		"no message":    {`"message": {`, `"msg": {`},
		"line 0":        {`"startLine": 1`, `"startLine": 0`},
		"version 2.0.0": {`"version": "2.1.0"`, `"version": "2.0.0"`},
	} {
		bad := bytes.Replace(good, []byte(edit[0]), []byte(edit[1]), 1)
		if bytes.Equal(bad, good) {
			t.Fatalf("%s: %q is not in the log", name, edit[0])
		}
		if errs := schemaErrors(t, bad); len(errs) == 0 {
			t.Errorf("%s: the schema accepted a non-conformant log", name)
		}
	}
	for _, bad := range []string{"node 0.sh", `C:\x.sh`, "a%zz", "50%"} {
		if uriReference.MatchString(bad) {
			t.Errorf("the URI check accepts %q", bad)
		}
	}
}

// TestSARIFURIs covers the paths a user may name.
func TestSARIFURIs(t *testing.T) {
	abs, _ := filepath.Abs("x y.sh")
	for file, want := range map[string]string{
		"run.sh":          "run.sh",
		"deploy/node1.sh": "deploy/node1.sh",
		"./a b.yaml":      "./a%20b.yaml",
		"50%.sh":          "50%25.sh",
		"a?b#c.md":        "a%3Fb%23c.md",
		"c:d.sh":          "./c:d.sh", // not the scheme "c"
		abs:               "file://" + filepath.ToSlash(filepath.Dir(abs)) + "/x%20y.sh",
	} {
		log := decodeLog(t, sarifOf(t, diag.Diagnostics{{Code: "VL105", Severity: diag.Error, File: file, Message: "m"}}, nil))
		got := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI
		if got != want {
			t.Errorf("%q: uri %q, want %q", file, got, want)
		}
		if !uriReference.MatchString(got) {
			t.Errorf("%q: %q is not a URI reference", file, got)
		}
	}
}

// uriReference matches the characters RFC 3986 allows in a URI reference
// (unreserved, sub-delims, ":", "@", "/", "?", "#" and %XX escapes);
// gojsonschema's "uri-reference" check accepts anything url.Parse does,
// spaces included.
var uriReference = regexp.MustCompile(`^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?#]|%[0-9A-Fa-f]{2})*$`)

func hasSeverity(ds diag.Diagnostics, s diag.Severity) bool {
	for _, d := range ds {
		if d.Severity == s {
			return true
		}
	}
	return false
}

// sarifDoc is the part of a SARIF log the checks read.
type sarifDoc struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Rules []struct {
					ID string `json:"id"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    string `json:"ruleId"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI string `json:"uri"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
		} `json:"results"`
	} `json:"runs"`
}

func decodeLog(t *testing.T, log []byte) sarifDoc {
	t.Helper()
	var d sarifDoc
	if err := json.Unmarshal(log, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// columnOf returns the start column of the first result of rule on line.
func columnOf(d sarifDoc, rule string, line int) int {
	for _, r := range d.Runs[0].Results {
		for _, l := range r.Locations {
			if r.RuleID == rule && l.PhysicalLocation.Region.StartLine == line {
				return l.PhysicalLocation.Region.StartColumn
			}
		}
	}
	return -1
}

// FuzzSARIFLocation: whatever a file name, its content and a finding's
// position (a linted file's, so the user's), the SARIF location is a
// strict URI reference and the column a UTF-16 column no further than the
// byte column: never a panic, never a non-conformant log.
func FuzzSARIFLocation(f *testing.F) {
	f.Add("node 0.sh", []byte("MODÈLE=x; vllm serve \"$MODÈLE\"\n"), 1, 21)
	f.Add("/abs/dir/a?b#c%.yaml", []byte("a: 😀 b\n"), 1, 9)
	f.Add("c:d.sh", []byte("\xff\xfe x\n"), 1, 4)
	f.Add("", []byte(""), 0, 0)
	f.Fuzz(func(t *testing.T, file string, content []byte, line, col int) {
		if line < 0 || col < 0 {
			return // diag positions are 1-based, 0 for unknown
		}
		d := diag.Diagnostics{{Code: "VL105", Severity: diag.Warning, File: file, Line: line, Col: col, Message: "m"}}
		var buf bytes.Buffer
		if err := diag.Print(&buf, diag.FormatSARIF, d, diag.Sources{file: content}, nil); err != nil {
			t.Fatal(err)
		}
		got := decodeLog(t, buf.Bytes())
		locs := got.Runs[0].Results[0].Locations
		if file == "" {
			if len(locs) != 0 {
				t.Fatalf("a finding without a file has a location: %+v", locs)
			}
			return
		}
		uri := locs[0].PhysicalLocation.ArtifactLocation.URI
		if !uriReference.MatchString(uri) {
			t.Fatalf("file %q: uri %q is not a URI reference", file, uri)
		}
		if c := locs[0].PhysicalLocation.Region.StartColumn; line > 0 && col > 0 && (c < 1 || c > col) {
			t.Fatalf("byte column %d became %d", col, c)
		}
	})
}
