package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// severityOf lints one script for a release and returns the severity of
// its finding with code, 0 when there is none.
func severityOf(t *testing.T, v, script string, code diag.Code) diag.Severity {
	t.Helper()
	ds, err := Lint([]Input{{Name: "n1.sh", Data: []byte(script)}}, Options{Version: v})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Code == code {
			return d.Severity
		}
	}
	return 0
}

// TestHeadlessCountSeverity: --api-server-count with --headless is an error
// where the release refuses it, a warning where no source says whether it
// does, and nothing where the release ignores the count. qa44a F7: the
// v0.15.0 tag's serve.py raises the ValueError and v0.14.1's ignores the
// count, so 0.15.0 is an error and 0.14.1 nothing.
func TestHeadlessCountSeverity(t *testing.T) {
	const script = "vllm serve m -dp 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --headless --api-server-count 1 --data-parallel-address 10.0.0.1\n"
	for v, want := range map[string]diag.Severity{"0.12.0": 0, "0.14.1": 0, "0.15.0": diag.Error, "0.16.0": diag.Error} {
		if got := severityOf(t, v, script, codes.VLHeadless); got != want {
			t.Errorf("%s: VL112 severity %v, want %v", v, got, want)
		}
	}
}

// TestDBOSeverity: VL120 follows vllm.Release.DBORequirement: the backends
// the release's assertion accepts pass (read at the tags: both DeepEP
// backends from 0.11.0, nixl_ep from 0.24.0, qa44a F8); any other is an
// error, and its message lists every backend the release accepts.
func TestDBOSeverity(t *testing.T) {
	const dbo = "vllm serve m -dp 8 --enable-expert-parallel --enable-dbo --all2all-backend "
	for _, tt := range []struct {
		v, backend string
		want       diag.Severity
	}{
		{"0.11.1", vllm.BackendDeepEPLowLatency, 0},
		{"0.11.1", vllm.BackendDeepEPHighThroughput, 0},
		{"0.13.0", vllm.BackendDeepEPHighThroughput, 0},
		{"0.17.0", vllm.BackendDeepEPHighThroughput, 0},
		{"0.17.1", vllm.BackendDeepEPHighThroughput, 0},
		{"0.23.0", vllm.BackendNixlEP, diag.Error},
		{"0.24.0", vllm.BackendNixlEP, 0},
		{"0.22.1", vllm.BackendDeepEPHighThroughput, 0},
		{"0.22.1", vllm.BackendAllgatherReducescatter, diag.Error},
		{"0.11.1", vllm.BackendPPLX, diag.Error},
	} {
		if got := severityOf(t, tt.v, dbo+tt.backend+"\n", codes.VLDBO); got != tt.want {
			t.Errorf("%s %s: VL120 severity %v, want %v", tt.v, tt.backend, got, tt.want)
		}
	}
	ds, err := Lint([]Input{{Name: "n1.sh", Data: []byte(dbo + vllm.BackendAllgatherReducescatter + "\n")}}, Options{Version: "0.24.0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Code == codes.VLDBO && !strings.Contains(d.Message, "nixl_ep") {
			t.Errorf("0.24.0 VL120 message leaves out nixl_ep: %s", d.Message)
		}
	}
}

// TestBackendPrecedence: the backend a server runs follows vLLM's
// precedence (vllm.Release.All2AllSelected), position included.
func TestBackendPrecedence(t *testing.T) {
	for _, tt := range []struct {
		v, script, want string
		set             bool
	}{
		{"0.11.1", "VLLM_ALL2ALL_BACKEND=naive vllm serve m --all2all-backend deepep_low_latency\n", "deepep_low_latency", true},
		{"0.11.1", "VLLM_ALL2ALL_BACKEND=naive vllm serve m\n", "naive", true},
		// 0.11.0 has no flag (vLLM refuses it, VL102): the variable decides.
		{"0.11.0", "VLLM_ALL2ALL_BACKEND=naive vllm serve m --all2all-backend deepep_low_latency\n", "naive", true},
		{"0.11.0", "vllm serve m\n", vllm.BackendAllgatherReducescatter, false},
		{"0.22.1", "VLLM_ALL2ALL_BACKEND=naive vllm serve m\n", vllm.BackendAllgatherReducescatter, false}, // the variable is gone
	} {
		invs, _, _ := launch.ParseShell("t.sh", []byte(tt.script))
		r, _, err := vllm.ResolveString(tt.v)
		if err != nil || len(invs) != 1 {
			t.Fatalf("%s %q: %v %d", tt.v, tt.script, err, len(invs))
		}
		name, _, set := newServer(invs[0], r, true).Backend()
		if name != tt.want || set != tt.set {
			t.Errorf("%s %q: %s (set %v), want %s (set %v)", tt.v, tt.script, name, set, tt.want, tt.set)
		}
	}
}
