package validate

import (
	"os"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestPrefixHitRateNoEffect: a written prefix_cache_hit_rate draws SPEC140
// at its own line only where it has no effect — vLLM's prefix caching
// turned off by --no-enable-prefix-caching — since check and plan apply it
// with caching on (the V1 default); without it, or at 0, nothing.
func TestPrefixHitRateNoEffect(t *testing.T) {
	base := readBase(t)
	if ds := findCode(mustBytes(t, "base.yaml", base), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("no hit rate written: want no SPEC140, got\n%s", render(ds))
	}
	hit := edit(t, base, "  output_tokens: 1024\n", "  output_tokens: 1024\n  prefix_cache_hit_rate: 0.5\n")
	if ds := findCode(mustBytes(t, "hit.yaml", hit), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("hit rate 0.5 with prefix caching on (0.11.0's default): want no SPEC140, got\n%s", render(ds))
	}
	off := edit(t, hit, `extra_args: ["--enable-chunked-prefill"]`, `extra_args: ["--enable-chunked-prefill", "--no-enable-prefix-caching"]`)
	ds := findCode(mustBytes(t, "off.yaml", off), codes.SpecPrefixHitUnmodelled)
	if len(ds) != 1 || ds[0].Path != "workload.prefix_cache_hit_rate" || ds[0].Line != 22 || !strings.Contains(ds[0].Message, "prefix caching is off") {
		t.Fatalf("hit rate 0.5, caching off: want one SPEC140 'prefix caching is off' at workload.prefix_cache_hit_rate line 22, got\n%s", render(ds))
	}
	on := edit(t, off, `"--no-enable-prefix-caching"]`, `"--no-enable-prefix-caching", "--enable-prefix-caching"]`)
	if ds := findCode(mustBytes(t, "on.yaml", on), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("the last flag turns caching back on: want no SPEC140, got\n%s", render(ds))
	}
	zero := edit(t, off, "prefix_cache_hit_rate: 0.5", "prefix_cache_hit_rate: 0")
	if ds := findCode(mustBytes(t, "zero.yaml", zero), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("hit rate 0: want no SPEC140, got\n%s", render(ds))
	}
}

// TestPrefixHitRatePD: a disaggregated deployment's prefill pool applies
// the rate (estimate/pd's prefixRate), so with caching on a P/D spec's
// rate draws no SPEC140 (it said the pools did not read it, before pd43);
// with caching off it does, as for a colocated one.
func TestPrefixHitRatePD(t *testing.T) {
	src, err := os.ReadFile("testdata/pd-instances-layout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	hit := edit(t, string(src), "  output_tokens: 1000\n", "  output_tokens: 1000\n  prefix_cache_hit_rate: 0.5\n")
	if ds := findCode(mustBytes(t, "pd-hit.yaml", hit), codes.SpecPrefixHitUnmodelled); len(ds) != 0 {
		t.Fatalf("P/D, hit rate 0.5, caching on: want no SPEC140, got\n%s", render(ds))
	}
	off := edit(t, hit, "  version: \"0.22.1\"\n", "  version: \"0.22.1\"\n  extra_args: [\"--no-enable-prefix-caching\"]\n")
	ds := findCode(mustBytes(t, "pd-off.yaml", off), codes.SpecPrefixHitUnmodelled)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "prefix caching is off") {
		t.Fatalf("P/D, hit rate 0.5, caching off: want one SPEC140 'prefix caching is off', got\n%s", render(ds))
	}
}
