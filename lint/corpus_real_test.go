package lint

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// realMeta are the files of a real-corpus directory that are not inputs.
var realMeta = map[string]bool{"README.md": true, "expect.txt": true}

// loadRealFixture reads a real-corpus directory: its inputs, and the
// expectations in expect.txt, one `FILE:LINE CODE` per line ('#' comments;
// `version X` lints for release X).
func loadRealFixture(t *testing.T, dir string) (fixture, []want) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fx := fixture{name: dir}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && !realMeta[e.Name()] {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		fx.inputs = append(fx.inputs, Input{Name: filepath.Join(dir, n), Data: data})
	}
	if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
		t.Errorf("%s: no README.md citing the source", dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, "expect.txt"))
	if os.IsNotExist(err) {
		return fx, nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var wants []want
	for i, l := range strings.Split(string(data), "\n") {
		l, _, _ = strings.Cut(l, "#")
		fs := strings.Fields(l)
		switch {
		case len(fs) == 0:
		case len(fs) == 2 && fs[0] == "version":
			fx.version = fs[1]
		case len(fs) == 2:
			file, line, ok := strings.Cut(fs[0], ":")
			n, err := strconv.Atoi(line)
			if !ok || err != nil {
				t.Fatalf("%s/expect.txt:%d: want FILE:LINE CODE, got %q", dir, i+1, l)
			}
			wants = append(wants, want{filepath.Join(dir, file), n, fs[1]})
		default:
			t.Fatalf("%s/expect.txt:%d: want FILE:LINE CODE, got %q", dir, i+1, l)
		}
	}
	return fx, wants
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
