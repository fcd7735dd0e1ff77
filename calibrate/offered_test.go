package calibrate

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
)

// A Poisson run that kept up with its arrivals delivers its offered load;
// the report says so instead of presenting it as a capacity measurement.
func TestOfferedLoadNote(t *testing.T) {
	rs, err := bench.ReadFile(filepath.Join("..", "bench", "testdata", "vllm-serve-poisson.txt"))
	if err != nil || len(rs) != 1 {
		t.Fatal(err, len(rs))
	}
	r := rs[0] // 4 req/s, 128 output tokens each, 507 tok/s delivered
	if got := offeredLoadNote(&r); !strings.Contains(got, "4 requests/s × 128 output tokens = 512 tok/s") {
		t.Errorf("kept up: note %q", got)
	}
	slow := r
	slow.OutputTokPerS = 300 // fell behind: the throughput is the server's
	if got := offeredLoadNote(&slow); got != "" {
		t.Errorf("fell behind: note %q, want none", got)
	}
	for _, l := range []bench.Load{{Kind: bench.LoadGamma, RatePerS: 4, Burstiness: 0.5, Prompts: 602},
		{Kind: bench.LoadCapped, RatePerS: 4, Concurrency: 32, Prompts: 602}} {
		open := r
		open.Load = l
		if got := offeredLoadNote(&open); !strings.Contains(got, "512 tok/s") {
			t.Errorf("%s: note %q", l, got)
		}
	}
	closed := r
	closed.Load = bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 600}
	if got := offeredLoadNote(&closed); got != "" {
		t.Errorf("closed loop: note %q, want none", got)
	}
}
