package lint

import (
	"strconv"
	"testing"
)

// TestMultiPortExternalLB: with --data-parallel-multi-port-external-lb
// every node runs a supervisor whose children serve one rank each (vLLM
// serve.py: a start rank no longer infers hybrid LB, --api-server-count
// defaults to 1), so two such nodes are not two primaries (VL205), a
// start rank on them is not hybrid LB (VL113) and the API-server default
// is not the DP size (VL215). The same nodes without the flag keep those
// findings.
func TestMultiPortExternalLB(t *testing.T) {
	node := func(start int, extra string) string {
		return "vllm serve m --enable-expert-parallel -dp 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1 " +
			"--data-parallel-rpc-port 5555 --data-parallel-start-rank " + strconv.Itoa(start) + " " + extra + "\n"
	}
	for _, tc := range []struct {
		name, extra string
		want        map[string]bool
	}{
		{"multi-port", "--data-parallel-multi-port-external-lb --data-parallel-supervisor-port 8008", map[string]bool{"VL205": false, "VL113": false, "VL215": false}},
		{"without the flag", "", map[string]bool{"VL205": true, "VL113": true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, err := Lint([]Input{{Name: "n0.sh", Data: []byte(node(0, tc.extra))}, {Name: "n1.sh", Data: []byte(node(8, tc.extra))}}, Options{Version: "0.22.1"})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]bool{}
			for _, d := range ds {
				got[string(d.Code)] = true
			}
			for code, want := range tc.want {
				if got[code] != want {
					t.Errorf("%s: found %v, want %v (all: %v)", code, got[code], want, ds)
				}
			}
		})
	}
}
