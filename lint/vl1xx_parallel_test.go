package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestHeadlessCountSeverity: --api-server-count with --headless is an error
// where the release refuses it, a warning where no source says whether it
// does, and nothing where the release ignores the count.
func TestHeadlessCountSeverity(t *testing.T) {
	const script = "vllm serve m -dp 4 --data-parallel-size-local 2 --data-parallel-start-rank 2 --headless --api-server-count 1 --data-parallel-address 10.0.0.1\n"
	for v, want := range map[string]diag.Severity{"0.12.0": 0, "0.15.0": diag.Warning, "0.16.0": diag.Error} {
		ds, err := Lint([]Input{{Name: "n1.sh", Data: []byte(script)}}, Options{Version: v})
		if err != nil {
			t.Fatal(err)
		}
		got := diag.Severity(0) // none
		for _, d := range ds {
			if d.Code == codes.VLHeadless {
				got = d.Severity
			}
		}
		if got != want {
			t.Errorf("%s: VL112 severity %v, want %v (%v)", v, got, want, ds)
		}
	}
}
