package generator

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestPDNoRouterSaid (newuser40 finding 9): a P/D bundle for Kubernetes
// without disaggregation.router.image has no router (writesVLLMRouter),
// and generate says so in its findings, at the router, not only in the
// README; with an image, or on bare metal, it does not; llm-d carries its
// own router.
func TestPDNoRouterSaid(t *testing.T) {
	for _, c := range []struct {
		spec, runtime, image string
		want                 bool
	}{
		{"pd", "kubernetes", "", true},
		{"pd", "kubernetes", "registry.example.com/vllm-router:v0.1.9", false},
		{"pd", "bare", "", false},
		{"pd-llmd", "kubernetes", "", false},
	} {
		d := loadSpec(t, c.spec)
		if c.image != "" {
			d.Disaggregation.Router.Image = c.image
		}
		b, ds := gen(t, d, Options{Runtime: c.runtime})
		if b == nil {
			t.Fatalf("%s %s: %v", c.spec, c.runtime, ds)
		}
		var got []diag.Diagnostic
		for _, f := range ds {
			if strings.Contains(f.Message, "bundle has no router") {
				got = append(got, f)
			}
		}
		if c.want != (len(got) == 1) || (c.want && (got[0].Severity != diag.Warning || got[0].Path != "disaggregation.router" || got[0].Line == 0)) {
			t.Errorf("%s %s image %q: want note %v, got %v", c.spec, c.runtime, c.image, c.want, got)
		}
		if _, hasRouter := fileMap(b)["router.yaml"]; c.runtime == "kubernetes" && c.spec == "pd" && hasRouter == c.want {
			t.Errorf("%s %s image %q: router.yaml written = %v, contradicting the note", c.spec, c.runtime, c.image, hasRouter)
		}
	}
}

// TestPoolFindingsOnce (newuser40 finding 11): a finding both pools make
// is one "both pools: " finding; a pool's own keeps its prefix.
func TestPoolFindingsOnce(t *testing.T) {
	same := diag.Diagnostic{Code: CodeRuntime, Path: "model.name", Message: "downloaded at every start"}
	own := diag.Diagnostic{Code: CodeRuntime, Path: "runtime.image", Message: "decode only"}
	ds := appendPoolFindings(nil, "prefill", diag.Diagnostics{same})
	ds = appendPoolFindings(ds, "decode", diag.Diagnostics{same, own})
	if len(ds) != 2 || ds[0].Message != "both pools: downloaded at every start" || ds[1].Message != "decode pool: decode only" {
		t.Errorf("got %v", ds)
	}
}

// fileMap indexes a bundle's files by path.
func fileMap(b *Bundle) map[string]bool {
	m := map[string]bool{}
	for _, f := range b.Files {
		m[f.Path] = true
	}
	return m
}
