package lint

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// flagNames lists a release's spellings for suggestions.
func flagNames(rel vllm.Release) []string {
	var out []string
	for _, f := range rel.Flags() {
		out = append(out, f.Name)
	}
	return out
}

// suggestFlag returns a near-miss for an unknown flag, or "".
func suggestFlag(name string, rel vllm.Release) string {
	for _, c := range catalog.Suggest(name, flagNames(rel)) {
		if d := catalog.Levenshtein(name, c); d <= 2 || (len(name) >= 12 && d <= 3) {
			return c
		}
	}
	return ""
}

// checkUnknownFlag reports flags the release lacks: near-misses of known
// flags (mode "unknown", VL101) and flags of other releases (mode
// "version", VL102); the rest are VL005.
func checkUnknownFlag(p *Pass, mode string) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec != nil {
				continue
			}
			reportUnknown(p, s, f, mode)
		}
	}
}

func reportUnknown(p *Pass, s *Server, f *Flag, mode string) {
	sp := f.Spelling()
	if strings.ContainsAny(sp, " \t\u00a0") {
		return // a flag and its value in one word: VL127 says so
	}
	if strings.HasPrefix(sp, "-") && !strings.HasPrefix(sp, "--") && len(sp) > 2 {
		if _, ok := vllm.KnownFlagEver(sp); !ok && mode == "unknown" {
			p.ReportAt(s.Inv, f.At.Pos, "long options take two dashes: -"+sp, "unknown short option %q for vLLM %s", sp, s.Rel)
		}
		return
	}
	if old, ok := vllm.KnownFlagEver(sp); ok {
		if mode == "version" {
			reportVersionSpan(p, s, f, old)
		}
		return
	}
	sug := suggestFlag(f.Name, s.Rel)
	if mode == "unknown" && sug != "" {
		p.ReportAt(s.Inv, f.At.Pos, "did you mean --"+sug+"?", "unknown flag %s for vLLM %s", sp, s.Rel)
	}
}

func reportVersionSpan(p *Pass, s *Server, f *Flag, old *vllm.Flag) {
	sp := f.Spelling()
	if !old.Removed.IsZero() && s.Rel.Version.AtLeast(old.Removed) {
		hint := ""
		if old.Doc != "" {
			hint = old.Doc
		}
		p.ReportAt(s.Inv, f.At.Pos, hint, "flag %s was removed in vLLM %s (linting for %s)", sp, old.Removed, s.Rel)
		return
	}
	p.ReportAt(s.Inv, f.At.Pos, "upgrade vLLM or drop the flag", "flag %s does not exist yet in vLLM %s (added in %s)", sp, s.Rel, old.Since)
}

// checkValues reports values of the wrong type and missing values (VL103).
func checkValues(p *Pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec == nil {
				continue
			}
			if f.MissingValue {
				p.ReportAt(s.Inv, f.At.Pos, "", "flag %s expects a %s value", f.Spelling(), f.Spec.Kind)
				continue
			}
			if f.Value == nil || !f.Value.Known || isDotted(f) {
				continue
			}
			if msg := badValue(f.Spec, f.Value.Text); msg != "" {
				p.ReportAt(s.Inv, f.Value.Pos, "", "%s: %s", f.Spelling(), msg)
			}
		}
	}
}

// badValue checks a value against a flag's kind ("" when fine).
func badValue(spec *vllm.Flag, v string) string {
	t := strings.TrimSpace(v)
	switch spec.Kind {
	case vllm.Int:
		if _, err := strconv.Atoi(t); err != nil {
			return "invalid integer " + strconv.Quote(v)
		}
	case vllm.HumanInt:
		if !humanInt(t) {
			return "invalid integer " + strconv.Quote(v) + " (human forms such as 32k are allowed)"
		}
	case vllm.Float:
		x, err := strconv.ParseFloat(t, 64)
		if err != nil {
			return "invalid number " + strconv.Quote(v)
		}
		if spec.Name == "gpu-memory-utilization" && (x <= 0 || x > 1) {
			return "must be a fraction in (0, 1], got " + v
		}
	case vllm.JSON:
		if strings.HasPrefix(t, "{") && !json.Valid([]byte(t)) {
			return "invalid JSON (in a shell script, wrap the JSON in single quotes)"
		}
	}
	return ""
}

func humanInt(t string) bool {
	if t == "auto" || t == "-1" {
		return true
	}
	t = strings.TrimRight(t, "kKmMgGtT")
	_, err := strconv.ParseFloat(t, 64)
	return err == nil
}

// checkChoices reports values outside a flag's choices (VL104).
func checkChoices(p *Pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec != nil && f.Spec.Name == "all2all-backend" && f.Value != nil && f.Value.Known {
				checkBackendChoice(p, s, f)
				continue
			}
			if f.Spec == nil || f.Value == nil || !f.Value.Known || len(f.Spec.Choices) == 0 {
				continue
			}
			if !f.Spec.HasChoice(f.Value.Text) {
				hint := "allowed: " + strings.Join(f.Spec.Choices, ", ")
				if sug := catalog.Suggest(f.Value.Text, f.Spec.Choices); len(sug) > 0 {
					hint = "did you mean " + sug[0] + "? " + hint
				}
				p.ReportAt(s.Inv, f.Value.Pos, hint, "%s %q is not a valid choice in vLLM %s", f.Spelling(), f.Value.Text, s.Rel)
			}
		}
	}
}

