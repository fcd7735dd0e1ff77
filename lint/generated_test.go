package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestGeneratedBundlesLintClean generates every example for every runtime
// and lints the whole bundle together — node scripts, manifests, the
// README's code blocks, the hosts table, the marker: what vlaunch writes
// must not trip vlaunch's own linter (no warnings or errors), and lint must
// read all of it: no file is "nothing in it was checked" (VL008, issue 25:
// the docker bundles' gdrcopy device array once hid their launch).
func TestGeneratedBundlesLintClean(t *testing.T) {
	examples, _ := filepath.Glob("../examples/*.yaml")
	for _, ex := range examples {
		for _, rt := range generator.Runtimes {
			t.Run(filepath.Base(ex)+"/"+rt, func(t *testing.T) {
				r, ds, err := validate.File(ex)
				if err != nil || ds.HasErrors() {
					t.Fatal(err, ds)
				}
				b, gds := generator.Generate(r, generator.Options{Runtime: rt})
				if gds.HasErrors() || b == nil {
					t.Skipf("not generated: %v", gds)
				}
				lintBundle(t, r.Spec, b)
			})
		}
	}
}

// lintBundle lints a generated bundle and fails on any warning or error,
// except the codes in told: findings the generator already reported to the
// user as warnings of its own (see TestGeneratedBundlesAcrossReleasesLintClean).
func lintBundle(t *testing.T, d *spec.Deployment, b *generator.Bundle, told ...diag.Code) {
	var inputs []Input
	launches, readme := 0, false
	for _, f := range b.Files {
		// The scripts and manifests are named as `vlaunch lint node0.sh`
		// names them: each must be read (no VL008). The README, hosts
		// table and marker come as `vlaunch lint bundle/` finds them.
		// A disaggregated bundle's router.sh starts the router and llm-d.yaml
		// holds llm-d's router (endpoint picker, InferencePool, HTTPRoute),
		// no vLLM server: each comes as the directory brings it.
		script := (strings.HasSuffix(f.Path, ".sh") || strings.HasSuffix(f.Path, ".yaml")) && f.Path != "router.sh" && f.Path != "llm-d.yaml"
		inputs = append(inputs, Input{Name: f.Path, Data: f.Data, InDirectory: !script})
		if script {
			launches++
		}
		readme = readme || f.Path == "README.md"
	}
	if launches == 0 || !readme {
		t.Fatalf("bundle has %d scripts or manifests, README %v", launches, readme)
	}
	// A disaggregated spec is compared pool by pool (assignPools), as
	// `vlaunch lint --spec` does.
	ds, err := Lint(inputs, Options{Spec: d, Capacity: testCapacity})
	if err != nil {
		t.Fatal(err)
	}
	for _, dg := range ds {
		if slices.Contains(told, dg.Code) {
			continue
		}
		if dg.Severity >= diag.Warning || dg.Code == codes.VLNoLaunch || dg.Code == codes.VLUnresolved {
			t.Errorf("%s", dg)
		}
	}
}

// TestGeneratedBundlesAcrossReleasesLintClean repeats the check above with
// each example moved to four releases of the table (the oldest, two between,
// the newest; issue 25): bundles written for another release must lint as
// clean for that release. A release that cannot serve an example (a spec
// error, a layout the generator cannot place) is skipped; most are not.
func TestGeneratedBundlesAcrossReleasesLintClean(t *testing.T) {
	rels := vllm.Releases()
	picks := []vllm.Release{rels[0], rels[len(rels)/3], rels[2*len(rels)/3], rels[len(rels)-1]}
	examples, _ := filepath.Glob("../examples/*.yaml")
	versionLine := regexp.MustCompile(`(?m)^(\s+version:\s*)"[^"]*"`)
	generated := 0
	for _, ex := range examples {
		data, err := os.ReadFile(ex)
		if err != nil {
			t.Fatal(err)
		}
		if !versionLine.Match(data) {
			t.Fatalf("%s: no vllm.version line to move", ex)
		}
		for _, rel := range picks {
			moved := dropUnreadEnv(rel, versionLine.ReplaceAll(data, []byte(`${1}"`+rel.Version.String()+`"`)))
			for _, rt := range generator.Runtimes {
				t.Run(filepath.Base(ex)+"/"+rel.Version.String()+"/"+rt, func(t *testing.T) {
					r, ds, err := validate.Bytes(ex, moved)
					if err != nil || r == nil || ds.HasErrors() {
						t.Skipf("%s does not validate for %s: %v", ex, rel.Version, ds)
					}
					b, gds := generator.Generate(r, generator.Options{Runtime: rt})
					if gds.HasErrors() || b == nil {
						t.Skipf("not generated: %v", gds)
					}
					generated++
					// vLLM 0.9.0-0.9.1 have no confirmed multi-node
					// all-to-all backend: `all2all_backend: auto` across
					// nodes takes naive and the generator says so (GEN004,
					// a warning), so lint's VL110 on the bundle repeats a
					// warning the user already had. Only then is VL110
					// tolerated here.
					var told []diag.Code
					for _, g := range gds {
						if g.Code == codes.GenAll2All && g.Severity == diag.Warning {
							told = append(told, codes.VLBackendSingleNode)
						}
					}
					lintBundle(t, r.Spec, b, told...)
				})
			}
		}
	}
	if want := len(examples) * len(generator.Runtimes) * len(picks) / 2; generated < want {
		t.Errorf("only %d bundles generated across releases, want at least %d", generated, want)
	}
}

// envLine is a one-variable flow map, `env: {NAME: "value"}`, as the
// examples write a pool's variables.
var envLine = regexp.MustCompile(`(?m)^\s*env:\s*\{\s*([A-Z][A-Z0-9_]*):\s*"[^"]*"\s*\}\s*\n`)

// dropUnreadEnv removes from a moved example the vLLM variables its new
// release does not read, as a user moving it would: the wide-EP example
// sets llm-d's VLLM_MOE_DP_CHUNK_SIZE, which PR #39107 removed (absent from
// 0.21.0's envs.py; factaudit2), and lint rightly reports it there (VL107).
func dropUnreadEnv(r vllm.Release, data []byte) []byte {
	return envLine.ReplaceAllFunc(data, func(line []byte) []byte {
		name := string(envLine.FindSubmatch(line)[1])
		if e, ok := vllm.KnownEnvEver(name); ok && e.Owner == "vllm" {
			if _, in := r.Env(name); !in {
				return nil
			}
		}
		return line
	})
}
