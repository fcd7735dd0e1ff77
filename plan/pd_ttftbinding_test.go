package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
)

// TestPDBoundTTFTBinding: an unsimulated P/D candidate's TTFT verdict names
// the binding check's rule gives its bound's parts (pd.Bound.TTFTBinding,
// a side and its largest part), never the bare "prefill" plan hard-coded.
func TestPDBoundTTFTBinding(t *testing.T) {
	for _, name := range []string{"deepseek-v3-pd-32xh20", "pd/pd-short-prompts"} {
		d, _, _ := pdSpec(t, name)
		slots := slotsOf(d)
		seen := 0
		for _, e := range pdBounded(t, d) {
			for i, s := range slots {
				if s.kind != kindTTFT {
					continue
				}
				got, want := e.SLO[i].Binding, e.pd.bound.TTFTBinding(s.inputTokens)
				side := strings.HasPrefix(got, pd.BindPrefill+": ") || strings.HasPrefix(got, pd.SideHandoff+": ") || strings.HasPrefix(got, pd.BindDecode+": ")
				if got != want || !side {
					t.Fatalf("%s: %s: TTFT at %d tokens bound by %q, want %q (a side: its part)", name, e.Settings, s.inputTokens, got, want)
				}
				seen++
			}
		}
		if seen == 0 {
			t.Fatalf("%s: no TTFT verdict checked", name)
		}
	}
}
