package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// cliFlag is one option as written on a vLLM command line.
type cliFlag struct {
	// Name is the canonical long name ("tensor-parallel-size"); for flags the
	// release does not know, the spelling normalised the same way.
	Name string
	// At is the word holding the flag (its spelling is At.Text up to "=").
	At launch.Value
	// Value is the flag's argument, nil for switches.
	Value *launch.Value
	// Spec is the release's entry; nil when the release has no such flag.
	Spec *vllm.Flag
	// Negated is true for --no-x.
	Negated bool
	// BoolValue is a stray true/false word after a switch.
	BoolValue *launch.Value
	// MissingValue is true when a value-taking flag had none.
	MissingValue bool
	// Wrapper marks a flag of the wrapper front end, not of vLLM.
	Wrapper bool
	// OtherRelease marks a flag of another release only: this release's
	// parser refuses it (VL102), so it sets nothing the rules read.
	OtherRelease bool
	// Abbrev is the flag an unknown long option is a unique prefix of:
	// argparse (allow_abbrev, the default) accepts it as that flag.
	Abbrev *vllm.Flag
	// Ambiguous are the flags an unknown long option is a prefix of when
	// there are several: argparse refuses it (vllm.Release.PrefixMatches).
	Ambiguous []*vllm.Flag
}

// spec is the flag argparse reads the option as: the release's entry, or
// the one flag it abbreviates; nil when neither.
func (f *cliFlag) spec() *vllm.Flag {
	if f.Spec != nil {
		return f.Spec
	}
	return f.Abbrev
}

// Spelling returns the flag as the user wrote it, without any "=value".
func (f *cliFlag) Spelling() string {
	s, _, _ := strings.Cut(f.At.Text, "=")
	return s
}

// parsed is a serve invocation's argv read against one release.
type parsed struct {
	// frontend is the wrapper whose own flags are accepted too ("" = vLLM's CLI).
	frontend   string
	flags      []*cliFlag
	positional []launch.Value
	// opaque are unresolved words that may expand to any number of arguments.
	opaque []launch.Value
}

var boolWords = map[string]bool{"true": true, "false": true, "True": true, "False": true, "1": true, "0": true, "yes": true, "no": true}

// parseArgs reads argv the way vLLM's argparse does, as far as the release's
// flag table allows.
func parseArgs(args []launch.Value, rel vllm.Release, frontend string) parsed {
	p := parsed{frontend: frontend}
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.Text
		switch {
		case opaqueWord(a):
			p.opaque = append(p.opaque, a)
		case t == "--":
			p.positional = append(p.positional, args[i+1:]...)
			return p
		case isOption(t):
			i = p.option(args, i, rel)
		default:
			p.positional = append(p.positional, a)
		}
	}
	return p
}

// isOption reports whether a word is an option rather than a value
// (negative numbers are values).
func isOption(t string) bool {
	if !strings.HasPrefix(t, "-") || t == "-" {
		return false
	}
	_, err := strconv.ParseFloat(t, 64)
	return err != nil
}

// dottedBase strips a JSON dotted key from an option: --eplb-config.window_size
// and, for a short alias of a JSON flag, -cc.pass_config.x (vLLM's
// FlexibleArgumentParser accepts both). Other single-dash words keep their dots.
func dottedBase(spelling string, rel vllm.Release) string {
	pre, _, dotted := strings.Cut(spelling, ".")
	if !dotted {
		return spelling
	}
	if strings.HasPrefix(spelling, "--") {
		return pre
	}
	if f, ok := rel.Flag(pre); ok && f.Kind == vllm.JSON {
		return pre
	}
	return spelling
}

// option parses the option at args[i] and returns the index of its last word.
func (p *parsed) option(args []launch.Value, i int, rel vllm.Release) int {
	a := args[i]
	spelling, inline, hasInline := strings.Cut(a.Text, "=")
	base := spelling
	base = dottedBase(spelling, rel)
	f := &cliFlag{At: a, Name: normalizeName(base)}
	spec, ok := rel.Flag(base)
	if ok {
		f.Spec, f.Name = spec, spec.Name
		f.Negated = strings.HasPrefix(strings.TrimLeft(strings.ReplaceAll(base, "_", "-"), "-"), "no-") && spec.Kind == vllm.Bool
	}
	p.flags = append(p.flags, f)
	// A flag the release lacks but another release has (removed, or not yet
	// added) still takes its words the way that release parses them, so a
	// removed list flag's values are not read as stray positionals.
	shape, shapeOK := spec, ok
	if !ok {
		shape, shapeOK = vllm.KnownFlagEver(base)
		f.OtherRelease = shapeOK
	}
	if !ok && !shapeOK {
		switch m := rel.PrefixMatches(base); {
		case len(m) == 1:
			f.Abbrev, f.Name, shape, shapeOK = m[0], m[0].Name, m[0], true
		case len(m) > 1:
			f.Ambiguous = m
		}
	}
	if wf, wok := wrapperFlag(p.frontend, base); !ok && wok {
		f.Name, f.Wrapper, shape, shapeOK = wf.Name, true, wf, true
		f.Negated = wf.Kind == vllm.Bool && strings.HasPrefix(normalizeName(base), "no-")
	}
	if hasInline {
		v := a.Slice(len(spelling)+1, len(a.Text))
		f.Value = &v
		_ = inline
		return i
	}
	if shapeOK && attachedShort(spelling, shape) {
		v := a.Slice(2, len(a.Text))
		f.Value = &v
		return i
	}
	next := i + 1
	hasNext := next < len(args) && !isOption(args[next].Text)
	switch {
	case shapeOK && !shape.Kind.TakesValue():
		if hasNext && boolWords[args[next].Text] {
			v := args[next]
			f.BoolValue = &v
			return next
		}
	case shapeOK && shape.Kind == vllm.StringList:
		for next < len(args) && !isOption(args[next].Text) {
			v := args[next]
			if f.Value == nil {
				f.Value = &v
			}
			next++
		}
		f.MissingValue = f.Value == nil
		return next - 1
	case hasNext:
		v := args[next]
		f.Value = &v
		return next
	case shapeOK:
		f.MissingValue = true
	}
	return i
}

// attachedShort reports "-O3": a two-letter alias with its value attached.
func attachedShort(spelling string, spec *vllm.Flag) bool {
	if strings.HasPrefix(spelling, "--") || len(spelling) <= 2 {
		return false
	}
	for _, al := range spec.Aliases {
		if al == spelling {
			return false
		}
	}
	return true
}

// normalizeName turns "--Tensor_Parallel_Size" into "tensor-parallel-size".
func normalizeName(s string) string {
	return strings.ToLower(strings.ReplaceAll(strings.TrimLeft(s, "-"), "_", "-"))
}

// opaqueWord reports an unresolved word that may expand to any number of
// arguments: a variable ($EXTRA_ARGS) or a placeholder ([your extra args]).
func opaqueWord(a launch.Value) bool {
	if a.Known || strings.HasPrefix(a.Text, "-") {
		return false
	}
	return strings.HasPrefix(a.Text, "$") || launch.IsPlaceholder(a.Text)
}
