package logs

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// update rewrites the goldens of testdata/real:
//
//	go test ./logs -run TestRealLogs -update
var update = flag.Bool("update", false, "rewrite golden files")

// fixture is one real log excerpt: testdata/real/NAME.txtar holds the
// metadata (source, release, kinds, calibration case, notes) as the
// archive comment and one file per node; a calibration case also carries
// spec.yaml, its deployment (cmd/vlaunch's calibration test compares).
type fixture struct {
	name                                 string
	source, release, kinds, calib, notes string
	files                                []txtar.File
}

func loadFixtures(t testing.TB) []fixture {
	paths, err := filepath.Glob("testdata/real/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixture
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fx := fixture{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), files: ar.Files}
		for _, l := range strings.Split(string(ar.Comment), "\n") {
			k, v, _ := strings.Cut(l, ": ")
			v = strings.TrimSpace(v)
			switch k {
			case "source":
				fx.source = v
			case "release":
				fx.release = v
			case "kinds":
				fx.kinds = v
			case "calibration":
				fx.calib = v
			case "notes":
				fx.notes = v
			}
		}
		if fx.source == "" || fx.release == "" || fx.notes == "" {
			t.Errorf("%s: metadata needs source, release and notes", p)
		}
		out = append(out, fx)
	}
	return out
}

// analyzeFixture runs the analysis on a fixture's files, named NAME/FILE.
func analyzeFixture(t testing.TB, fx fixture) *Report {
	var srcs []*Source
	for _, f := range fx.files {
		if strings.HasSuffix(f.Name, ".yaml") {
			continue // the deployment of a calibration case, for --spec
		}
		s, err := NewSource(fx.name+"/"+f.Name, bytes.NewReader(f.Data))
		if err != nil {
			t.Fatalf("%s: %v", fx.name, err)
		}
		srcs = append(srcs, s)
	}
	rep, err := Analyze(srcs...)
	if err != nil {
		t.Fatalf("%s: %v", fx.name, err)
	}
	return rep
}

// TestRealLogs pins the extraction of every real excerpt (goldens) and
// checks that the failure kinds the fixture names are recognised — and no
// others. An excerpt that simply ends (LOG002, info) is no failure: a
// fixture naming no kind (a healthy start-up, whole or in part) must have
// no finding above info.
func TestRealLogs(t *testing.T) {
	for _, fx := range loadFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			rep := analyzeFixture(t, fx)
			got, err := json.MarshalIndent(rep, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "real", fx.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("report differs from %s; run with -update and read the diff", golden)
			}
			checkKinds(t, fx, rep)
		})
	}
}

func checkKinds(t *testing.T, fx fixture, rep *Report) {
	want := map[string]bool{}
	for _, k := range strings.Fields(strings.ReplaceAll(fx.kinds, ",", " ")) {
		want[k] = true
	}
	got := map[string]bool{}
	for _, f := range rep.Failures {
		if f.Code == CodeEnds {
			if f.Severity != "info" {
				t.Errorf("%s: %s is %s, want info", fx.name, f.Code, f.Severity)
			}
			continue
		}
		got[f.Kind] = true
		if !want[f.Kind] {
			t.Errorf("%s: unexpected %s %s [%s]: %s", fx.name, f.Code, f.Kind, f.Severity, f.Message)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("%s: failure kind %s not recognised", fx.name, k)
		}
	}
}

var releaseRE = regexp.MustCompile(`(\d+)\.(\d+)`)

// fixtureRelease is the major.minor of a fixture's release ("0.10"), or
// "?" when the log and its source do not say.
func fixtureRelease(s string) string {
	if m := releaseRE.FindStringSubmatch(s); m != nil {
		return m[1] + "." + m[2]
	}
	return "?"
}

// TestRealLogsCoverage holds the corpus to issue 14: at least 30 excerpts,
// every failure kind, releases from 0.5 to the newest, multi-node logs.
func TestRealLogsCoverage(t *testing.T) {
	fxs := loadFixtures(t)
	if len(fxs) < 30 {
		t.Errorf("%d fixtures, want at least 30", len(fxs))
	}
	kinds := map[string]int{}
	releases := map[string]int{}
	for _, fx := range fxs {
		for _, k := range strings.Fields(strings.ReplaceAll(fx.kinds, ",", " ")) {
			kinds[k]++
		}
		releases[fixtureRelease(fx.release)]++
	}
	for _, k := range Kinds {
		// oom_unknown_phase is the want of evidence around an
		// out-of-memory, not a failure of its own: an excerpt cut to its
		// line (TestOOMPhaseFromEvidence, TestLogsRealFailureShapes).
		if kinds[k] == 0 && k != KindOOMUnknownPhase {
			t.Errorf("no fixture for failure kind %s", k)
		}
	}
	for _, r := range []string{"0.5", "0.6", "0.7", "0.8", "0.9", "0.10", "0.11", "0.19", "0.29"} {
		if releases[r] == 0 {
			t.Errorf("no fixture from release %s", r)
		}
	}
	md := coverageMarkdown(fxs, kinds, releases)
	const path = "testdata/real/README.md"
	if *update {
		if err := os.WriteFile(path, []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := os.ReadFile(path); string(got) != md {
		t.Errorf("%s is stale; run go test ./logs -run TestRealLogsCoverage -update", path)
	}
}

func coverageMarkdown(fxs []fixture, kinds, releases map[string]int) string {
	var b strings.Builder
	b.WriteString("# Real vLLM log excerpts\n\n<!-- Generated by `go test ./logs -run TestRealLogsCoverage -update`; do not edit. -->\n\n")
	b.WriteString("Our own trimmed excerpts of logs posted publicly (the lines that matter, as posted), each with\n")
	b.WriteString("its source and release in the archive comment and the extraction pinned in `NAME.golden`.\n\n")
	b.WriteString("| fixture | release | kinds | source |\n|---|---|---|---|\n")
	for _, fx := range fxs {
		b.WriteString("| `" + fx.name + "` | " + fx.release + " | " + fx.kinds + " | " + fx.source + " |\n")
	}
	b.WriteString("\nBy release (major.minor; `?` = not stated): ")
	b.WriteString(countLine(releases))
	b.WriteString("\n\nBy failure kind: ")
	b.WriteString(countLine(kinds))
	b.WriteString("\n")
	return b.String()
}

func countLine(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return versionKey(keys[i]) < versionKey(keys[j]) })
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+" "+itoa(m[k]))
	}
	return strings.Join(parts, ", ")
}

// versionKey sorts "0.5" before "0.10" and names after numbers.
func versionKey(s string) string {
	m := releaseRE.FindStringSubmatch(s)
	if m == nil {
		return "z" + s
	}
	return strings.Repeat("0", 4-len(m[1])) + m[1] + "." + strings.Repeat("0", 4-len(m[2])) + m[2]
}

func itoa(n int) string { return strconv.Itoa(n) }
