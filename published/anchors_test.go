package published

import (
	"strings"
	"testing"
)

func TestEmbeddedAnchorsAreValid(t *testing.T) {
	a, err := Anchors()
	if err != nil {
		t.Fatal(err)
	}
	th := mustLoad(t)
	cells := map[string]bool{}
	for _, x := range a.Anchors {
		r, _ := a.Row(x.Row, th)
		v, _ := r.Figure(x.Figure)
		t.Logf("%s: %s = %s (%s, counts %v)", x.ID, x.Figure, v, x.Row, x.Counts)
		cells[x.Model+" "+x.GPU+" "+x.Regime] = true
	}
	if len(a.Gaps) == 0 && len(cells) < 8 {
		t.Errorf("the anchors cover %d of the 8 model × GPU × regime cells and list no gap", len(cells))
	}
}

// anchorMinimal is one anchor on the minimal throughput set's row.
const anchorMinimal = `schema: vlaunch/calibration-anchors/v1
anchors:
- id: a-1
  model: dense-8b
  gpu: h200
  regime: decode
  batch: 8
  row: row-a
  figure: tpot_ms.mean
  held_out: true
  counts: false
  why: test
gaps:
- cell: dense 70B
  searched: everywhere
`

func TestAnchorProblems(t *testing.T) {
	th := parseMinimal(t)
	cases := []struct {
		name   string
		mutate func(*AnchorSet, *Set)
		want   string
	}{
		{"valid", func(*AnchorSet, *Set) {}, ""},
		{"wrong schema", func(a *AnchorSet, _ *Set) { a.Schema = "v0" }, "schema is"},
		{"unknown row", func(a *AnchorSet, _ *Set) { a.Anchors[0].Row = "nope" }, "in neither"},
		{"gpu differs from the row's", func(a *AnchorSet, _ *Set) { a.Anchors[0].GPU = "b200" }, `ran on "h200"`},
		{"figure of the other regime", func(a *AnchorSet, _ *Set) { a.Anchors[0].Figure = "ttft_ms.mean" }, "not one a decode anchor names"},
		{"figure not published", func(a *AnchorSet, _ *Set) { a.Anchors[0].Figure = "tpot_ms.median" }, "does not publish tpot_ms.median"},
		{"unknown regime", func(a *AnchorSet, _ *Set) { a.Anchors[0].Regime = "mixed" }, `regime "mixed"`},
		{"unknown model class", func(a *AnchorSet, _ *Set) { a.Anchors[0].Model = "moe" }, `model "moe"`},
		{"prefill without prompt length", func(a *AnchorSet, _ *Set) {
			a.Anchors[0].Regime, a.Anchors[0].Figure = RegimePrefill, "ttft_ms.mean"
		}, "needs prompt_tokens"},
		{"row not held out, unsaid", func(_ *AnchorSet, s *Set) { s.Rows[0].Split = SplitCalibration }, "held_out is true, but row row-a is in the calibration split"},
		{"row not held out, said", func(a *AnchorSet, s *Set) {
			s.Rows[0].Split, a.Anchors[0].HeldOut = SplitCalibration, false
		}, ""},
		{"fit and figure", func(a *AnchorSet, _ *Set) { a.Anchors[0].Fit = &AnchorFit{FitITLSlope, N(1e-5), N(256), N(1000)} }, "not both"},
		{"fit without range", func(a *AnchorSet, _ *Set) {
			a.Anchors[0].Figure, a.Anchors[0].Fit = "", &AnchorFit{FitITLIntercept, N(6), N(256), Num{}}
		}, "swept input range"},
		{"fit of an unknown parameter", func(a *AnchorSet, _ *Set) {
			a.Anchors[0].Figure, a.Anchors[0].Fit = "", &AnchorFit{"ttft_quadratic", N(6), N(256), N(1000)}
		}, `fit.parameter "ttft_quadratic"`},
		{"fit on a loaded run", func(a *AnchorSet, _ *Set) {
			a.Anchors[0].Figure, a.Anchors[0].Fit = "", &AnchorFit{FitITLIntercept, N(6), N(256), N(1000)}
		}, "not a closed loop of one"},
		{"row incomplete", func(_ *AnchorSet, s *Set) { s.Rows[0].Incomplete = "batch unknown" }, "is incomplete"},
		{"duplicate anchor", func(a *AnchorSet, _ *Set) { a.Anchors = append(a.Anchors, a.Anchors[0]) }, "duplicate id"},
		{"no why", func(a *AnchorSet, _ *Set) { a.Anchors[0].Why = " " }, "no why"},
		{"gap without search", func(a *AnchorSet, _ *Set) { a.Gaps[0].Searched = "" }, "gap 1"},
		{"own row reusing a throughput id", func(a *AnchorSet, s *Set) {
			a.Sources = s.Sources
			a.Rows = s.Rows
		}, "id also used in throughput.yaml"},
		{"own row without figures", func(a *AnchorSet, s *Set) { ownRow(a, s, false) }, "row row-b: no figures"},
		{"own row without figures, carried by a fit", func(a *AnchorSet, s *Set) { ownRow(a, s, true) }, ""},
		{"e2e figure of a multi-token request", func(a *AnchorSet, s *Set) {
			oneTokenRow(a, s, 2)
		}, "one token; row row-b has output_tokens 2"},
		{"e2e figure of a one-token request", func(a *AnchorSet, s *Set) { oneTokenRow(a, s, 1) }, ""},
		{"e2e figure on a decode anchor", func(a *AnchorSet, s *Set) {
			oneTokenRow(a, s, 1)
			a.Anchors[0].Regime = RegimeDecode
		}, `figure "e2e_s.mean" is not one a decode anchor names`},
		{"own source fitted", func(a *AnchorSet, s *Set) {
			src := s.Sources[0]
			src.ID, src.Split = "src-b", SplitCalibration
			a.Sources = []Source{src}
		}, "anchors are held out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th := *th
			th.Rows = append([]Row(nil), th.Rows...)
			a, err := ParseAnchors([]byte(anchorMinimal))
			if err != nil {
				t.Fatal(err)
			}
			c.mutate(a, &th)
			p := strings.Join(a.Problems(&th), "\n")
			if c.want == "" {
				if p != "" {
					t.Fatalf("unexpected problems:\n%s", p)
				}
				return
			}
			if !strings.Contains(p, c.want) {
				t.Errorf("problems do not mention %q:\n%s", c.want, p)
			}
		})
	}
}

