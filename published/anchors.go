package published

import (
	"errors"
	"fmt"
	"strings"
	"sync"
)

// AnchorsSchema is the value of anchors.yaml's schema key.
const AnchorsSchema = "vlaunch/calibration-anchors/v1"

// Anchor model classes and regimes: issue #28's done-when item asks for
// decode at batch 1 and 32 and prefill of 2K/8K prompts of a dense 8B and a
// dense 70B model on H100 and B200, within 15% of cited measurements.
const (
	AnchorDense8B  = "dense-8b"
	AnchorDense70B = "dense-70b"
	RegimeDecode   = "decode"
	RegimePrefill  = "prefill"
)

// AnchorSet is the anchors file: published figures of dense models that
// test the step model's physical terms where no constant was fitted. An
// anchor points at a row of this file or of throughput.yaml, so a figure is
// copied once; rows of this file are not in Throughput(), so they move no
// global band or fit.
type AnchorSet struct {
	Schema  string   `yaml:"schema"`
	Sources []Source `yaml:"sources"`
	Rows    []Row    `yaml:"rows"`
	Anchors []Anchor `yaml:"anchors"`
	// Gaps are the cells of the done-when item no usable figure was found
	// for, with what was searched (so the next search starts elsewhere).
	Gaps []AnchorGap `yaml:"gaps"`
}

// Anchor is one published figure and the cell of the done-when item it
// stands for.
type Anchor struct {
	ID string `yaml:"id"`
	// Model is the anchor's model class (AnchorDense8B or AnchorDense70B).
	Model string `yaml:"model"`
	// GPU is the vlaunch catalog GPU id; it must be the row's.
	GPU string `yaml:"gpu"`
	// Regime is RegimeDecode (the figure is a TPOT or ITL) or RegimePrefill
	// (a TTFT).
	Regime string `yaml:"regime"`
	// Batch is the number of sequences decoding together when the figure
	// was measured, as the source ran it (closed-loop sessions; the mean in
	// flight for a Poisson run, when the source gives it, else unknown).
	Batch Num `yaml:"batch"`
	// PromptTokens is the prompt length of a prefill anchor.
	PromptTokens Num `yaml:"prompt_tokens"`
	// Row is the id of the row (this file's or throughput.yaml's) whose
	// figure this is; Figure names it (tpot_ms.median, ttft_ms.mean, ...;
	// e2e_s.mean for a prefill anchor on a one-token request, see
	// anchorFigures).
	// An anchor on a published regression instead (Fit) names the row that
	// describes the deployment and load the source swept.
	Row    string     `yaml:"row"`
	Figure string     `yaml:"figure"`
	Fit    *AnchorFit `yaml:"fit"`
	// HeldOut repeats whether the row is in the holdout split. It must be
	// said: an anchor from a calibration source (another figure of the same
	// publication was fitted, not this one) is allowed, but never silently.
	HeldOut bool `yaml:"held_out"`
	// Counts is whether the figure meets the item's conditions (vLLM >= 0.8
	// on the V1 engine or SGLang >= 0.5, batch 1 or about 32, a 2K or 8K
	// prompt on an idle server); a figure that does not is kept as the
	// nearest evidence and said so in Why.
	Counts bool   `yaml:"counts"`
	Why    string `yaml:"why"`
}

// AnchorFit is a published regression of a concurrency-1 sweep: the
// source fitted ITL = slope × input_len + intercept over prompts of
// InputFrom to InputTo tokens, and published the parameters (not the
// points). The reproduction sweeps the same range and fits the same line.
type AnchorFit struct {
	// Parameter is FitITLIntercept (ms) or FitITLSlope (ms per input token).
	Parameter string `yaml:"parameter"`
	Value     Num    `yaml:"value"`
	InputFrom Num    `yaml:"input_from"`
	InputTo   Num    `yaml:"input_to"`
}

// The regression parameters an anchor may name.
const (
	FitITLIntercept = "itl_intercept_ms"
	FitITLSlope     = "itl_slope_ms_per_token"
)

// Published is the anchor's published value in the anchor's unit: the
// row's figure in ms (an e2e_s figure, published in seconds, converted), or
// the regression parameter.
func (a Anchor) Published(r Row) Num {
	if a.Fit != nil {
		return a.Fit.Value
	}
	v, _ := r.Figure(a.Figure)
	if metric, _, _ := strings.Cut(a.Figure, "."); metric == "e2e_s" && v.Known {
		v.V *= 1e3
	}
	return v
}

// AnchorGap is a cell of the done-when item without an anchor.
type AnchorGap struct {
	Cell     string `yaml:"cell"`
	Searched string `yaml:"searched"`
}

