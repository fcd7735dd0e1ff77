package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestLBModesSeverityByRelease: hybrid LB with external LB is an error
// where the release refuses the pair (vllm.Release.LBConflict: serve.py from
// 0.16.0, EngineArgs from 0.28.0, read at the v0.28.0 tag), a warning where
// vLLM starts and drops one mode (before 0.13.0) or the check's first
// release is not pinned (0.13.0-0.15.x). Multi-port with another mode stays
// an error on every release.
func TestLBModesSeverityByRelease(t *testing.T) {
	const pair = "vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 1 --data-parallel-address 10.0.0.1 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-external-lb --data-parallel-rank 0\n"
	const multi = "vllm serve deepseek-ai/DeepSeek-V3 -dp 8 -dpl 2 --data-parallel-address 10.0.0.1 --enable-expert-parallel --data-parallel-hybrid-lb --data-parallel-multi-port-external-lb\n"
	tests := []struct {
		version, script string
		want            diag.Severity
	}{
		{"0.12.0", pair, diag.Warning},
		{"0.14.0", pair, diag.Warning},
		{"0.16.0", pair, diag.Error},
		{"0.28.0", pair, diag.Error},
		{"0.34.0", pair, diag.Error},
		{"0.22.1", multi, diag.Error},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			ds, err := Lint([]Input{{Name: "serve.sh", Data: []byte(tt.script)}}, Options{Version: tt.version})
			if err != nil {
				t.Fatal(err)
			}
			var got []diag.Severity
			for _, d := range ds {
				if d.Code == codes.VLLBModes {
					got = append(got, d.Severity)
				}
			}
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("VL122 severities %v, want [%v]\n%s", got, tt.want, ds)
			}
		})
	}
}
