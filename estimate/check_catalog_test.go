package estimate

import (
	"encoding/json"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// Every catalog model on a few GPUs and layouts yields a performance report
// that encodes to JSON (no NaN or Inf anywhere) with positive step times.
func TestPerfFiniteForCatalog(t *testing.T) {
	layouts := []resolve.QuickOptions{{TP: 1}, {TP: 8}, {DP: 16, EP: true}, {TP: 2, PP: 2}}
	ran := 0
	for _, m := range catalog.Models() {
		for _, gpu := range []string{"h100-sxm", "h20-96g"} {
			for _, l := range layouts {
				l.Model, l.GPU, l.MaxModelLen, l.Concurrency, l.VLLMVersion = m.ID, gpu, 4096, 16, "0.11.0"
				in, ds := input.Quick(l)
				if ds.HasErrors() {
					continue
				}
				r := Check(&in)
				r.AddPerformance(&in, PerfOptions{Seed: 1, Requests: 200})
				if _, err := json.Marshal(r); err != nil {
					t.Fatalf("%s on %s %+v: %v", m.ID, gpu, l, err)
				}
				if st := r.Performance.Decode.Step.TotalS; !(st > 0) {
					t.Fatalf("%s on %s %+v: step %v", m.ID, gpu, l, st)
				}
				ran++
			}
		}
	}
	if ran < 100 {
		t.Fatalf("only %d combinations resolved", ran)
	}
}
