package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// extraArgProblems reads vllm.extra_args the way vLLM's argparse will, after
// the flags vlaunch writes: a flag the release lacks is refused ("unrecognized
// arguments"), a switch followed by a value and a bare word no flag takes
// are refused (argparse takes the word for a second positional argument and
// exits), a value flag at the end without its value is refused. These are
// the conditions `vlaunch lint` reports as VL101/VL105/VL124, so a bundle
// never carries extra_args its own linter rejects. A flag vlaunch does not
// know is passed through with a warning, taking the next bare word as its
// value.
func extraArgProblems(d *spec.Deployment, r vllm.Release) diag.Diagnostics {
	var ds diag.Diagnostics
	args := d.VLLM.ExtraArgs
	bad := func(i int, sev diag.Severity, msg, hint string) {
		ds = append(ds, bundleDiag(d, codes.GenExtraArg, sev, fmt.Sprintf("vllm.extra_args[%d]", i), msg, hint))
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			bad(i, diag.Error, "\"--\" ends the options: argparse takes every word after it for a positional argument, and vllm serve takes only the model",
				"remove it")
			break
		}
		if !isOption(a) {
			bad(i, diag.Error, fmt.Sprintf("unexpected argument %q: vllm serve takes only the model as a positional argument, and no flag before it takes a value", a),
				"put the flag it belongs to before it, or remove it")
			continue
		}
		name, inline, hasInline := strings.Cut(a, "=")
		f, ok := r.Flag(name)
		if !ok && !knownEver(name) {
			// argparse reads a unique prefix as the flag (lint: the same rule).
			if pf, abbrev := r.PrefixFlag(name); abbrev {
				bad(i, diag.Warning, fmt.Sprintf("%s is read as --%s only because argparse accepts a unique prefix", name, pf.Name), "write it in full: --"+pf.Name)
				f, ok = pf, true
			}
		}
		if g, at, glued := r.GluedFlag(a); !ok && glued {
			bad(i, diag.Error, fmt.Sprintf("%q ends in --%s glued to %s: argparse reads one unknown option", a, g.Name, a[:at]),
				"split it into two arguments")
			continue
		}
		if !ok {
			ds = append(ds, unknownExtraFlag(d, r, i, name)...)
			if !hasInline && i+1 < len(args) && !isOption(args[i+1]) {
				i++ // its value, as far as anyone can tell
			}
			continue
		}
		if short := attachedValue(f, name); short != "" {
			hasInline, inline = true, short // "-O3": the value is attached to the alias
		}
		end := extraFlagValues(f, i, args, hasInline, inline, bad)
		if tf, typed := spec.FlagField(f.Name); typed {
			ds = append(ds, typedFlagDiag(d, i, tf, name, flagValue(f, args[i+1:end+1], hasInline, inline)))
		}
		i = end
	}
	return ds
}

// typedFlagDiag refuses a flag in extra_args that a typed field writes
// (spec.TypedFlags, the one table). generate writes extra_args after its
// own flags and argparse keeps the last value, so the flag would win in
// the engine while validate, check and plan read the typed field: every
// estimate would describe an engine that does not run (qa44b F2). The
// hint names the field to set, with the value extra_args gave.
func typedFlagDiag(d *spec.Deployment, i int, tf spec.FieldFlag, word, value string) diag.Diagnostic {
	name, _, _ := strings.Cut(word, "=")
	msg := fmt.Sprintf("%s overrides %s: generate writes extra_args after its own flags and argparse keeps the last value, so vLLM would run with %s while validate, check and plan model %s",
		strings.TrimSpace(name+" "+value), tf.Path, strings.TrimSpace(name+" "+value), tf.Path)
	hint := typedFlagHint(tf, name, value)
	if d.Pool != "" && i >= topLevelExtraArgs(d) && (strings.HasPrefix(tf.Path, "vllm.") || strings.HasPrefix(tf.Path, "parallelism.")) {
		hint += fmt.Sprintf(" (disaggregation.%s.%s for this pool alone)", d.Pool, tf.Path)
	}
	return bundleDiag(d, codes.GenExtraArg, diag.Error, fmt.Sprintf("vllm.extra_args[%d]", i), msg, hint)
}

// typedFlagHint: "set vllm.max_num_seqs: 8 instead and remove it from
// extra_args"; a switch's value is true, or false for its --no- form; a
// field whose value is not the flag's (model.weights, vllm.speculative,
// several served names) is named with what extra_args gave.
func typedFlagHint(tf spec.FieldFlag, name, value string) string {
	const drop = " instead, and remove it from extra_args"
	switch {
	case tf.Switch && strings.HasPrefix(strings.TrimLeft(name, "-"), "no-"):
		return "set " + tf.Path + ": false (the default)" + drop
	case tf.Switch:
		return "set " + tf.Path + ": true" + drop
	case value == "":
		return "set " + tf.Path + drop
	case len(tf.Flags) > 1 || strings.Contains(value, " "):
		return fmt.Sprintf("set %s to what %s %s asks for%s", tf.Path, name, value, drop)
	}
	return fmt.Sprintf("set %s: %s%s", tf.Path, value, drop)
}

