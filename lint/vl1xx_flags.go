package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
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
		if d := catalog.Levenshtein(name, c); (d <= 2 || (len(name) >= 12 && d <= 3)) && !otherWord(name, c) {
			return c
		}
	}
	return ""
}

// otherWord reports two flag names that differ in one whole short word
// with nothing in common (--ec-transfer-config, --kv-transfer-config): a
// different flag, likely one vlaunch's table lacks, not a misspelling.
func otherWord(a, b string) bool {
	wa, wb := strings.Split(a, "-"), strings.Split(b, "-")
	if len(wa) != len(wb) {
		return false
	}
	diff := -1
	for i := range wa {
		if wa[i] != wb[i] {
			if diff >= 0 {
				return false
			}
			diff = i
		}
	}
	if diff < 0 {
		return false
	}
	x, y := wa[diff], wb[diff]
	return catalog.Levenshtein(x, y) >= max(len(x), len(y)) || (len(x) <= 3 && len(y) <= 3 && x[0] != y[0])
}

// checkUnknownFlag reports flags the release lacks: near-misses of known
// flags (mode "unknown", VL101) and flags of other releases (mode
// "version", VL102); the rest are VL005.
func checkUnknownFlag(p *pass, mode string) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec != nil {
				if mode == "version" {
					reportUnverifiedFlag(p, s, f)
				}
				continue
			}
			reportUnknown(p, s, f, mode)
		}
	}
}

// reportUnverifiedFlag notes a flag the release may or may not have: its
// first release is not pinned, only the release where a source first shows
// it, and this release comes before that (vllm.Release.FlagIn). Unknown is
// not refused, so an info, never an error (issue #23: --enable-elastic-ep
// was an error on every release before the one it was first seen in).
func reportUnverifiedFlag(p *pass, s *server, f *cliFlag) {
	if f.Wrapper {
		return
	}
	in, seen := s.Rel.FlagIn(f.Spec.Long())
	if in != vllm.Maybe {
		return
	}
	p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Info, "check `vllm serve --help` of this release, or state the release the script runs",
		"cannot verify that vLLM %s has %s; first seen in %s (its first release is not known)", s.Rel, f.Spelling(), seen)
}

func reportUnknown(p *pass, s *server, f *cliFlag, mode string) {
	sp := f.Spelling()
	if strings.ContainsAny(sp, " \t\u00a0") {
		return // a flag and its value in one word: VL127 says so
	}
	if f.Wrapper || (s.Inv.Frontend != "" && mode == "unknown") {
		return // the wrapper's own flag, or possibly one (VL005 lists it)
	}
	if len(f.Ambiguous) > 0 || f.Abbrev != nil {
		if mode == "unknown" {
			reportAbbrev(p, s, f)
		}
		return
	}
	if strings.HasPrefix(sp, "-") && !strings.HasPrefix(sp, "--") && len(sp) > 2 {
		old, ok := vllm.KnownFlagEver(sp)
		if !ok && mode == "unknown" {
			p.ReportAt(s.Inv, f.At.Pos, "long options take two dashes: -"+sp, "unknown short option %q for vLLM %s", sp, s.Rel)
		}
		if ok && mode == "version" { // an alias of another release (-ep from 0.14.0)
			reportVersionSpan(p, s, f, old)
		}
		return
	}
	if old, ok := vllm.KnownFlagEver(sp); ok {
		if mode == "version" {
			reportVersionSpan(p, s, f, old)
		}
		return
	}
	if al, ok := s.Rel.ShortAliasFlag(sp); ok {
		if mode == "unknown" {
			p.ReportAt(s.Inv, f.At.Pos, aliasHint(al, sp[1:]), "unknown flag %s for vLLM %s", sp, s.Rel)
		}
		return
	}
	sug := suggestFlag(f.Name, s.Rel)
	if mode == "unknown" && sug != "" {
		p.ReportAt(s.Inv, f.At.Pos, "did you mean --"+sug+"?", "unknown flag %s for vLLM %s", sp, s.Rel)
	}
}

