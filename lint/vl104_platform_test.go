package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestUnknownBackendOnVendorPlatform: an all-to-all backend no release
// lists is a warning on a CUDA build (newer vLLM adds backends before the
// table lists them), a note on another platform's build, whose vendor fork
// may register its own (a Hygon HCU build's deepep_auto, corpus case
// hcu-dsv4-mooncake-pd-one-node), as plugins register connectors (VL133).
func TestUnknownBackendOnVendorPlatform(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         diag.Severity
	}{
		{"cuda", "vllm serve m --data-parallel-size 4 --enable-expert-parallel --all2all-backend deepep_auto\n", diag.Warning},
		{"rocm", "export HIP_VISIBLE_DEVICES=0,1,2,3\nvllm serve m --data-parallel-size 4 --enable-expert-parallel --all2all-backend deepep_auto\n", diag.Info},
	} {
		ds, err := Lint([]Input{{Name: tc.name + ".sh", Data: []byte(tc.script)}}, Options{Version: "0.25.1"})
		if err != nil {
			t.Fatal(err)
		}
		var got []diag.Severity
		for _, d := range ds {
			if d.Code == "VL104" {
				got = append(got, d.Severity)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("%s: VL104 severities %v, want [%v]", tc.name, got, tc.want)
		}
	}
}
