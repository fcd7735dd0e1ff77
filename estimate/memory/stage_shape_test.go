package memory

import (
	"reflect"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestStagesOfOneShapeAreEstimatedAlike: Estimate, which estimates each
// stage shape once, gives every stage exactly what estimating that stage
// alone gives — on models with dense and MoE layers (DeepSeek-V3) and with
// sliding-window layers (gpt-oss), for even and uneven splits and for
// pipelines longer than the model has layers (empty stages).
func TestStagesOfOneShapeAreEstimatedAlike(t *testing.T) {
	models := []resolve.QuickOptions{
		{Model: "deepseek-v3", GPU: "h200", TP: 8},
		{Model: "gpt-oss-20b", GPU: "h100", MaxModelLen: 65536},
	}
	for _, o := range models {
		for _, pp := range []int{1, 2, 4, 7, 61, 100} {
			in := *testinput.Quick(t, o)
			in.Layout.PP = pp
			r := Estimate(&in)
			stages := PPStages(in.Model.NumLayers, pp)
			if len(r.Stages) != len(stages) {
				t.Fatalf("%s PP %d: %d stages, want %d", o.Model, pp, len(r.Stages), len(stages))
			}
			for i, s := range stages {
				if want := stageMemory(&in, s); !reflect.DeepEqual(r.Stages[i], want) {
					t.Errorf("%s PP %d stage %d:\n got %+v\nwant %+v", o.Model, pp, i, r.Stages[i], want)
				}
			}
		}
	}
}
