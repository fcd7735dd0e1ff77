package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestEncoderPlacement: a wrapper's vision encoder sits on every pipeline
// stage; vLLM's SigLIP and Qwen3-VL ViT linears are split over TP, Gemma
// 4's tower is whole on every GPU; Qwen3-VL's DeepStack buffers are
// levels × max_num_batched_tokens × hidden_size in the activation dtype.
func TestEncoderPlacement(t *testing.T) {
	gemma3, err := catalog.LoadHFConfig("../../catalog/testdata/hf/gemma-3-27b-it.reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	gemma4, err := catalog.LookupModel("gemma-4-26b-a4b")
	if err != nil {
		t.Fatal(err)
	}
	qwen, err := catalog.ParseHFConfig([]byte(qwen3VL8BConfig))
	if err != nil {
		t.Fatal(err)
	}
	// Hand counts (catalog TestEncoderCounts): totals and the TP-split part.
	const (
		gemma3Total, gemma3Split = 423060336.0, 27 * 15232592.0
		gemma4Total              = 572794416.0
		qwenTotal, qwenSplit     = 576388336.0, 27*15232592.0 + 4*40112640.0
	)
	g, _ := catalog.LookupGPU("h100")
	for _, tt := range []struct {
		name       string
		m          *catalog.Model
		tp, pp     int
		perGPU     float64
		deepStack  float64
		batchedTok int
	}{
		{"Gemma 3 TP1", gemma3, 1, 1, gemma3Total, 0, 0},
		{"Gemma 3 TP4", gemma3, 4, 1, gemma3Total - gemma3Split*3/4, 0, 0},
		{"Gemma 4 TP2 (replicated)", gemma4, 2, 1, gemma4Total, 0, 0},
		{"Qwen3-VL-8B TP2 PP2", qwen, 2, 2, qwenTotal - qwenSplit/2, 3 * 8192 * 4096, 8192},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := &input.Input{Model: tt.m, GPU: g, VLLMVersion: "0.19.0",
				Layout: input.Layout{TP: tt.tp, PP: tt.pp, DP: 1, Nodes: 1, GPUsPerNode: tt.tp * tt.pp}}
			util := 0.9
			es := resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 4096}
			if tt.batchedTok > 0 {
				es.MaxNumBatchedTokens = &tt.batchedTok
			}
			if ds := in.Resolve(es); ds.HasErrors() {
				t.Fatal(ds)
			}
			for _, s := range PPStages(tt.m.NumLayers, tt.pp) {
				var enc, deep float64
				var seen bool
				for _, sh := range Placement(in, s) {
					switch sh.Component {
					case CompEncoder:
						enc, seen = sh.ParamsPerGPU, true
						if sh.ParamsTotal != tt.m.Encoder.Params {
							t.Errorf("stage %d: total %.0f", s.Index, sh.ParamsTotal)
						}
					case CompDeepStack:
						deep = sh.Stored()
						if sh.ParamsPerGPU != 0 {
							t.Errorf("DeepStack buffers counted as parameters")
						}
					}
				}
				if !seen || math.Abs(enc-tt.perGPU) > 0.5 || deep != tt.deepStack {
					t.Errorf("stage %d: encoder %.0f per GPU (want %.0f), DeepStack %.0f (want %.0f)", s.Index, enc, tt.perGPU, deep, tt.deepStack)
				}
			}
		})
	}
	// A text model has neither.
	in := &input.Input{Model: mustModel(t, "qwen3-8b"), GPU: g, VLLMVersion: "0.19.0", Layout: input.Layout{TP: 1, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 1}}
	util := 0.9
	if ds := in.Resolve(resolve.EngineSettings{Weights: "auto", KVCacheDType: "auto", Util: &util, MaxModelLen: 4096}); ds.HasErrors() {
		t.Fatal(ds)
	}
	for _, sh := range Placement(in, Stage{End: in.Model.NumLayers}) {
		if sh.Component == CompEncoder || sh.Component == CompDeepStack {
			t.Errorf("text model has %s", sh.Component)
		}
	}
}

func mustModel(t *testing.T, id string) *catalog.Model {
	t.Helper()
	m, err := catalog.LookupModel(id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
