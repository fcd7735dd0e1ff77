package lint

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkUnresolved lists what could not be resolved in a server's arguments
// and environment, so the user knows which checks were skipped (VL004).
// Values the platform sets when the pod starts are no values left out:
// LeaderWorkerSet's LWS_* (launch.InjectedEnv), a manifest's downward-API
// variables (valueFrom.fieldRef: the pod IP vlaunch's LWS leader passes as
// its DP address) and the address an injected name resolves to (a worker's
// `getent ahostsv4 "$LWS_LEADER_ADDRESS"`, QA #37).
func checkUnresolved(p *pass) {
	// one note per command: a script run by several runners is several
	// servers at one place (filePos: two files' commands at one line and
	// column are two places).
	seen := map[filePos]bool{}
	for _, s := range p.Servers {
		platform := map[string]bool{}
		for _, e := range s.Inv.Env {
			platform[e.Name] = e.Source == launch.SourceFieldRef
		}
		names := map[string]bool{}
		// The finding goes where the first unresolved value is used when
		// that is an option's value (--node-rank "${NODE_RANK}"): the
		// option word marks the use, while the value's own position is
		// where its variable was set. Otherwise it stays at the command
		// (qa44a F14: a docker run whose image is a variable starts on
		// that variable's line, 10:17 IMAGE=, far from --node-rank at 153).
		var at launch.Pos
		first := true
		for i, a := range s.Inv.Args {
			for _, n := range a.Unresolved {
				if !launch.InjectedEnv(n) && !launch.IsPlaceholder(n) && !platform[n] {
					names[n] = true
					if first {
						at, first = optionOf(s.Inv.Args, i), false
					}
				}
			}
		}
		if at.Line == 0 {
			at = s.Inv.Pos
		}
		key := fileAt(s.Inv.File, s.Inv.Pos)
		if len(names) == 0 || seen[key] {
			continue
		}
		seen[key] = true
		var list []string
		for n := range names {
			list = append(list, oneLine(n))
		}
		sort.Strings(list)
		p.ReportAt(s.Inv, at, "checks that need these values were skipped", "cannot resolve statically: %s", strings.Join(list, ", "))
	}
}

// maxShownSubst bounds how much of a command substitution VL004 shows.
const maxShownSubst = 80

// oneLine is an unresolved name as VL004 shows it: a command substitution
// written over several lines collapsed to one (line continuations and
// runs of blanks to one space) and cut at maxShownSubst bytes (qa45a F11:
// "$(\n    printf '{...}' \\\n ..." was printed with its escapes).
func oneLine(n string) string {
	if !strings.ContainsAny(n, "\n\t") && len(n) <= maxShownSubst {
		return n
	}
	n = strings.ReplaceAll(n, "\\\n", " ")
	n = strings.Join(strings.Fields(n), " ")
	n = strings.Replace(n, "$( ", "$(", 1)
	if strings.HasSuffix(n, " )") {
		n = n[:len(n)-2] + ")"
	}
	if len(n) > maxShownSubst {
		cut := maxShownSubst
		for cut > 0 && !utf8.RuneStart(n[cut]) {
			cut--
		}
		n = n[:cut] + "…"
		if strings.Contains(n, "$(") {
			n += ")"
		}
	}
	return n
}

// optionOf is the option word argument i is the value of, where the value
// is used; a zero Pos when the argument is no option's value.
func optionOf(args []launch.Value, i int) launch.Pos {
	if i > 0 && strings.HasPrefix(args[i-1].Text, "-") && args[i-1].Pos.File == "" {
		return args[i-1].Pos
	}
	return launch.Pos{}
}

