package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// replicaScript is one node of a two-node DP deployment whose primary is at
// primary; start is its first DP rank.
func replicaScript(replica, primary, self string, start int) string {
	var b strings.Builder
	b.WriteString("#!/usr/bin/env bash\n")
	if replica != "" {
		b.WriteString("# vlaunch:replica=" + replica + "\n")
	}
	b.WriteString("export VLLM_HOST_IP=" + self + "\n")
	b.WriteString("vllm serve m --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address " + primary +
		" --data-parallel-rpc-port 13345 --enable-expert-parallel")
	if start > 0 {
		b.WriteString(" --headless --data-parallel-start-rank 8")
	}
	b.WriteString("\n")
	return b.String()
}

// TestReplicaDirective: two independent replicas of two nodes each are two
// deployments when their files say so (# vlaunch:replica=N), and when each
// pair meets at a coordinator of its own that starts its own rank 0 (the
// addresses say so: splitByEndpoint, lint42); without the directive, the
// same four files pointed at one coordinator are one deployment with two
// primaries and mismatched ranks.
func TestReplicaDirective(t *testing.T) {
	files := func(tag bool, second string) []Input {
		r := func(s string) string {
			if tag {
				return s
			}
			return ""
		}
		return []Input{
			{Name: "node0.sh", Data: []byte(replicaScript(r("1"), "10.0.0.1", "10.0.0.1", 0))},
			{Name: "node1.sh", Data: []byte(replicaScript(r("1"), "10.0.0.1", "10.0.0.2", 8))},
			{Name: "node2.sh", Data: []byte(replicaScript(r("2"), second, "10.0.0.3", 0))},
			{Name: "node3.sh", Data: []byte(replicaScript(r("2"), second, "10.0.0.4", 8))},
		}
	}
	codes := func(ds diag.Diagnostics) map[diag.Code]bool {
		out := map[diag.Code]bool{}
		for _, d := range ds {
			if d.Severity == diag.Error {
				out[d.Code] = true
			}
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		tag    bool
		second string
	}{{"replicas tagged", true, "10.0.0.3"}, {"replicas at their own coordinators", false, "10.0.0.3"}} {
		ds, err := Lint(files(tt.tag, tt.second), Options{Version: "0.11.0"})
		if err != nil {
			t.Fatal(err)
		}
		if got := codes(ds); len(got) > 0 {
			t.Errorf("%s: errors %v\n%v", tt.name, got, ds)
		}
	}
	untagged, err := Lint(files(false, "10.0.0.1"), Options{Version: "0.11.0"})
	if err != nil {
		t.Fatal(err)
	}
	if got := codes(untagged); !got["VL205"] && !got["VL203"] {
		t.Errorf("the same files at one coordinator without the directive: want the one-deployment errors (VL203/VL205), got %v", untagged)
	}
}
