package published

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Splits: constants may be fitted to calibration rows only; holdout rows
// (whole sources) measure the error of a fit that never saw them.
const (
	SplitCalibration = "calibration"
	SplitHoldout     = "holdout"
)

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)
	roles       = set("colocated", "prefill", "decode")
	confidences = set("high", "medium", "low")
	splits      = set(SplitCalibration, SplitHoldout)
	loadKinds   = set(LoadClosedLoop, LoadBurst, LoadPoisson, LoadOfflineBatch, LoadSteadyDecode, LoadSteadyPrefill, LoadProduction)
)

func set(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Validate checks the whole set and returns every problem found, joined.
func (s *Set) Validate() error {
	p := s.Problems()
	if len(p) == 0 {
		return nil
	}
	return errors.New(strings.Join(p, "\n"))
}

// Problems lists what is wrong with the set: schema, duplicate or malformed
// ids, sources without a citation, rows whose split differs from their
// source's, and rows without the fields their figures need.
func (s *Set) Problems() []string {
	var p []string
	if s.Schema != Schema {
		p = append(p, fmt.Sprintf("schema is %q, want %q", s.Schema, Schema))
	}
	srcSplit := map[string]string{}
	for _, src := range s.Sources {
		p = append(p, sourceProblems(src, srcSplit)...)
		srcSplit[src.ID] = src.Split
	}
	seen := map[string]bool{}
	for _, r := range s.Rows {
		if seen[r.ID] {
			p = append(p, fmt.Sprintf("row %s: duplicate id", r.ID))
		}
		seen[r.ID] = true
		for _, msg := range rowProblems(r, srcSplit) {
			p = append(p, fmt.Sprintf("row %s: %s", r.ID, msg))
		}
	}
	if len(s.Rows) == 0 {
		p = append(p, "no rows")
	}
	return p
}

func sourceProblems(src Source, seen map[string]string) []string {
	var p []string
	name := "source " + src.ID
	if !idPattern.MatchString(src.ID) {
		p = append(p, fmt.Sprintf("%s: id must match %s", name, idPattern))
	}
	if _, dup := seen[src.ID]; dup {
		p = append(p, name+": duplicate id")
	}
	if !splits[src.Split] {
		p = append(p, fmt.Sprintf("%s: split %q is neither %s nor %s", name, src.Split, SplitCalibration, SplitHoldout))
	}
	for field, v := range map[string]string{"title": src.Title, "url": src.URL, "access": src.Access, "date": src.Date} {
		if strings.TrimSpace(v) == "" {
			p = append(p, fmt.Sprintf("%s: no %s", name, field))
		}
	}
	return p
}

func rowProblems(r Row, srcSplit map[string]string) []string {
	var p []string
	if !idPattern.MatchString(r.ID) {
		p = append(p, "id must match "+idPattern.String())
	}
	p = append(p, rowSourceProblems(r.Source, r.Split, srcSplit)...)
	for field, v := range map[string]string{"where": r.Where, "engine.name": r.Engine.Name, "model.id": r.Model.ID, "hardware.gpu": r.Hardware.GPU} {
		if strings.TrimSpace(v) == "" {
			p = append(p, "no "+field)
		}
	}
	if !confidences[r.Confidence] {
		p = append(p, fmt.Sprintf("confidence %q is not high, medium or low", r.Confidence))
	}
	if !roles[r.Layout.Role] {
		p = append(p, fmt.Sprintf("layout.role %q is not colocated, prefill or decode", r.Layout.Role))
	}
	if !loadKinds[r.Load.Kind] {
		p = append(p, fmt.Sprintf("load.kind %q is unknown", r.Load.Kind))
	}
	if !r.Figures.any() {
		p = append(p, "no figures")
	}
	p = append(p, promptsSeenBeforeProblems(r)...)
	p = append(p, speculativeProblems(r.Speculative)...)
	p = append(p, clientProblems(r.Workload)...)
	if r.Targetable() {
		p = append(p, needs(r)...)
	}
	return p
}

// speculativeProblems checks the normalisation README.md describes: a
// linear draft of N tokens verifies N+1 positions and emits at most N+1.
func speculativeProblems(s *Speculative) []string {
	if s == nil {
		return nil
	}
	var p []string
	if s.Method == "" {
		p = append(p, "speculative.method is empty")
	}
	n, v := s.NumSpeculativeTokens, s.VerifyPositions
	if n.Known && v.Known && v.V != n.V+1 {
		p = append(p, fmt.Sprintf("speculative: %s draft tokens verify %s positions, want %s", n, v, N(n.V+1)))
	}
	if v.Known && s.AcceptanceIncludesBonus.V {
		for _, a := range []Num{s.AcceptanceLength.Mean, s.AcceptanceLength.Max} {
			if a.Known && (a.V > v.V || a.V < 1) {
				p = append(p, fmt.Sprintf("speculative: acceptance length %s outside [1, %s verified positions]", a, v))
			}
		}
	}
	return p
}

// rowSourceProblems checks a row's source against the listed sources and
// its split against its source's (splits are chosen per source).
func rowSourceProblems(source, split string, srcSplit map[string]string) []string {
	want, ok := srcSplit[source]
	switch {
	case source == "":
		return []string{"no source"}
	case !ok:
		return []string{fmt.Sprintf("source %q is not listed under sources", source)}
	case split != want:
		return []string{fmt.Sprintf("split %q differs from its source's %q (splits are chosen per source)", split, want)}
	}
	return nil
}

// promptsSeenBeforeProblems checks load.prompts_seen_before: prompts can
// be seen before only by a server that keeps a prefix cache, under a
// client-driven load (closed loop, burst or Poisson arrivals through the
// server), and the notes must say from what the reuse was established.
func promptsSeenBeforeProblems(r Row) []string {
	if !r.Load.PromptsSeenBefore.V {
		return nil
	}
	var p []string
	if f := r.Features.PrefixCaching; f.Known && !f.V {
		p = append(p, "load.prompts_seen_before is true but features.prefix_caching is false: no cache can serve a prompt seen before")
	}
	switch r.Load.Kind {
	case LoadClosedLoop, LoadBurst, LoadPoisson:
	default:
		p = append(p, fmt.Sprintf("load.prompts_seen_before is true under load.kind %q: only a client-driven run (closed-loop, burst, poisson) sends prompts a server can have seen", r.Load.Kind))
	}
	if !strings.Contains(strings.ToLower(r.Notes), "seen before") {
		p = append(p, "load.prompts_seen_before is true but the notes do not say (with the words 'seen before') which earlier run sent the prompts")
	}
	return p
}
