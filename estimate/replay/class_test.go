package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/estimate/band"
	"github.com/vlaunch/vlaunch/published"
)

// TestClassOfSGLangByDate: an SGLang row with no stated version is legacy
// when its source was published before SGLang's main became 0.5.0rc0
// (2025-08-08), current otherwise or when the date is unknown; a stated
// version decides by itself.
func TestClassOfSGLangByDate(t *testing.T) {
	for _, tc := range []struct {
		version, date string
		legacy        bool
	}{
		{"unknown", "2025-04-04", true},
		{"", "2025-08-07", true},
		{"unknown", "2025-08-08", false},
		{"unknown", "unknown", false},
		{"0.4.3.post2", "2026-01-01", true},
		{"0.5.2", "2025-01-01", false},
	} {
		r := published.Row{Engine: published.Engine{Name: "sglang", Version: tc.version}, SourceDate: tc.date}
		r.Model.Catalog = "deepseek-v3"
		r.Hardware.GPU = "h20"
		if got := ClassOf(r) == band.Legacy; got != tc.legacy {
			t.Errorf("sglang %q published %s: legacy %v, want %v", tc.version, tc.date, got, tc.legacy)
		}
	}
	set, err := published.Throughput()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range set.Rows {
		if r.Source == "tanjunchen-h20-1node" && r.Engine.Name == "sglang" && ClassOf(r) != band.Legacy {
			t.Errorf("row %s (SGLang, version unstated, published 2025-04-04) is %s, want legacy", r.ID, ClassOf(r))
		}
	}
}
