package generator

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/spec"
)

// TestBundlesPassLint runs vlaunch's own linter over every generated bundle:
// the generator and the linter share package vllm, so a generated bundle
// with a lint error means one of them is wrong.
func TestBundlesPassLint(t *testing.T) {
	for _, tc := range goldenCases {
		for _, rt := range Runtimes {
			d := loadSpec(t, tc.spec)
			if !runsOn(d, rt) {
				continue
			}
			b, ds := gen(t, d, Options{Runtime: rt})
			if ds.HasErrors() {
				t.Fatal(ds)
			}
			var in []lint.Input
			for _, f := range b.Files {
				if f.Path != "README.md" && f.Path != "hosts" && f.Path != MarkerFile {
					in = append(in, lint.Input{Name: f.Path, Data: f.Data})
				}
			}
			got, err := lint.Lint(in, lint.Options{Spec: d})
			if err != nil {
				t.Fatalf("%s/%s: %v", tc.name, rt, err)
			}
			for _, g := range got {
				if g.Severity >= diag.Warning {
					t.Logf("%s/%s: %s", tc.name, rt, g)
				}
			}
			if got.HasErrors() {
				t.Errorf("%s/%s: lint reports errors on a generated bundle", tc.name, rt)
			}
		}
	}
}

// lintBundle lints a bundle's launch files against its spec.
func lintBundle(t *testing.T, d *spec.Deployment, b *Bundle) diag.Diagnostics {
	t.Helper()
	var in []lint.Input
	for _, f := range b.Files {
		if f.Path != "README.md" && f.Path != "hosts" && f.Path != MarkerFile {
			in = append(in, lint.Input{Name: f.Path, Data: f.Data})
		}
	}
	got, err := lint.Lint(in, lint.Options{Spec: d})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestExtraArgsAgreeWithLint: the generator refuses exactly the extra_args
// its own linter would report as errors in the bundle (and warns where it
// cannot tell), so `generate` never writes a bundle `lint` rejects.
func TestExtraArgsAgreeWithLint(t *testing.T) {
	for _, tt := range []struct {
		args    []string
		refused bool
	}{
		{[]string{"--disable-log-stats"}, false}, // a switch no typed field writes (--enforce-eager is vllm.enforce_eager's: refused)
		{[]string{"--enforce-eager", "true"}, true},
		{[]string{"--enforce-eager=true"}, true},
		{[]string{"stray"}, true},
		{[]string{"--max-log-len", "10"}, false},
		{[]string{"--max-log-len"}, true},
		{[]string{"--max-log-len=10"}, false},
		{[]string{"--chat-template", "$(touch x)"}, false},
		{[]string{"--not-a-flag-vlaunch-knows", "2"}, false},
		{[]string{"--swap-space", "4"}, false}, // exists in 0.11.0
		{[]string{"-O3"}, false},
		{[]string{"--seed", "-1"}, false},
		{[]string{"--disable-log-requests", "--uvicorn-log-level", "warning"}, false},
	} {
		for _, rt := range Runtimes {
			d := loadSpec(t, "reference")
			d.VLLM.ExtraArgs = tt.args
			b, ds := gen(t, d, Options{Runtime: rt})
			if refused := b == nil; refused != tt.refused {
				t.Errorf("%q/%s: refused=%v, want %v: %v", tt.args, rt, refused, tt.refused, ds)
				continue
			}
			if lintsArgs(t, d.VLLM.Version, tt.args) != tt.refused {
				t.Errorf("%q: lint of a plain `vllm serve` with these arguments disagrees (refused=%v)", tt.args, tt.refused)
			}
			if b == nil {
				if !hasCode(ds, CodeExtraArg) {
					t.Errorf("%q/%s: refused without %s: %v", tt.args, rt, CodeExtraArg, ds)
				}
				continue
			}
			if got := lintBundle(t, d, b); got.HasErrors() {
				t.Errorf("%q/%s: generated, but lint reports errors: %v", tt.args, rt, got)
			}
		}
	}
}

// lintsArgs reports whether lint finds an error in `vllm serve MODEL ARGS`.
func lintsArgs(t *testing.T, version string, args []string) bool {
	t.Helper()
	return len(lintCodes(t, version, args)) > 0
}

// lintCodes are the codes of lint's errors in `vllm serve MODEL ARGS`.
func lintCodes(t *testing.T, version string, args []string) []string {
	t.Helper()
	cmd, err := shellWords(words(append([]string{"vllm", "serve", "/models/x"}, args...)...), "  ")
	if err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/bash\n# vlaunch:vllm-version=" + version + "\n" + cmd + "\n"
	got, err := lint.Lint([]lint.Input{{Name: "serve.sh", Data: []byte(script)}}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, g := range got {
		if g.Severity == diag.Error {
			codes = append(codes, string(g.Code))
		}
	}
	return codes
}