// anchorFigures are the figures an anchor may name, by regime: decode
// anchors are per-token times, prefill anchors first-token times — a TTFT,
// or the end-to-end latency of a request that generates one token (vLLM's
// offline latency benchmark with --output-len 1 publishes only that: the
// request ends at its first token, so the figure is its prefill and that
// token's sampling; e2eOneToken checks the row).
var anchorFigures = map[string]map[string]bool{
	RegimeDecode:  {"tpot_ms.mean": true, "tpot_ms.median": true, "itl_ms.mean": true, "itl_ms.median": true},
	RegimePrefill: {"ttft_ms.mean": true, "ttft_ms.median": true, "e2e_s.mean": true, "e2e_s.median": true},
}

// e2eOneToken reports whether an e2e_s figure of row r is a time to the
// first token: every request of the run generated exactly one token.
func e2eOneToken(r Row) bool {
	w := r.Workload
	return w.OutputTokens.Known && w.OutputTokens.V == 1 && !w.OutputTokensMean.Known
}

// Figure returns the row's published figure named key (metric.statistic,
// as in the data file: tpot_ms.median), and whether the name is one Figure
// reads.
func (r Row) Figure(key string) (Num, bool) {
	metric, stat, ok := strings.Cut(key, ".")
	if !ok {
		return Num{}, false
	}
	var s Stat
	switch metric {
	case "ttft_ms":
		s = r.Figures.TTFTMs
	case "tpot_ms":
		s = r.Figures.TPOTMs
	case "itl_ms":
		s = r.Figures.ITLMs
	case "e2e_s":
		s = r.Figures.E2ES
	default:
		return Num{}, false
	}
	f, ok := statFields[stat]
	if !ok {
		return Num{}, false
	}
	return *f(&s), true
}

var (
	anchorsOnce   sync.Once
	anchorsLoaded *AnchorSet
	anchorsErr    error
)

// Anchors parses and validates the embedded anchors file once (against the
// embedded throughput data its anchors may point into); callers share the
// result and must not modify it.
func Anchors() (*AnchorSet, error) {
	anchorsOnce.Do(func() {
		t, err := Throughput()
		if err != nil {
			anchorsErr = err
			return
		}
		anchorsLoaded, anchorsErr = ParseAnchors(anchorsYAML)
		if anchorsErr == nil {
			anchorsErr = anchorsLoaded.Validate(t)
		}
	})
	return anchorsLoaded, anchorsErr
}

