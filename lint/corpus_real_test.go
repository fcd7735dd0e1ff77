package lint

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// realMeta are the files of a real-corpus directory that are not inputs.
var realMeta = map[string]bool{"README.md": true, "expect.txt": true}

// realExpect is what a real-corpus directory's expect.txt states.
type realExpect struct {
	// kind is "good" (a known-good configuration: no error allowed) or
	// "defective" (defects lists the finding that is its real defect).
	kind string
	// class is the kind of configuration, for the per-kind score:
	// operator (Kubernetes manifests, operators' custom resources),
	// container (docker, compose, apptainer), pd (prefill/decode
	// disaggregation) or script (the rest).
	class string
	// wants are every finding pinned, the defects included.
	wants []want
	// defects are the findings that count as detecting the real defect;
	// missed are real defects the linter does not find (not asserted).
	defects, missed []want
}

// loadRealFixture reads a real-corpus directory: its inputs, and the
// expectations in expect.txt ('#' comments): `kind good|defective`,
// `class operator|container|pd|script` (corpusClasses),
// `version X` (lint for release X), `defect FILE:LINE CODE` (the real
// defect, pinned), `missed FILE:LINE CODE` (a real defect not found, not
// asserted) and `FILE:LINE CODE` (another pinned finding).
func loadRealFixture(t *testing.T, dir string) (fixture, realExpect) {
	t.Helper()
	fx := fixture{name: dir, inputs: readCorpusInputs(t, dir)}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Errorf("%s: no README.md citing the source", dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, "expect.txt"))
	if err != nil {
		t.Fatalf("%s: expect.txt (with at least `kind good|defective`): %v", dir, err)
	}
	var ex realExpect
	for i, l := range strings.Split(string(data), "\n") {
		l, _, _ = strings.Cut(l, "#")
		fs := strings.Fields(l)
		switch {
		case len(fs) == 0:
		case len(fs) == 2 && fs[0] == "version":
			fx.version = fs[1]
		case len(fs) == 2 && fs[0] == "kind" && (fs[1] == "good" || fs[1] == "defective"):
			ex.kind = fs[1]
		case len(fs) == 2 && fs[0] == "class" && slices.Contains(corpusClasses, fs[1]):
			ex.class = fs[1]
		case len(fs) == 3 && (fs[0] == "defect" || fs[0] == "missed"):
			w := parseWant(t, dir, i, fs[1], fs[2])
			if fs[0] == "missed" {
				ex.missed = append(ex.missed, w)
				continue
			}
			ex.defects = append(ex.defects, w)
			ex.wants = append(ex.wants, w)
		case len(fs) == 2:
			ex.wants = append(ex.wants, parseWant(t, dir, i, fs[0], fs[1]))
		default:
			t.Fatalf("%s/expect.txt:%d: unreadable line %q", dir, i+1, l)
		}
	}
	if ex.class == "" {
		t.Fatalf("%s/expect.txt: needs `class` (one of %s)", dir, strings.Join(corpusClasses, ", "))
	}
	if ex.kind == "" || (ex.kind == "defective") != (len(ex.defects)+len(ex.missed) > 0) {
		t.Fatalf("%s/expect.txt: needs `kind good`, or `kind defective` with defect/missed lines", dir)
	}
	return fx, ex
}

// readCorpusInputs reads a corpus directory's input files, in name order.
func readCorpusInputs(t *testing.T, dir string) []Input {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && !realMeta[e.Name()] {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Input
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Input{Name: filepath.Join(dir, n), Data: data})
	}
	return out
}

// parseWant reads FILE:LINE and CODE from an expect.txt line.
func parseWant(t *testing.T, dir string, i int, at, code string) want {
	t.Helper()
	file, line, ok := strings.Cut(at, ":")
	n, err := strconv.Atoi(line)
	if !ok || err != nil {
		t.Fatalf("%s/expect.txt:%d: want FILE:LINE CODE, got %q", dir, i+1, at)
	}
	return want{filepath.Join(dir, file), n, code}
}

// compareFindings lints fx and lists the differences from wants.
func compareFindings(t *testing.T, fx fixture, wants []want) []string {
	t.Helper()
	ds, err := Lint(fx.inputs, Options{Version: fx.version})
	if err != nil {
		t.Fatalf("%s: %v", fx.name, err)
	}
	mentioned := map[string]bool{}
	for _, w := range wants {
		mentioned[w.code] = true
	}
	return diffFindings(ds, wants, mentioned)
}

// TestRealHarnessCanFail: an unlisted warning and a listed but absent
// finding both fail.
func TestRealHarnessCanFail(t *testing.T) {
	fx := fixture{name: "self", inputs: []Input{{Name: "x.sh", Data: []byte(
		"vllm serve m --gpu-memory-utilization 0.99\n")}}}
	got := compareFindings(t, fx, []want{{"x.sh", 1, "VL303"}})
	if len(got) != 2 || !strings.HasPrefix(got[0], "unexpected:") || !strings.HasPrefix(got[1], "missing:") {
		t.Errorf("want one unexpected VL114 and one missing VL303, got %q", got)
	}
}
