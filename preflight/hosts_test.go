package preflight

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/internal/golden"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// loadSpec reads testdata/specs/<name>.yaml with defaults applied.
func loadSpec(t testing.TB, name string) *spec.Deployment {
	t.Helper()
	d, ds := spec.Load(filepath.Join("testdata", "specs", name+".yaml"))
	if ds.HasErrors() {
		t.Fatalf("spec %s: %v", name, ds)
	}
	spec.ApplyDefaults(d)
	return d
}

// resolved resolves a loaded spec, as validate.File does for the command.
func resolved(t testing.TB, d *spec.Deployment) *resolve.Deployment {
	t.Helper()
	r, err := resolve.FromSpec(d)
	if err != nil {
		t.Fatalf("resolve: %v", err)
	}
	return r
}

// runFixture runs preflight for node on a fixture host with spec specName.
func runFixture(t testing.TB, host, specName, node string, edit func(*spec.Deployment), only ...string) Report {
	t.Helper()
	return runFixtureOpts(t, host, specName, node, edit, nil, only...)
}

// runFixtureOpts is runFixture with a hook to change the options.
func runFixtureOpts(t testing.TB, host, specName, node string, edit func(*spec.Deployment), opts func(*Options), only ...string) Report {
	t.Helper()
	d := loadSpec(t, specName)
	if edit != nil {
		edit(d)
	}
	o := Options{
		Deployment: resolved(t, d), Node: node, Only: only, Host: fixtureHost(t, host),
		WorkDir: "/srv", HFCacheDir: "/root/.cache/huggingface/hub", Timeout: fastTimeout * 10,
	}
	if opts != nil {
		opts(&o)
	}
	rep, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestWorkingH20RoCENode: every check applies and passes on a healthy
// 8 × H20 RoCE primary with DeepEP (the NIXL checks, for P/D pools only,
// skip).
func TestWorkingH20RoCENode(t *testing.T) {
	rep := runFixture(t, "h20-roce", "h20-roce", "node0", nil)
	if len(rep.Results) != len(checks) {
		t.Fatalf("ran %d checks, want all %d", len(rep.Results), len(checks))
	}
	for _, r := range rep.Results {
		if pdOnly(r.ID) || mnnvlOnly(r.ID) {
			if r.Status != Skip {
				t.Errorf("%s on a colocated spec: %s, want skip", r.ID, r.Status)
			}
			continue
		}
		if r.Status != Pass {
			t.Errorf("%s: %s: found %q, expected %q, fix %q", r.ID, r.Status, r.Found, r.Expected, r.Fix)
		}
	}
	if rep.Failed() {
		t.Error("report says failed")
	}
	goldenText(t, "h20-roce.txt", rep)
}

// TestBrokenNode: every check fails on a host where everything is wrong.
func TestBrokenNode(t *testing.T) {
	rep := runFixture(t, "h20-broken", "broken", "node0", nil)
	for _, r := range rep.Results {
		want := Fail
		if pdOnly(r.ID) || mnnvlOnly(r.ID) {
			want = Skip // a colocated spec: no KV connector, no side channel
		}
		switch r.ID {
		case "model.path":
			want = Pass // the directory is there; its contents are wrong
		case "host.memory":
			want = Pass // 62.5 GiB runs eight workers: the weights stream through the page cache
		}
		if r.Status != want {
			t.Errorf("%s: %s, want %s: found %q", r.ID, r.Status, want, r.Found)
		}
		if r.Status == Fail && r.Expected == "" && r.Fix == "" {
			t.Errorf("%s: a fail must say what was expected or how to fix it", r.ID)
		}
	}
	if !rep.Failed() {
		t.Error("report should fail")
	}
	goldenText(t, "h20-broken.txt", rep)
	missing := runFixture(t, "h20-broken", "broken", "node0", func(d *spec.Deployment) { d.Model.Path = "/models/missing" }, "model.path")
	wantResult(t, resultOf(t, missing, "model.path"), Fail, "/models/missing does not exist")
}

// goldenText compares the text report with testdata/golden/<name>.
func goldenText(t *testing.T, name string, rep Report) {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteText(&buf, rep); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "golden", name), buf.Bytes())
}

// resultOf returns one check's result or fails the test.
func resultOf(t *testing.T, rep Report, id string) Result {
	t.Helper()
	r, ok := rep.Get(id)
	if !ok {
		t.Fatalf("%s did not run", id)
	}
	return r
}

// wantResult checks a status and that found+expected+fix mention every substring.
func wantResult(t *testing.T, r Result, status Status, substrings ...string) {
	t.Helper()
	if r.Status != status {
		t.Errorf("%s: %s, want %s (found %q, fix %q)", r.ID, r.Status, status, r.Found, r.Fix)
	}
	all := r.Found + " | " + r.Expected + " | " + r.Fix
	for _, s := range substrings {
		if !strings.Contains(all, s) {
			t.Errorf("%s: %q does not mention %q", r.ID, all, s)
		}
	}
}

// pdOnly: the checks that apply to a node of a P/D spec only (a pool's NIXL
// checks; the router's program on the router's node).
func pdOnly(id string) bool {
	return id == "ports.nixl_side_channel" || id == "sw.nixl" || id == "sw.router"
}

// mnnvlOnly: the checks that apply to a node of a multi-node NVLink domain
// only (the H20 fixtures have none; gb200-nvl72 has them).
func mnnvlOnly(id string) bool { return id == "gpu.fabric" || id == "gpu.imex_channel" }
