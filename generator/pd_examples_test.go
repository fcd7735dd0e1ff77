package generator

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// The P/D fixtures' Kubernetes bundles (the examples pinned: the H20
// reference and the wide-EP H200 deployment) validate against the vendored
// LeaderWorkerSet and core schemas, one LeaderWorkerSet per pool.
func TestPDKubeManifestsMatchSchemas(t *testing.T) {
	for _, fixture := range []string{"pd", "pd-wideep"} {
		b, _ := generate(t, fixture, "kubernetes")
		n := 0
		for _, f := range b.Files {
			if strings.HasSuffix(f.Path, "/lws.yaml") {
				checkKubeSchema(t, fixture+"/"+f.Path, f.Data)
				n++
			}
		}
		if n != 2 {
			t.Errorf("%s: %d LeaderWorkerSets, want one per pool", fixture, n)
		}
	}
}

// wideEPReleases are the releases the wide-EP P/D example is held to (issue
// #24: at least four from 0.10 to the newest): the first whose image ships
// DeepEP (0.10.2), the example's own, two between, and the newest.
var wideEPReleases = []string{"0.10.2", "0.11.0", "0.12.0", "0.18.1", ""}

// The wide-EP P/D example generates for every runtime under each of those
// releases; every bundle lints with no warning, every script passes bash -n
// and shellcheck, every LeaderWorkerSet its schemas.
func TestPDWideEPAcrossReleases(t *testing.T) {
	scripts := map[string][]byte{}
	for _, v := range wideEPReleases {
		for _, rt := range Runtimes {
			d := loadSpec(t, "pd-wideep")
			if v != "" {
				d.VLLM.Version = v
			} else {
				d.VLLM.Version = vllm.Newest().Version.String()
			}
			name := d.VLLM.Version + "-" + rt
			dropUnreadEnv(d)
			b, ds := gen(t, d, Options{Runtime: rt})
			if ds.HasErrors() || b == nil {
				t.Errorf("%s: not generated: %v", name, ds)
				continue
			}
			for _, g := range lintBundle(t, d, b) {
				if g.Severity >= diag.Warning {
					t.Errorf("%s: %s", name, g)
				}
			}
			for _, f := range b.Files {
				switch {
				case strings.HasSuffix(f.Path, ".sh"):
					scripts[name+"-"+strings.ReplaceAll(f.Path, "/", "-")] = f.Data
				case strings.HasSuffix(f.Path, "/lws.yaml"):
					checkKubeSchema(t, name+"/"+f.Path, f.Data)
				}
			}
		}
	}
	checkShell(t, scripts)
}

// dropUnreadEnv removes from the moved example the vLLM variables its
// release does not read, as a user moving it would: the example sets
// llm-d's VLLM_MOE_DP_CHUNK_SIZE, which PR #39107 removed (absent from
// 0.21.0's envs.py; factaudit2), and lint rightly reports it there.
func dropUnreadEnv(d *spec.Deployment) {
	r, _, err := vllm.ResolveString(d.VLLM.Version)
	if err != nil {
		return
	}
	envs := []map[string]string{d.VLLM.Env}
	if d.Disaggregation != nil {
		for _, role := range spec.Roles {
			if p := d.Disaggregation.Pool(role); p != nil {
				envs = append(envs, p.VLLM.Env)
			}
		}
	}
	for _, m := range envs {
		for k := range m {
			if e, ok := vllm.KnownEnvEver(k); ok && e.Owner == "vllm" {
				if _, in := r.Env(k); !in {
					delete(m, k)
				}
			}
		}
	}
}
