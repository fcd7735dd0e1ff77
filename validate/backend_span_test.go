package validate

import (
	"strings"
	"testing"
)

// TestBackendSpanText: a backend whose first release is not pinned is "not
// before A; first seen in B", never "available from A" (deepep_low_latency:
// not before 0.9.1, first seen in 0.9.2); a pinned one is "added in A".
func TestBackendSpanText(t *testing.T) {
	for _, c := range []struct{ version, backend, want string }{
		{"0.9.0", "deepep_low_latency", `vLLM 0.9.0 does not accept all2all backend "deepep_low_latency" (not before 0.9.1; first seen in 0.9.2)`},
		{"0.10.1", "allgather_reducescatter", `vLLM 0.10.1 does not accept all2all backend "allgather_reducescatter" (added in 0.11.0)`},
	} {
		src := edit(t, readBase(t), `version: "0.11.0"`, `version: "`+c.version+`"`+"\n  all2all_backend: "+c.backend)
		var got []string
		for _, d := range mustBytes(t, "spec.yaml", src) {
			if strings.Contains(d.Message, "all2all backend") {
				got = append(got, d.Message)
			}
		}
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%s %s: %q, want %q", c.version, c.backend, got, c.want)
		}
	}
}
