package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// findingsOf lints one script for a release and returns its findings with
// code.
func findingsOf(t *testing.T, v, script string, code diag.Code) diag.Diagnostics {
	t.Helper()
	ds, err := Lint([]Input{{Name: "n1.sh", Data: []byte(script)}}, Options{Version: v})
	if err != nil {
		t.Fatal(err)
	}
	var out diag.Diagnostics
	for _, d := range ds {
		if d.Code == code {
			out = append(out, d)
		}
	}
	return out
}

// TestUnverifiedFirstRelease: a flag or backend whose first release is
// unknown (only the release a source first shows it in) is an info on an
// earlier release, "cannot verify ... first seen in X", never an error
// (issue #23: --enable-elastic-ep was an error on every release before
// the 0.22.1 dump it was seen in; factaudit2 then read it in 0.19.0's
// arg_utils.py and not in the v0.16.0 release branch); from the release it
// was seen in on, nothing; before the earliest release the evidence
// allows, still an error. The release tags (tools/flagspans, flagspans45)
// pinned every flag and variable up to 0.24.0, so the info path is
// exercised by the backends here; the pinned flags and variables show the
// plain "does not exist yet".
func TestUnverifiedFirstRelease(t *testing.T) {
	const ep = "vllm serve m -dp 8 --enable-expert-parallel --enable-eplb --enable-elastic-ep\n"
	for _, tt := range []struct {
		v, script string
		code      diag.Code
		want      diag.Severity
		text      string
	}{
		// flagspans45: the release tags pin --enable-elastic-ep (absent at
		// v0.16.0, in arg_utils.py at v0.17.0), so no info is left: nothing
		// from 0.17.0 on, a plain "does not exist yet" before.
		{"0.18.1", ep, codes.VLFlagVersion, 0, ""},
		{"0.17.0", ep, codes.VLFlagVersion, 0, ""},
		{"0.16.0", ep, codes.VLFlagVersion, diag.Error, "does not exist yet in vLLM 0.16.0 (added in 0.17.0)"},
		{"0.19.0", ep, codes.VLFlagVersion, 0, ""},
		{"0.22.1", ep, codes.VLFlagVersion, 0, ""},
		{"0.31.0", ep, codes.VLFlagVersion, 0, ""},
		// --attention-config: pinned by the tags (flagspans45) to 0.13.0.
		{"0.13.0", "vllm serve m --attention-config '{}'\n", codes.VLFlagVersion, 0, ""},
		{"0.12.0", "vllm serve m --attention-config '{}'\n", codes.VLFlagVersion, diag.Error, "does not exist yet in vLLM 0.12.0 (added in 0.13.0)"},
		// A backend first seen later: info, not "not a backend of". choices45:
		// the tags' --all2all-backend choices pin the MoRI split (0.23.0) and
		// deepep_v2 (0.24.0), so those are plain from their first release and
		// an error before; every backend --all2all-backend takes (0.11.1 on)
		// now has its first release pinned, so no info is left for it.
		{"0.25.1", "vllm serve m -dp 8 --enable-expert-parallel --all2all-backend mori_low_latency\n", codes.VLBadChoice, 0, ""},
		{"0.23.0", "vllm serve m -dp 8 --enable-expert-parallel --all2all-backend mori_low_latency\n", codes.VLBadChoice, 0, ""},
		{"0.25.0", "vllm serve m -dp 8 --enable-expert-parallel --all2all-backend deepep_v2\n", codes.VLBadChoice, 0, ""},
		{"0.23.0", "vllm serve m -dp 8 --enable-expert-parallel --all2all-backend deepep_v2\n", codes.VLBadChoice, diag.Error, "deepep_v2"},
		// VLLM_ENGINE_READY_TIMEOUT_S: pinned by the tags' vllm/envs.py
		// (flagspans45: absent at v0.13.0, present at v0.14.0).
		{"0.13.0", "VLLM_ENGINE_READY_TIMEOUT_S=900 vllm serve m\n", codes.VLEnvName, diag.Warning, "does not exist yet in vLLM 0.13.0 (added in 0.14.0)"},
		{"0.14.0", "VLLM_ENGINE_READY_TIMEOUT_S=900 vllm serve m\n", codes.VLEnvName, 0, ""},
		// Once the release tags pin the first release (the graph-memory
		// variable: absent at v0.17.1, present at v0.18.0), nothing from it
		// on and a plain "does not exist yet" before it.
		{"0.18.0", "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 vllm serve m\n", codes.VLEnvName, 0, ""},
		{"0.17.1", "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 vllm serve m\n", codes.VLEnvName, diag.Warning, "does not exist yet in vLLM 0.17.1 (added in 0.18.0)"},
	} {
		ds := findingsOf(t, tt.v, tt.script, tt.code)
		if tt.want == 0 {
			if len(ds) != 0 {
				t.Errorf("%s %q: want no %s, got %v", tt.v, tt.script, tt.code, ds)
			}
			continue
		}
		if len(ds) != 1 || ds[0].Severity != tt.want || !strings.Contains(ds[0].Message, tt.text) {
			t.Errorf("%s %q: got %v, want one %s %v containing %q", tt.v, tt.script, ds, tt.code, tt.want, tt.text)
		}
	}
}

// TestDBOHighThroughputAccepted: DBO with deepep_high_throughput passes
// from 0.11.0 on: every release tag's assertion accepts it (qa44a F8; it
// was an info "first seen accepted in 0.17.1" while only a third-party
// note was read).
func TestDBOHighThroughputAccepted(t *testing.T) {
	const dbo = "vllm serve m -dp 8 --enable-expert-parallel --enable-dbo --all2all-backend deepep_high_throughput\n"
	for _, v := range []string{"0.11.1", "0.14.0", "0.17.1", "0.24.0"} {
		if ds := findingsOf(t, v, dbo, codes.VLDBO); len(ds) != 0 {
			t.Errorf("%s: %v, want none", v, ds)
		}
	}
}
