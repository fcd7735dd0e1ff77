package plan

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/validate"
)

// TestPrefetchChangesNothing plans a P/D-capable spec with and without
// runAhead's prefetching: the simulations started ahead are pure
// functions of their candidates, so the result, its statistics (what was
// simulated) included, must be the same.
func TestPrefetchChangesNothing(t *testing.T) {
	path := filepath.Join("..", "examples", "gpt-oss-120b-pd-1node-8xh100.yaml")
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatal(err, ds)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	plan := func(on bool) []byte {
		defer func(was bool) { usePrefetch = was }(usePrefetch)
		usePrefetch = on
		res := Plan(d, Options{Seed: 1, File: path, Source: src})
		if res.PD.Simulated == 0 {
			t.Fatal("no P/D candidate simulated: the test no longer covers P/D batches")
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	off, on := plan(false), plan(true)
	if string(off) != string(on) {
		t.Errorf("prefetching moved the plan:\noff %s\non  %s", off, on)
	}
}
