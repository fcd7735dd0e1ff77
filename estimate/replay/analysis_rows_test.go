package replay

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/published"
)

// replayed is one row an analysis test replays: the row, its outcome, the
// step model and the engine as the replay read them.
type replayed struct {
	Row  published.Row
	Out  Outcome
	Step *perf.StepModel
	Eng  engine
}

// replayRows replays, with the global constants and seed 1, every
// targetable row whose id starts with prefix (the analysis tests' loop).
func replayRows(t *testing.T, prefix string) []replayed {
	t.Helper()
	var out []replayed
	for _, r := range targetableRows(t) {
		if !strings.HasPrefix(r.ID, prefix) {
			continue
		}
		o, sm, e, err := runRow(r, perf.DefaultEfficiency, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, replayed{r, o, sm, e})
	}
	return out
}
