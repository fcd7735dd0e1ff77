package resolve

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
)

// TestChainAcceptance: the chain model and its inverse agree, and the
// published defaults reproduce the figures they come from.
func TestChainAcceptance(t *testing.T) {
	for _, n := range []int{1, 2, 3, 5} {
		for _, p := range []float64{0, 0.3, 0.55, 0.85, 1} {
			x := ChainAcceptance(p, n)
			if got := PerPositionAcceptance(x, n); math.Abs(got-p) > 1e-9 {
				t.Errorf("n %d p %v: x %v inverts to %v", n, p, x, got)
			}
		}
	}
	for _, tt := range []struct {
		method string
		n      int
		want   float64
	}{{SpecMTP, 1, 1.85}, {SpecMTP, 2, 2.5725}, {SpecEagle3, 3, 2.39}} {
		s, err := SpeculativeAcceptance(tt.method, tt.n, nil)
		if err != nil || s.From != SourceAssumed || math.Abs(s.Value-tt.want) > 0.02 || !strings.Contains(s.Why, "PR #") && !strings.Contains(s.Why, "DeepSeek-V3") {
			t.Errorf("%s ×%d: %+v %v, want ≈%v with its source", tt.method, tt.n, s, err, tt.want)
		}
	}
	for _, m := range []string{SpecNgram, SpecDraftModel} {
		if _, err := SpeculativeAcceptance(m, 3, nil); err == nil {
			t.Errorf("%s: a default acceptance without a published figure", m)
		}
	}
	x := 3.5
	if _, err := SpeculativeAcceptance(SpecMTP, 2, &x); err == nil {
		t.Error("3.5 tokens per step from 2 drafts accepted")
	}
}

// TestSpeculativeResolves: the release's method name, the proposer of each
// method, and a search varying the draft length.
func TestSpeculativeResolves(t *testing.T) {
	v3, _ := catalog.LookupModel("deepseek-v3")
	llama, _ := catalog.LookupModel("llama-3.1-8b")
	g, _ := catalog.LookupGPU("h200")
	build := func(m *catalog.Model, version string, s *spec.Speculative, draft *catalog.Model) (*Deployment, error) {
		r, ver, notes, err := Release(version)
		if err != nil {
			t.Fatal(err)
		}
		return Build(Parts{Model: m, GPU: g, Release: r, Version: ver, VersionNotes: notes}, Layout{TP: 8, PP: 1, DP: 1, Nodes: 1, GPUsPerNode: 8},
			Network{}, spec.Workload{}, EngineSettings{Weights: "auto", KVCacheDType: "auto", MaxModelLen: 8192, Speculative: s, Draft: draft})
	}
	d, err := build(v3, "0.10.1", &spec.Speculative{Method: SpecMTP, NumSpeculativeTokens: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := d.Engine.Speculative
	if s.VLLMMethod != "deepseek_mtp" || s.Draft.Layers.NumLayers != 1 || !s.Draft.Layers.IsMoELayer(0) || s.Draft.HeadCopies != 1 || s.Draft.WeightsDType != "fp8" {
		t.Errorf("MTP on 0.10.1: %+v, drafter %+v", s, s.Draft)
	}
	if a := d.Settings(); a[len(a)-1].Name != "mean_acceptance_length" || !strings.Contains(a[len(a)-1].Why, "mean acceptance length 1.85") {
		t.Errorf("settings %v lack the acceptance", a)
	}
	d2 := d.WithSpeculativeTokens(3)
	if s2 := d2.Engine.Speculative; s2.NumTokens != 3 || math.Abs(s2.Acceptance.Value-ChainAcceptance(0.85, 3)) > 1e-9 || d.Engine.Speculative.NumTokens != 1 {
		t.Errorf("WithSpeculativeTokens: %+v (original %d)", s2, d.Engine.Speculative.NumTokens)
	}
	if _, err := build(llama, "0.11.0", &spec.Speculative{Method: SpecMTP, NumSpeculativeTokens: 1}, nil); err == nil {
		t.Error("mtp on a model without MTP layers resolved")
	}
	d, err = build(llama, "0.11.0", &spec.Speculative{Method: SpecEagle3, NumSpeculativeTokens: 3, DraftModel: &spec.DraftModel{Path: "x/eagle3"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if dr := d.Engine.Speculative.Draft; dr.Layers.NumLayers != 1 || dr.HeadCopies != 1 || !dr.SharesEmbedding || !strings.HasPrefix(dr.Why, "assumed") || d.Engine.Speculative.DraftPath != "x/eagle3" {
		t.Errorf("EAGLE-3 without a config: %+v", dr)
	}
	x := 1.6
	d, err = build(llama, "0.11.0", &spec.Speculative{Method: SpecNgram, NumSpeculativeTokens: 2, MeanAcceptanceLength: &x}, nil)
	if err != nil || d.Engine.Speculative.Draft != nil || d.Engine.Speculative.Acceptance.From != SourceSpec {
		t.Errorf("ngram: %+v %v", d.Engine.Speculative, err)
	}
}
