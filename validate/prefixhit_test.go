package validate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestPrefixHitRateUnmodelled: a written prefix_cache_hit_rate draws SPEC140
// at its own line (no prediction uses it, so the user must not read the
// verdicts as if it had been applied); without it, or at 0, nothing.
func TestPrefixHitRateUnmodelled(t *testing.T) {
	base := readBase(t)
	if ds := findCode(mustBytes(t, "base.yaml", base), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("no hit rate written: want no SPEC140, got\n%s", render(ds))
	}
	src := edit(t, base, "  output_tokens: 1024\n", "  output_tokens: 1024\n  prefix_cache_hit_rate: 0.5\n")
	ds := findCode(mustBytes(t, "hit.yaml", src), codes.SpecPrefixHitUnmodelled)
	if len(ds) != 1 || ds[0].Path != "workload.prefix_cache_hit_rate" || ds[0].Line != 22 || !strings.Contains(ds[0].Message, "not modelled") {
		t.Fatalf("hit rate 0.5: want one SPEC140 at workload.prefix_cache_hit_rate line 22, got\n%s", render(ds))
	}
	zero := edit(t, base, "  output_tokens: 1024\n", "  output_tokens: 1024\n  prefix_cache_hit_rate: 0\n")
	if ds := findCode(mustBytes(t, "zero.yaml", zero), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("hit rate 0: want no SPEC140, got\n%s", render(ds))
	}
}