// reportAbbrev reports a long option argparse reads as a prefix of the
// release's flags (allow_abbrev, vllm.Release.PrefixMatches): of several,
// vLLM exits "ambiguous option"; of one, it is read as that flag, which
// only works until a release adds another flag with the prefix, and is a
// slip when the spelling is a short alias with one dash too many (`--dcp`
// for -dcp).
func reportAbbrev(p *pass, s *server, f *cliFlag) {
	sp := f.Spelling()
	al, slip := s.Rel.ShortAliasFlag(sp)
	if len(f.Ambiguous) > 0 {
		reportAmbiguous(p, s, f, al, slip)
		return
	}
	if slip && al != f.Abbrev {
		p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Warning, aliasHint(al, sp[1:]),
			"%s is read as --%s (argparse accepts a unique prefix of a long option), not as %s, the short alias of --%s, which stays at its default", sp, f.Abbrev.Name, sp[1:], al.Name)
		return
	}
	p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Warning, "write it in full: --"+f.Abbrev.Name,
		"%s is read as --%s only because argparse accepts a unique prefix; a release that adds another flag with this prefix makes it ambiguous", sp, f.Abbrev.Name)
}

// reportAmbiguous reports an abbreviation of several flags of the release:
// an error when the table is sure the release has two of them, else a
// warning (one may not be in the release yet: its first release is unknown).
func reportAmbiguous(p *pass, s *server, f *cliFlag, al *vllm.Flag, slip bool) {
	sp := f.Spelling()
	var names []string
	var since vllm.Version
	sure := 0
	for _, m := range sortedByName(f.Ambiguous) {
		names = append(names, m.Long())
		if in, _ := s.Rel.FlagIn(m.Long()); in == vllm.Present {
			sure++
			if seen := firstSeen(m.Name); since.Less(seen) {
				since = seen
			}
		}
	}
	hint := "write the flag in full: " + strings.Join(names, " or ")
	if slip {
		hint = aliasHint(al, sp[1:])
	}
	list := strings.Join(names, ", ")
	if sure < 2 {
		p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Warning, hint,
			"%s may be ambiguous in vLLM %s: it abbreviates %s, not all of which vlaunch can verify in this release; where two exist, argparse stops vLLM with \"ambiguous option: %s could match %s\"", sp, s.Rel, list, sp, list)
		return
	}
	p.ReportAt(s.Inv, f.At.Pos, hint,
		"%s is ambiguous in vLLM %s: it abbreviates %s (in every release from %s), so argparse stops vLLM with \"ambiguous option: %s could match %s\"", sp, s.Rel, list, since, sp, list)
}

// firstSeen is the first release a source shows the flag in, over all its
// table entries (an entry that splits its history where its choices changed
// starts later).
func firstSeen(name string) vllm.Version {
	var first vllm.Version
	for _, e := range vllm.FlagHistory(name) {
		if c := e.FirstConfirmed(); first.IsZero() || c.Less(first) {
			first = c
		}
	}
	return first
}

