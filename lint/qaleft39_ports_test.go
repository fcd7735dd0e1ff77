package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestRouterPortCollision (QA left 39 #2): VL212 sees what vllm-router
// binds: --port (default 30000) and --prometheus-port (default 29000,
// vllm-project/router@03e9af5c src/main.rs), against each other and
// against a vLLM server started alongside on the same host.
func TestRouterPortCollision(t *testing.T) {
	cases := []struct {
		name, script string
		want         int
	}{
		{"server on the metrics port", "vllm serve m --port 29000 &\nvllm-router --vllm-pd-disaggregation --prefill http://10.0.0.1:8100 --decode http://10.0.0.2:8100 --port 8000\n", 1},
		{"router port is the metrics port", "vllm-router --vllm-pd-disaggregation --prefill http://10.0.0.1:8100 --decode http://10.0.0.2:8100 --port 9000 --prometheus-port 9000\n", 1},
		{"server on the router's default port", "vllm serve m --port 30000 &\nvllm-router --worker-urls http://10.0.0.1:8100\n", 1},
		{"apart", "vllm serve m --port 8100 &\nvllm-router --worker-urls http://10.0.0.1:8100 --port 8000 --prometheus-port 29001\n", 0},
	}
	for _, c := range cases {
		ds, err := Lint([]Input{{Name: "run.sh", Data: []byte(c.script)}}, Options{Version: "0.11.0"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			if d.Code == codes.VLPortConflict {
				got = append(got, d.Message)
			}
		}
		if len(got) != c.want {
			t.Errorf("%s: VL212 %q, want %d", c.name, got, c.want)
		}
		for _, m := range got {
			if !strings.Contains(m, "vllm-router") {
				t.Errorf("%s: message does not name vllm-router: %s", c.name, m)
			}
		}
	}
}
