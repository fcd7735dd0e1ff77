package estimate

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// TestPDTTFTAdviceFollowsTheBindingSide (qa44c F7): on the DeepSeek-V3
// P/D example (32 × H20) the decode pool's admission and first step sum
// 0.558 s of the 1.065 s mean TTFT, the prefill pool's queue and prompt
// 0.453 s (0.560 and 0.451 after session 44's step changes; the test asks
// that the decode pool's side is the larger). The TTFT verdicts are bound by the decode pool, and what it
// would take names the decode pool, never "more of the GPUs for the
// prefill pool", which would take them from the pool that binds.
// sides reads the prefill pool's and the decode pool's sums from a P/D
// TTFT explanation ("by side: prefill pool 0.451 s, …, decode pool 0.560
// s").
var sides = regexp.MustCompile(`by side: prefill pool (\d+\.\d{3}) s, hand-off \d+\.\d{3} s, decode pool (\d+\.\d{3}) s`)

func TestPDTTFTAdviceFollowsTheBindingSide(t *testing.T) {
	d, ds, err := validate.File(filepath.Join("..", "examples", "deepseek-v3-pd-32xh20.yaml"))
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	r := CheckPD(d, PerfOptions{Seed: 1})
	n := 0
	for _, v := range r.SLO {
		if !strings.HasPrefix(v.Name, "TTFT") || v.Verdict == "pass" {
			continue
		}
		n++
		m := sides.FindStringSubmatch(v.Explanation)
		if !strings.HasPrefix(v.Binding, "decode pool") || m == nil || !(num(m[2]) > num(m[1])) {
			t.Errorf("%s: bound by %q, want the decode pool: %s", v.Name, v.Binding, v.Explanation)
		}
		for _, w := range v.WouldPass {
			if strings.Contains(w, "GPUs for the prefill pool") || strings.HasPrefix(w, "disaggregation.prefill") {
				t.Errorf("%s: advice for the prefill pool although the decode pool binds: %s", v.Name, w)
			}
		}
		if !strings.Contains(strings.Join(v.WouldPass, " "), "faster GPUs for the decode pool") {
			t.Errorf("%s: advice %q does not name the decode pool's step", v.Name, v.WouldPass)
		}
	}
	if n == 0 {
		t.Fatal("no TTFT verdict short of its target: the example no longer exercises the binding")
	}
}

// num reads a figure the regexp matched.
func num(s string) float64 {
	x, _ := strconv.ParseFloat(s, 64)
	return x
}