// ParseAnchors decodes an anchors file strictly (unknown keys, a second
// document and malformed numbers are errors); see AnchorSet.Validate.
func ParseAnchors(data []byte) (*AnchorSet, error) {
	var s AnchorSet
	if err := decodeStrict(data, "anchors data", &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Row returns the row an anchor points at: this file's, else the
// throughput data's (t may be nil).
func (s *AnchorSet) Row(id string, t *Set) (Row, bool) {
	for _, r := range s.Rows {
		if r.ID == id {
			return r, true
		}
	}
	if t != nil {
		for _, r := range t.Rows {
			if r.ID == id {
				return r, true
			}
		}
	}
	return Row{}, false
}

// Validate checks the set against the throughput data t and returns every
// problem found, joined.
func (s *AnchorSet) Validate(t *Set) error {
	if p := s.Problems(t); len(p) > 0 {
		return errors.New(strings.Join(p, "\n"))
	}
	return nil
}

// Problems lists what is wrong with the set: the schema; this file's
// sources (held out, ids the throughput file does not use) and rows (the
// throughput file's rules; they may cite its sources, and a row only a
// fitted anchor uses needs no figure); every anchor's cell, its row
// (existing, targetable, on the anchor's GPU, its split what held_out
// says) and its figure (one of the regime's, published) or fit; and gaps
// without a cell or a search.
func (s *AnchorSet) Problems(t *Set) []string {
	var p []string
	if s.Schema != AnchorsSchema {
		p = append(p, fmt.Sprintf("schema is %q, want %q", s.Schema, AnchorsSchema))
	}
	srcSplit := map[string]string{}
	for _, src := range s.Sources {
		p = append(p, sourceProblems(src, srcSplit)...)
		srcSplit[src.ID] = src.Split
		if src.Split != SplitHoldout {
			p = append(p, fmt.Sprintf("source %s: split %q; anchors are held out (no constant may be fitted to them)", src.ID, src.Split))
		}
		if t != nil {
			if _, dup := t.Source(src.ID); dup {
				p = append(p, fmt.Sprintf("source %s: also listed in throughput.yaml", src.ID))
			}
		}
	}
	if t != nil {
		for _, src := range t.Sources {
			if _, own := srcSplit[src.ID]; !own {
				srcSplit[src.ID] = src.Split
			}
		}
	}
	fitOnly := map[string]bool{}
	for _, a := range s.Anchors {
		if a.Fit != nil {
			fitOnly[a.Row] = true
		}
	}
	seen := map[string]bool{}
	for _, r := range s.Rows {
		if seen[r.ID] {
			p = append(p, fmt.Sprintf("row %s: duplicate id", r.ID))
		}
		seen[r.ID] = true
		if _, dup := (&AnchorSet{}).Row(r.ID, t); dup {
			p = append(p, fmt.Sprintf("row %s: id also used in throughput.yaml", r.ID))
		}
		for _, msg := range rowProblems(r, srcSplit) {
			if msg == "no figures" && fitOnly[r.ID] {
				continue // the anchor carries the published regression
			}
			p = append(p, fmt.Sprintf("row %s: %s", r.ID, msg))
		}
	}
	ids := map[string]bool{}
	for _, a := range s.Anchors {
		if ids[a.ID] {
			p = append(p, fmt.Sprintf("anchor %s: duplicate id", a.ID))
		}
		ids[a.ID] = true
		for _, msg := range s.anchorProblems(a, t) {
			p = append(p, fmt.Sprintf("anchor %s: %s", a.ID, msg))
		}
	}
	if len(s.Anchors) == 0 {
		p = append(p, "no anchors")
	}
	for i, g := range s.Gaps {
		if strings.TrimSpace(g.Cell) == "" || strings.TrimSpace(g.Searched) == "" {
			p = append(p, fmt.Sprintf("gap %d: needs a cell and what was searched", i+1))
		}
	}
	return p
}

func (s *AnchorSet) anchorProblems(a Anchor, t *Set) []string {
	var p []string
	if !idPattern.MatchString(a.ID) {
		p = append(p, "id must match "+idPattern.String())
	}
	if a.Model != AnchorDense8B && a.Model != AnchorDense70B {
		p = append(p, fmt.Sprintf("model %q is not %s or %s", a.Model, AnchorDense8B, AnchorDense70B))
	}
	figs, ok := anchorFigures[a.Regime]
	switch {
	case !ok:
		p = append(p, fmt.Sprintf("regime %q is not %s or %s", a.Regime, RegimeDecode, RegimePrefill))
	case a.Fit != nil:
		p = append(p, fitProblems(a)...)
	case !figs[a.Figure]:
		p = append(p, fmt.Sprintf("figure %q is not one a %s anchor names", a.Figure, a.Regime))
	}
	if a.Regime == RegimePrefill && !a.PromptTokens.Positive() {
		p = append(p, "a prefill anchor needs prompt_tokens")
	}
	if strings.TrimSpace(a.Why) == "" {
		p = append(p, "no why (what the figure stands for, and whether it meets the item's conditions)")
	}
	r, ok := s.Row(a.Row, t)
	if !ok {
		return append(p, fmt.Sprintf("row %q is in neither anchors.yaml nor throughput.yaml", a.Row))
	}
	if !r.Targetable() {
		p = append(p, fmt.Sprintf("row %s is incomplete (%s)", r.ID, r.Incomplete))
	}
	if a.HeldOut != (r.Split == SplitHoldout) {
		p = append(p, fmt.Sprintf("held_out is %v, but row %s is in the %s split", a.HeldOut, r.ID, r.Split))
	}
	if r.Hardware.GPU != a.GPU {
		p = append(p, fmt.Sprintf("gpu %q, but row %s ran on %q", a.GPU, r.ID, r.Hardware.GPU))
	}
	if v, ok := r.Figure(a.Figure); a.Fit == nil && ok && !v.Positive() {
		p = append(p, fmt.Sprintf("row %s does not publish %s", r.ID, a.Figure))
	}
	if metric, _, _ := strings.Cut(a.Figure, "."); a.Fit == nil && metric == "e2e_s" && !e2eOneToken(r) {
		p = append(p, fmt.Sprintf("an e2e_s figure stands for a prefill only when every request generates one token; row %s has output_tokens %s", r.ID, r.Workload.OutputTokens))
	}
	if a.Fit != nil && (r.Load.Kind != LoadClosedLoop || r.Load.Concurrency.Int() != 1) {
		p = append(p, fmt.Sprintf("a fitted sweep is of single requests; row %s is not a closed loop of one", r.ID))
	}
	return p
}

// fitProblems checks an anchor on a published regression: a decode
// anchor (the ITL line), a known parameter with its value, no row figure
// beside it, and the swept range.
func fitProblems(a Anchor) []string {
	var p []string
	f := a.Fit
	if a.Regime != RegimeDecode {
		p = append(p, "a fitted ITL line is a decode anchor")
	}
	if f.Parameter != FitITLIntercept && f.Parameter != FitITLSlope {
		p = append(p, fmt.Sprintf("fit.parameter %q is not %s or %s", f.Parameter, FitITLIntercept, FitITLSlope))
	}
	if a.Figure != "" {
		p = append(p, "an anchor names a figure or a fit, not both")
	}
	if !f.Value.Positive() {
		p = append(p, "fit.value must be a positive published number")
	}
	if !f.InputFrom.Positive() || !f.InputTo.Positive() || f.InputTo.V <= f.InputFrom.V {
		p = append(p, "fit needs the swept input range (input_from < input_to)")
	}
	return p
}
