package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// vl134 lints one script for a release and returns its VL134 findings.
func vl134(t *testing.T, version, script string) diag.Diagnostics {
	t.Helper()
	ds, err := Lint([]Input{{Name: "serve.sh", Data: []byte(script)}}, Options{Version: version})
	if err != nil {
		t.Fatal(err)
	}
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Code == codes.VLDCP {
			out = append(out, d)
		}
	}
	return out
}

// TestDCPAgreesWithVLLM: VL134 reports exactly the layouts vllm.DCPFits
// refuses (the facts live in vllm/facts_dcp.go; lint only applies them),
// for an MLA model and two GQA models of 8 and 4 KV heads, on a release
// that runs DCP for both.
func TestDCPAgreesWithVLLM(t *testing.T) {
	models := []string{"deepseek-ai/DeepSeek-V3", "meta-llama/Llama-3.1-70B-Instruct", "Qwen/Qwen3-235B-A22B"}
	checked, refused := 0, 0
	for _, repo := range models {
		m := catalogModel(t, repo)
		for _, tp := range []int{1, 2, 4, 8, 16} {
			for _, dcp := range []int{2, 3, 4, 8, 16} {
				script := fmt.Sprintf("vllm serve %s -tp %d -dcp %d\n", repo, tp, dcp)
				got := len(vl134(t, "0.11.1", script)) > 0
				want := !vllm.DCPFits(tp, dcp, m.NumKVHeads, m.IsMLA())
				if got != want {
					t.Errorf("%s TP %d DCP %d: VL134 %v, vllm.DCPFits refuses %v", repo, tp, dcp, got, want)
				}
				checked++
				if want {
					refused++
				}
			}
		}
	}
	if refused == 0 || refused == checked {
		t.Errorf("the grid must hold both sides: %d of %d refused", refused, checked)
	}
}

func catalogModel(t *testing.T, repo string) *catalog.Model {
	t.Helper()
	for _, m := range catalogModels() {
		if m.HFRepo == repo {
			return m
		}
	}
	t.Fatalf("%s not in the catalog", repo)
	return nil
}

// TestDCPSeverityFollowsCertainty: a GQA model named by its path is an
// error; one known only by --served-model-name a warning; a divisibility
// failure is an error even with no release stated (every release with the
// flag refuses it); GQA before 0.11.1 is an error naming the release.
func TestDCPSeverityFollowsCertainty(t *testing.T) {
	tests := []struct {
		name, version, script, msg string
		want                       diag.Severity
	}{
		{"path", "0.11.1", "vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 8 -dcp 2\n", "TP greater than the KV heads", diag.Error},
		{"served name", "0.11.1", "vllm serve /data/ckpt --served-model-name Llama-3.1-70B-Instruct -tp 8 -dcp 2\n", "8 KV heads", diag.Warning},
		{"limit", "0.11.1", "vllm serve Qwen/Qwen3-235B-A22B -tp 8 -dcp 4\n", "dcp <= TP / KV heads (2)", diag.Error},
		{"unstated divide", "", "vllm serve m -tp 8 -dcp 3\n", "does not divide --tensor-parallel-size 8", diag.Error},
		{"gqa release", "0.11.0", "vllm serve Qwen/Qwen3-235B-A22B -tp 8 -dcp 2\n", "vLLM 0.11.0 runs decode context parallelism only for MLA models", diag.Error},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := vl134(t, tt.version, tt.script)
			if len(got) != 1 || got[0].Severity != tt.want || !strings.Contains(got[0].Message, tt.msg) {
				t.Errorf("want one VL134 %v containing %q, got %v", tt.want, tt.msg, got)
			}
		})
	}
}

// TestGeneratedDCPBundlesLintClean: what generate writes for a DCP spec
// lints clean for every runtime, and the bundle carries the flag, so VL134
// read it: DeepSeek-V3 at TP8 + DCP8 on 0.11.0 (MLA; check_dcp.txtar's
// spec) and Qwen3-235B-A22B at TP8 + DCP2 on 0.11.1 (GQA, 4 KV heads: PR
// #24864's own layout).
func TestGeneratedDCPBundlesLintClean(t *testing.T) {
	const specFmt = `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: dcp}
model: {name: %s}
hardware:
  gpu: h200
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 8}
parallelism: {tensor: 8}
workload: {concurrency: 64, max_model_len: 32768, input_tokens: 8000, output_tokens: 1000}
vllm:
  version: "%s"
  decode_context_parallel_size: %d
`
	specs := []struct {
		model, version string
		dcp            int
	}{{"deepseek-v3", "0.11.0", 8}, {"qwen3-235b-a22b", "0.11.1", 2}}
	for _, sp := range specs {
		for _, rt := range generator.Runtimes {
			t.Run(sp.model+"/"+rt, func(t *testing.T) {
				r, ds, err := validate.Bytes("dcp.yaml", []byte(fmt.Sprintf(specFmt, sp.model, sp.version, sp.dcp)))
				if err != nil || r == nil || ds.HasErrors() {
					t.Fatalf("%v %v", err, ds)
				}
				b, gds := generator.Generate(r, generator.Options{Runtime: rt})
				if gds.HasErrors() || b == nil {
					t.Fatalf("not generated: %v", gds)
				}
				flag := fmt.Sprintf("decode-context-parallel-size %d", sp.dcp)
				found := false
				for _, f := range b.Files {
					found = found || strings.Contains(string(f.Data), flag)
				}
				if !found {
					t.Fatalf("no file of the bundle has --%s", flag)
				}
				lintBundle(t, r.Spec, b)
			})
		}
	}
}
