package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/validate"
)

// mooncakeSpec is plan/testdata/pd/pd-mooncake-2x8h200.yaml (gpt-oss-120b,
// 8 KV heads, MooncakeConnector) at release version, its decode pool on
// decodeTP GPUs per instance (8/decodeTP instances fill node1).
func mooncakeSpec(t *testing.T, version string, decodeTP int) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "pd", "pd-mooncake-2x8h200.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(src), `version: "0.22.1"`, `version: "`+version+`"`, 1)
	s = strings.Replace(s, "instances: 2\n    nodes: [node1]", fmt.Sprintf("instances: %d\n    nodes: [node1]", 8/decodeTP), 1)
	s = strings.Replace(s, "parallelism: {tensor: 4, pipeline: 1, data: 1}", fmt.Sprintf("parallelism: {tensor: %d, pipeline: 1, data: 1}", decodeTP), 1)
	return []byte(s)
}

// pdTPErrors are validate's SPEC128 errors at a pool's tensor size.
func pdTPErrors(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == diag.Error && d.Code == validate.CodePDPairing && strings.Contains(d.Path, "parallelism") {
			out = append(out, d.Message)
		}
	}
	return out
}

// TestPDMooncakeTPFollowsValidate: under MooncakeConnector plan pairs the
// pools' tensor sizes as validate does (vllm.PDTPPairing), not by NIXL's
// rule: at 0.16.0-0.18.x MooncakeConnector raises NotImplementedError for
// unequal sizes, so validate refuses the spec's own TP 1 x TP 4 and plan
// lists only equal sizes; from 0.19.0 (#36869) it pairs them and plan
// lists unequal ones. Every candidate, applied to the spec, passes
// validate's SPEC128 tensor check.
func TestPDMooncakeTPFollowsValidate(t *testing.T) {
	for _, c := range []struct {
		version string
		hetero  bool
	}{{"0.16.0", false}, {"0.18.0", false}, {"0.19.0", true}} {
		t.Run(c.version, func(t *testing.T) {
			_, ds, err := validate.Bytes("mc.yaml", mooncakeSpec(t, c.version, 4))
			if err != nil {
				t.Fatal(err)
			}
			if got := pdTPErrors(ds); (len(got) == 0) != c.hetero {
				t.Fatalf("validate on prefill TP 1 x decode TP 4: SPEC128 errors %q, want refused %t", got, !c.hetero)
			}
			src := mooncakeSpec(t, c.version, 1)
			d, ds, err := validate.Bytes("mc.yaml", src)
			if err != nil || ds.HasErrors() {
				t.Fatalf("%v %v", err, ds)
			}
			_, own, err := colocatedBase(d)
			if err != nil {
				t.Fatal(err)
			}
			cands := pdBounded(t, d)
			if len(cands) == 0 {
				t.Fatal("no P/D candidate fits")
			}
			unequal := 0
			for _, e := range cands {
				pre, dec := e.Settings.PD.Prefill.TP, e.Settings.PD.Decode.TP
				if pre != dec {
					unequal++
				}
				out, err := Apply(src, own, e.Settings)
				if err != nil {
					t.Fatal(err)
				}
				_, ds, err := validate.Bytes("applied.yaml", out)
				if err != nil {
					t.Fatal(err)
				}
				if got := pdTPErrors(ds); len(got) > 0 {
					t.Errorf("candidate prefill TP %d x decode TP %d: validate refuses it: %q", pre, dec, got)
				}
			}
			t.Logf("%d candidates, %d with unequal tensor sizes", len(cands), unequal)
			if (unequal > 0) != c.hetero {
				t.Errorf("%d candidates pair unequal tensor sizes, want some %t", unequal, c.hetero)
			}
		})
	}
}
