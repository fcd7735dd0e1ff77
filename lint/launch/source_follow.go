package launch

import (
	"bytes"
	"path"

	"mvdan.cc/sh/v3/syntax"
)

// FollowSourcedInputs: `source FILE` / `. FILE` (directly, or in a shell
// function called with the path, as kzwrime's `load_env_file
// "$SCRIPT_DIR/env.sh"` whose body runs `source "$env_file"`) walks FILE in
// the sourcing shell when the path resolves to one of the inputs: its
// variables, exports and functions become the script's, as bash's source
// does. Otherwise the script's environment stays open (Invocation.EnvOpen).
// A switch for the integrator: false restores "any source opens the
// environment".
var FollowSourcedInputs = true

// SourceLookup finds the input a script sources: from is the sourcing
// file, p the path as the script resolves it; ok is false when no input is
// that file (or it is no shell script).
type SourceLookup func(from, p string) (name string, data []byte, ok bool)

// InputLookup is the SourceLookup over a set of inputs by name: p, or p
// relative to the sourcing file's directory (bash resolves a relative
// path against the working directory, which scripts commonly run from
// their own directory); the file itself never.
func InputLookup(inputs map[string][]byte) SourceLookup {
	return func(from, p string) (string, []byte, bool) {
		for _, pre := range []string{"$PWD/", "${PWD}/", "$(pwd)/", "./"} {
			if len(p) > len(pre) && p[:len(pre)] == pre {
				p = p[len(pre):]
			}
		}
		for _, c := range []string{path.Clean(p), path.Join(path.Dir(from), p)} {
			for name, data := range inputs {
				if name != from && path.Clean(name) == c && ShellInput(name, data) {
					return name, data, true
				}
			}
		}
		return "", nil, false
	}
}

// followSource walks the input args[0] names in this shell; false when it
// is not followed (unresolved path, not an input, switched off).
func (w *walker) followSource(args []Value) bool {
	fe := w.fe
	if !FollowSourcedInputs || fe.lookup == nil || len(args) == 0 || !args[0].Known || fe.depth >= maxDepth {
		return false
	}
	name, data, ok := fe.lookup(fe.file, args[0].Text)
	if !ok {
		return false
	}
	if fe.following[name] {
		return true // a file sourcing itself back: bash would loop; walked once
	}
	src := shellSource(name, data)
	src.posFile = name
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src.data), name)
	if err != nil {
		return false // linted on its own, where the error is reported
	}
	if fe.following == nil {
		fe.following = map[string]bool{}
	}
	fe.following[name] = true
	fe.depth++
	n := len(fe.invs)
	inner := &walker{fe: fe, src: src, sc: w.sc, ctx: w.ctx, allExport: w.allExport}
	inner.stmts(f.Stmts)
	w.allExport = inner.allExport
	fe.invs = fe.invs[:n] // what the sourced file starts itself is linted with it
	fe.depth--
	delete(fe.following, name)
	return true
}