// flagValue is the value extra_args gives a flag: its inline "=value" or
// the words after it (vals); "" for a switch.
func flagValue(f *vllm.Flag, vals []string, hasInline bool, inline string) string {
	if !f.Kind.TakesValue() {
		return ""
	}
	if hasInline {
		return inline
	}
	var out []string
	for _, v := range vals {
		if isOption(v) {
			break
		}
		out = append(out, v)
	}
	return strings.Join(out, " ")
}

// extraFlagValues checks the values of a known flag at args[i] and returns
// the index of its last word.
func extraFlagValues(f *vllm.Flag, i int, args []string, hasInline bool, inline string, bad func(int, diag.Severity, string, string)) int {
	name := args[i]
	if hasInline {
		name, _, _ = strings.Cut(name, "=")
	}
	switch {
	case !f.Kind.TakesValue() && hasInline:
		bad(i, diag.Error, fmt.Sprintf("%s is a switch and takes no value (%q)", name, inline), "write "+name+" alone to turn it on")
	case !f.Kind.TakesValue():
		if i+1 < len(args) && !isOption(args[i+1]) {
			bad(i+1, diag.Error, fmt.Sprintf("%s is a switch and takes no value; %q is read as a stray argument", name, args[i+1]),
				"remove the value (use --no-"+f.Name+" to turn a boolean off where the release has it)")
			return i + 1
		}
	case hasInline:
	case i+1 >= len(args) || isOption(args[i+1]):
		bad(i, diag.Error, fmt.Sprintf("%s needs a value", name), "add its value after it")
	case f.Kind == vllm.StringList:
		for i+1 < len(args) && !isOption(args[i+1]) {
			i++
		}
	default:
		i++
	}
	return i
}

// unknownExtraFlag: a flag outside the release's span is refused; one
// vlaunch has never heard of passes with a warning.
func unknownExtraFlag(d *spec.Deployment, r vllm.Release, i int, name string) diag.Diagnostics {
	path := fmt.Sprintf("vllm.extra_args[%d]", i)
	f, known := vllm.KnownFlagEver(name)
	if !known {
		// The release tags' own parsers (vllm.TagFlag, read up to 0.24.0)
		// settle what vlaunch's table does not model: a real option passes
		// silently, one the release's parser lacks is refused by vLLM.
		switch present, read := vllm.TagFlag(name, r.Version); {
		case read && present:
			return nil
		case read:
			return diag.Diagnostics{bundleDiag(d, codes.GenExtraArg, diag.Warning, path,
				vllm.TagAbsentMessage(r.Version, name),
				"remove it, check its spelling, or change vllm.version")}
		}
		return diag.Diagnostics{bundleDiag(d, codes.GenExtraArg, diag.Warning, path,
			fmt.Sprintf("%s is not in vlaunch's flag table for vLLM %s; passed through unchecked", name, r.Version), "")}
	}
	// vLLM refuses a flag outside its release span ("unrecognized arguments").
	// The spelling's oldest entry says since when (the newest may only
	// start where a kind or alias changed).
	since := f.Since
	if first, ok := vllm.KnownFlagFirst(name); ok {
		since = first.Since
	}
	span := "from " + since.String()
	if since.Less(vllm.Oldest().Version) {
		// Flags removed before the table starts have no known first release.
		span = "only before " + f.Removed.String()
	} else if !f.Removed.IsZero() {
		span += " until " + f.Removed.String()
	}
	return diag.Diagnostics{bundleDiag(d, codes.GenExtraArg, diag.Error, path,
		fmt.Sprintf("vLLM %s has no flag %s (it exists %s)", r.Version, name, span), "remove it or change vllm.version")}
}

// attachedValue returns the value of a short alias written with it ("-O3"
// is "-O 3"), "" when the word is the flag alone.
func attachedValue(f *vllm.Flag, word string) string {
	if strings.HasPrefix(word, "--") {
		return ""
	}
	for _, a := range f.Aliases {
		if word == a {
			return ""
		}
		if strings.HasPrefix(word, a) {
			return word[len(a):]
		}
	}
	return ""
}

func knownEver(name string) bool {
	_, ok := vllm.KnownFlagEver(name)
	return ok
}

// isOption: a word argparse treats as an option (negative numbers are values).
func isOption(a string) bool {
	return len(a) >= 2 && a[0] == '-' && !isNumber(a)
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// topLevelExtraArgs is how many items the document's top-level
// vllm.extra_args has: a pool's view lists them before the pool's own.
func topLevelExtraArgs(d *spec.Deployment) int {
	if n, ok := spec.NodeAt(d.Root, []string{"vllm", "extra_args"}, false); ok && n != nil {
		return len(n.Content)
	}
	return 0
}