// sortedByName orders flags by name, as messages list them.
func sortedByName(fs []*vllm.Flag) []*vllm.Flag {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(a, b *vllm.Flag) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// aliasHint suggests the short alias a long option was likely meant as.
func aliasHint(al *vllm.Flag, short string) string {
	return fmt.Sprintf("did you mean %s (--%s)? short aliases take one dash", short, al.Name)
}

func reportVersionSpan(p *pass, s *server, f *cliFlag, old *vllm.Flag) {
	sp := f.Spelling()
	if first, ok := vllm.KnownFlagFirst(sp); ok && s.Rel.Version.Less(first.Since) {
		old = first // not yet: the spelling's first entry says since when
	}
	if !old.Removed.IsZero() && s.Rel.Version.AtLeast(old.Removed) {
		hint := ""
		if old.Doc != "" {
			hint = old.Doc
		}
		// Unstated, ReportVersioned adds which release was linted for.
		lintingFor := ""
		if s.Stated {
			lintingFor = fmt.Sprintf(" (linting for %s)", s.Rel)
		}
		p.ReportVersioned(s, f.At.Pos, hint, "flag %s was removed in vLLM %s%s", sp, old.Removed, lintingFor)
		return
	}
	if !old.Confirmed.IsZero() {
		// The first release is not pinned: Since is only the earliest the
		// evidence allows, so "added in" would claim too much.
		p.ReportVersioned(s, f.At.Pos, "upgrade vLLM or drop the flag", "flag %s does not exist yet in vLLM %s (not before %s; first seen in %s)", sp, s.Rel, old.Since, old.Confirmed)
		return
	}
	p.ReportVersioned(s, f.At.Pos, "upgrade vLLM or drop the flag", "flag %s does not exist yet in vLLM %s (added in %s)", sp, s.Rel, old.Since)
}

// reportGluedFlags reports words that end in a known option glued to them
// (VL124, vllm.Release.GluedFlag) and returns the positions of the options'
// values, which are then not reported again as stray arguments.
func reportGluedFlags(p *pass, s *server) map[launch.Pos]bool {
	skip := map[launch.Pos]bool{}
	args := s.Inv.Args
	for i, a := range args {
		f, at, ok := s.Rel.GluedFlag(a.Text)
		if !ok {
			continue
		}
		name := a.Text[at+2:]
		p.ReportAt(s.Inv, a.PosAt(at), "put a space before the line-continuation backslash",
			"%q ends in --%s: the word before it was continued without a space before the backslash, so the option is glued to it and vLLM never sees --%s", a.Text, name, name)
		if f.Kind != vllm.StoreTrue && f.Kind != vllm.Bool && i+1 < len(args) {
			skip[args[i+1].Pos] = true
		}
	}
	return skip
}

// checkExtraPositional reports words argparse cannot place: vllm serve takes
// one positional argument, the model (VL124).
func checkExtraPositional(p *pass) {
	for _, s := range p.Servers {
		pos := s.p.positional
		// The model is the first positional only when it is one (an
		// unresolved $MODEL is held apart, among the opaque words).
		if s.Model != nil && len(pos) > 0 && s.Flag("model") == nil && s.Model.Pos == pos[0].Pos {
			pos = pos[1:]
		}
		poisoned := 0
		skipNext := false
		glued := reportGluedFlags(p, s)
		for _, v := range pos {
			if glued[v.Pos] {
				continue
			}
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

// checkJoinedFlag reports one argument holding a flag and its value
// ("--dtype auto" as a single list item or quoted word): argparse reads it
// as an unknown option (VL127).
func checkJoinedFlag(p *pass) {
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
func checkModelFirst(p *pass) {
	for _, s := range p.Servers {
		if !strings.HasSuffix(s.Inv.Launcher, "vllm serve") && !strings.HasPrefix(s.Inv.Launcher, "docker image") {
			continue
		}
		model := s.Model
		if model == nil && len(s.p.positional) == 0 {
			// `vllm serve --tensor-parallel-size 8 $MODEL` (OLCF's Frontier
			// single-node example, MODEL="$PWD/gpt-oss-20b"): the value is
			// unknown, its place after the options is not.
			model = firstModelLike(s.p.opaque)
		}
		if len(s.Inv.Args) == 0 || model == nil || s.Flag("model") != nil || !isOption(s.Inv.Args[0].Text) {
			continue
		}
		p.ReportVersioned(s, model.Pos, "put the model right after `vllm serve`", "the model %q comes after options; recent vLLM requires it as the first argument", model.Text)
	}
}

// checkDeprecated notes flags and variables the release still accepts but
// warns about, because a later release removes them (VL126).
func checkDeprecated(p *pass) {
	for _, s := range p.Servers {
		for _, f := range s.Flags() {
			if f.Spec != nil && !f.Spec.Deprecated.IsZero() && s.Rel.Version.AtLeast(f.Spec.Deprecated) {
				p.ReportAt(s.Inv, f.At.Pos, f.Spec.Doc, "%s is deprecated since vLLM %s", f.Spelling(), f.Spec.Deprecated)
			}
		}
		for _, e := range s.Inv.Env {
			spec, ok := s.Rel.Env(e.Name)
			if ok && !spec.Deprecated.IsZero() && s.Rel.Version.AtLeast(spec.Deprecated) {
				p.ReportAt(s.Inv, e.Pos, spec.Doc, "%s is deprecated since vLLM %s", e.Name, spec.Deprecated)
			}
		}
	}
}