// checkUncheckedFlags notes, once per server, the flags outside vlaunch's
// table whose values therefore go unchecked (VL005). vLLM's parser exits on
// a flag its release lacks (FlexibleArgumentParser.error is argparse's:
// "unrecognized arguments", exit 2), so a flag that really is unknown stops
// the server; but the table lacks some real flags (--disable-chunked-mm-input,
// --model-impl), so "not in the table" proves nothing and the finding stays
// an info. What the table does know is an error: a near-miss of a flag
// (VL101), a flag of other releases (VL102). `vlaunch logs` words the same
// case the same way when vLLM did refuse the flag (LOG181, logs/flags.go).
func checkUncheckedFlags(p *pass) {
	for _, s := range p.Servers {
		var names []string
		var at launch.Pos
		for _, f := range s.Flags() {
			if f.Spec != nil || !unchecked(f, s) {
				continue
			}
			if s.Inv.Frontend == "" && reportTagAbsent(p, s, f) {
				continue
			}
			if len(names) == 0 {
				at = f.At.Pos
			}
			names = append(names, f.Spelling())
		}
		if len(names) > 0 {
			p.ReportAt(s.Inv, at, uncheckedHint,
				"not in vlaunch's flag table for any release (%s–%s; linting for vLLM %s), values unchecked: %s",
				vllm.Oldest(), vllm.Newest(), s.Rel, strings.Join(names, ", "))
		}
	}
}

// reportTagAbsent settles a flag vlaunch's table does not model by the
// release tag's own parser (vllm.TagFlag, read up to 0.24.0): a real option
// of that release is left alone (true, nothing to list); one its parser
// does not register is a warning, since vLLM exits with "unrecognized
// arguments" unless a platform plugin adds it (true). An untagged release
// (newer than the tags read, an rc, a dev build) stays VL005's (false).
func reportTagAbsent(p *pass, s *server, f *cliFlag) bool {
	v := s.Rel.Version
	if !s.Rel.Requested.IsZero() {
		v = s.Rel.Requested
	}
	present, read := vllm.TagFlag(f.Spelling(), v)
	switch {
	case !read:
		return false
	case present:
		return true
	}
	p.ReportAtSeverity(s.Inv, f.At.Pos, diag.Warning, "remove it or check its spelling (`vllm serve --help` in the image you run)",
		"%s", vllm.TagAbsentMessage(v, f.Spelling()))
	return true
}

// uncheckedHint says what VL005 cannot: whether the release has the flag.
const uncheckedHint = "vLLM exits with \"unrecognized arguments\" on a flag its release lacks, and vlaunch's table lacks some real flags: " +
	"check `vllm serve --help` in the image you run"

// unchecked reports a flag that is neither known in some release, a
// near-miss of a known one, nor a bad short option (those are VL101/VL102).
func unchecked(f *cliFlag, s *server) bool {
	sp := f.Spelling()
	if _, slip := s.Rel.ShortAliasFlag(sp); slip {
		return false // VL101 suggests the alias
	}
	if f.Wrapper || f.Abbrev != nil || len(f.Ambiguous) > 0 || strings.ContainsAny(strings.TrimSpace(sp), " \t\u00a0") {
		return false // a flag joined with its value is VL127's
	}
	if s.Inv.Frontend != "" {
		if _, ok := vllm.KnownFlagEver(sp); !ok {
			return true // not vLLM's; maybe the wrapper's
		}
	}
	if strings.HasPrefix(sp, "-") && !strings.HasPrefix(sp, "--") && len(sp) > 2 {
		return false
	}
	if _, ok := vllm.KnownFlagEver(sp); ok {
		return false
	}
	return suggestFlag(f.Name, s.Rel) == ""
}

// filePos is a position with the file it is in: Pos.File is empty for a
// position in the invocation's own file, so a set of positions from
// several files keyed by Pos alone merges two files' findings at the same
// line and column (qa38b kzwrime: both templates' `vllm serve` at 38:47,
// one VL004 lost in the directory run).
type filePos struct {
	file      string
	line, col int
}

// fileAt is pos in the invocation file file (or in pos.File when set).
func fileAt(file string, pos launch.Pos) filePos {
	if pos.File != "" {
		file = pos.File
	}
	return filePos{file, pos.Line, pos.Col}
}
