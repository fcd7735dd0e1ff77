package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestAPIServerCountWithStartRank: a primary with an explicit start rank
// starts its local DP size of API servers (vllm.Release.DefaultAPIServers),
// and VL215 says so rather than the global DP size.
func TestAPIServerCountWithStartRank(t *testing.T) {
	const flags = " --tensor-parallel-size 1 --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 --data-parallel-rpc-port 13345"
	for _, c := range []struct {
		name, node0, want string
	}{
		{"start rank 0", "vllm serve m --data-parallel-start-rank 0" + flags, "starts 8 API servers"},
		{"no start rank", "vllm serve m" + flags, "starts 16 API servers"},
	} {
		in := []Input{
			{Name: "node0.sh", Data: []byte(c.node0 + "\n")},
			{Name: "node1.sh", Data: []byte("vllm serve m --headless --data-parallel-start-rank 8" + flags + "\n")},
		}
		ds, err := Lint(in, Options{Version: "0.29.0"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			if d.Code == codes.VLAPIServerCount {
				got = append(got, d.Message)
			}
		}
		if len(got) != 1 || !strings.Contains(got[0], c.want) {
			t.Errorf("%s: VL215 %q, want one saying %q", c.name, got, c.want)
		}
	}
}
