package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestFlagFormsByRelease: the release tags (tools/flagspans, flagspans45)
// show store_true switches that became BooleanOptionalAction later (no
// --no-x before) and short aliases added later; a spelling a release lacks
// is an error naming the release the spelling came in, not the flag's.
func TestFlagFormsByRelease(t *testing.T) {
	for _, tt := range []struct {
		v, script string
		want      diag.Severity
		text      string
	}{
		{"0.8.5", "vllm serve m --no-enforce-eager\n", diag.Error, "does not exist yet in vLLM 0.8.5 (added in 0.9.0)"},
		{"0.9.0", "vllm serve m --no-enforce-eager\n", 0, ""},
		{"0.8.5", "vllm serve m --enforce-eager\n", 0, ""},
		{"0.7.3", "vllm serve m --enable-expert-parallel\n", diag.Error, "(added in 0.8.0)"},
		{"0.8.3", "vllm serve m --no-enable-expert-parallel\n", diag.Error, "(added in 0.8.4)"},
		{"0.13.0", "vllm serve m -ep\n", diag.Error, "(added in 0.14.0)"},
		{"0.14.0", "vllm serve m -ep\n", 0, ""},
		{"0.6.4", "vllm serve m --no-enable-prefix-caching\n", diag.Error, "(added in 0.6.5)"},
	} {
		ds := findingsOf(t, tt.v, tt.script, codes.VLFlagVersion)
		if tt.want == 0 {
			if len(ds) != 0 {
				t.Errorf("%s %q: want no finding, got %v", tt.v, tt.script, ds)
			}
			continue
		}
		if len(ds) != 1 || ds[0].Severity != tt.want || !strings.Contains(ds[0].Message, tt.text) {
			t.Errorf("%s %q: got %v, want one %v containing %q", tt.v, tt.script, ds, tt.want, tt.text)
		}
	}
}