// checkBoolValue reports `--enable-expert-parallel true` and `--x=true` (VL105).
func checkBoolValue(p *Pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec == nil || f.Spec.Kind.TakesValue() {
				continue
			}
			v := f.BoolValue
			if v == nil {
				v = f.Value
			}
			if v == nil {
				continue
			}
			hint := "write " + f.Spelling() + " alone"
			if f.Spec.Kind == vllm.Bool {
				hint += ", or --no-" + f.Spec.Name + " to turn it off"
			}
			p.ReportAt(s.Inv, v.Pos, hint, "%s is a switch and takes no value; %q is read as a stray argument", f.Spelling(), v.Text)
		}
	}
}

// checkDuplicates reports a flag given twice with different values (VL106).
func checkDuplicates(p *Pass) {
	for _, s := range p.Servers {
		seen := map[string]*Flag{}
		reported := map[string]bool{} // one finding per flag, however many repeats
		for _, f := range s.Flags() {
			if f.Spec == nil || isDotted(f) {
				continue
			}
			prev, ok := seen[f.Name]
			seen[f.Name] = f
			if ok && !reported[f.Name] && flagText(prev) != flagText(f) {
				reported[f.Name] = true
				p.ReportAt(s.Inv, f.At.Pos, "remove one; vLLM uses the last", "%s given twice with different values (%s, then %s)", f.Spelling(), flagText(prev), flagText(f))
			}
		}
	}
}

func flagText(f *Flag) string {
	if f.Negated {
		return "off"
	}
	if f.Value == nil {
		return "on"
	}
	return f.Value.Text
}

// isDotted reports the JSON dotted-key form (--eplb-config.window_size 1000).
func isDotted(f *Flag) bool {
	sp := f.Spelling()
	return strings.HasPrefix(sp, "-") && strings.Contains(sp, ".") && f.Spec != nil && f.Spec.Kind == vllm.JSON
}

// checkBackendChoice checks --all2all-backend against the release's backends.
func checkBackendChoice(p *Pass, s *Server, f *Flag) {
	if _, ok := s.Rel.All2AllBackend(f.Value.Text); ok {
		return
	}
	names := s.Rel.All2AllBackends()
	hint := "allowed: " + strings.Join(names, ", ")
	if sug := catalog.Suggest(f.Value.Text, names); len(sug) > 0 {
		hint = "did you mean " + sug[0] + "? " + hint
	}
	p.ReportAt(s.Inv, f.Value.Pos, hint, "%s %q is not an all-to-all backend of vLLM %s", f.Spelling(), f.Value.Text, s.Rel)
}

// checkExtraPositional reports words argparse cannot place: vllm serve takes
// one positional argument, the model (VL124).
func checkExtraPositional(p *Pass) {
	for _, s := range p.Servers {
		pos := s.p.positional
		// The model is the first positional only when it is one (an
		// unresolved $MODEL is held apart, among the opaque words).
		if s.Model != nil && len(pos) > 0 && s.Flag("model") == nil && s.Model.Pos == pos[0].Pos {
			pos = pos[1:]
		}
		poisoned := 0
		skipNext := false
		for _, v := range pos {
			if strings.HasPrefix(v.Text, " ") || strings.HasPrefix(v.Text, "\t") {
				poisoned = v.Pos.Line // `\ ` at a line end: VL301/VL302 say why
			}
			if v.Pos.Line == poisoned || skipNext {
				skipNext = false
				continue
			}
			if d := typographicDash(v.Text); d != "" {
				// Copied from a web page: the flag's value follows it.
				skipNext = true
				p.ReportAt(s.Inv, v.Pos, "type two ASCII hyphens: --"+strings.TrimLeft(v.Text, d), "%q starts with a typographic dash (%s), not \"--\": vLLM reads it as a stray argument", v.Text, d)
				continue
			}
			p.ReportAt(s.Inv, v.Pos, "check for a missing flag name, a stray value or a broken line continuation", "unexpected argument %q: vllm serve takes only the model as a positional argument", v.Text)
		}
	}
}

// checkJoinedFlag reports one argument holding a flag and its value
// ("--dtype auto" as a single list item or quoted word): argparse reads it
// as an unknown option (VL127).
func checkJoinedFlag(p *Pass) {
	for _, s := range p.Servers {
		for _, a := range s.Inv.Args {
			name, _, _ := strings.Cut(a.Text, "=")
			if a.Known && strings.HasPrefix(name, "-") && strings.ContainsAny(strings.TrimSpace(name), " \t\u00a0") {
				fields := strings.Fields(a.Text) // Fields splits at no-break spaces too
				p.ReportAt(s.Inv, a.Pos, "split it into separate arguments, or write "+fields[0]+"="+strings.Join(fields[1:], " "), "%q is one argument: vLLM reads it as an unknown option, not %s with a value", a.Text, fields[0])
			}
		}
	}
}

// checkModelFirst reports options before the model in `vllm serve`; newer
// releases refuse it ("model should be provided as the first positional
// argument") (VL128).
func checkModelFirst(p *Pass) {
	for _, s := range p.Servers {
		if !strings.HasSuffix(s.Inv.Launcher, "vllm serve") && !strings.HasPrefix(s.Inv.Launcher, "docker image") {
			continue
		}
		if len(s.Inv.Args) == 0 || s.Model == nil || s.Flag("model") != nil || !isOption(s.Inv.Args[0].Text) {
			continue
		}
		p.ReportAt(s.Inv, s.Model.Pos, "put the model right after `vllm serve`", "the model %q comes after options; recent vLLM requires it as the first argument", s.Model.Text)
	}
}

// typographicDash returns the dash a word starts with when it is an en dash,
// em dash or minus sign, which word processors and web pages put for "--".
func typographicDash(t string) string {
	for _, d := range []string{"\u2013", "\u2014", "\u2212", "\u2012", "\u2015"} {
		if strings.HasPrefix(t, d) && len(t) > len(d) {
			return d
		}
	}
	return ""
}