// ownRow gives the anchors file a source and a figure-less single-request
// row of its own, and (withFit) points the anchor at it through a fit.
func ownRow(a *AnchorSet, s *Set, withFit bool) {
	src := s.Sources[0]
	src.ID = "src-b"
	r := s.Rows[0]
	r.ID, r.Source, r.Figures, r.Speculative = "row-b", "src-b", Figures{}, nil
	r.Load.Concurrency = N(1)
	a.Sources, a.Rows = []Source{src}, []Row{r}
	if withFit {
		a.Anchors[0].Row, a.Anchors[0].Figure = "row-b", ""
		a.Anchors[0].Fit = &AnchorFit{FitITLIntercept, N(6.4), N(256), N(125000)}
	}
}

// oneTokenRow gives the anchors file an offline-batch row of its own in
// the shape of vLLM's latency benchmark (one request of 2,048 prompt
// tokens generating out tokens, its end-to-end latency published) and
// points the anchor at it as a prefill anchor.
func oneTokenRow(a *AnchorSet, s *Set, out float64) {
	src := s.Sources[0]
	src.ID = "src-b"
	r := s.Rows[0]
	r.ID, r.Source, r.Speculative = "row-b", "src-b", nil
	r.Workload.InputTokens, r.Workload.OutputTokens = N(2048), N(out)
	r.Load = Load{Kind: LoadOfflineBatch, BurstRequests: N(1)}
	r.Figures = Figures{E2ES: Stat{Mean: N(0.38), Median: N(0.37)}}
	a.Sources, a.Rows = []Source{src}, []Row{r}
	x := &a.Anchors[0]
	x.Row, x.Regime, x.Figure, x.PromptTokens, x.Batch = "row-b", RegimePrefill, "e2e_s.mean", N(2048), N(1)
}

func TestPublishedE2EInMs(t *testing.T) {
	th := parseMinimal(t)
	a, err := ParseAnchors([]byte(anchorMinimal))
	if err != nil {
		t.Fatal(err)
	}
	oneTokenRow(a, th, 1)
	r, _ := a.Row("row-b", th)
	if v := a.Anchors[0].Published(r); !v.Known || v.V != 380 {
		t.Errorf("e2e_s.mean 0.38 s published as %v, want 380 ms", v)
	}
	a.Anchors[0].Figure = "e2e_s.median"
	if v := a.Anchors[0].Published(r); v.V != 370 {
		t.Errorf("e2e_s.median 0.37 s published as %v, want 370 ms", v)
	}
	a.Anchors[0].Figure = "e2e_s.p99" // not published: stays unknown
	if v := a.Anchors[0].Published(r); v.Known {
		t.Errorf("unpublished e2e_s.p99 read as %v", v)
	}
}

func TestParseAnchorsIsStrict(t *testing.T) {
	for name, doc := range map[string]string{
		"unknown key":     anchorMinimal + "extra: 1\n",
		"two documents":   anchorMinimal + "---\nschema: x\n",
		"empty":           "",
		"batch with unit": strings.Replace(anchorMinimal, "batch: 8", "batch: 8 seqs", 1),
	} {
		if _, err := ParseAnchors([]byte(doc)); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}

func TestRowFigure(t *testing.T) {
	r := parseMinimal(t).Rows[0]
	if v, ok := r.Figure("tpot_ms.p99"); !ok || v.V != 14.3 {
		t.Errorf("tpot_ms.p99 = %v, %v", v, ok)
	}
	if v, ok := r.Figure("e2e_s.mean"); !ok || v.Known {
		t.Errorf("e2e_s.mean (not published by row-a) = %v, %v; want a readable, unknown figure", v, ok)
	}
	for _, k := range []string{"tpot_ms", "request_per_s.mean", "tpot_ms.p42"} {
		if _, ok := r.Figure(k); ok {
			t.Errorf("%s read as a figure", k)
		}
	}
}

func FuzzParseAnchors(f *testing.F) {
	f.Add([]byte(anchorMinimal))
	f.Add([]byte("schema: x\nanchors: [{id: a, batch: unknown}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAnchors(data)
		if err != nil {
			return
		}
		_ = a.Problems(nil) // must not panic on any parsed file
	})
}
