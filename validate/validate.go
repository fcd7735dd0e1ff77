// Package validate checks a deployment spec: the JSON Schema first (every
// error mapped back to its YAML line and column), then the semantic rules
// the schema cannot express. It returns the resolved deployment (package
// resolve) with the diagnostics, and never prints.
package validate

import (
	"errors"
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// File reads and validates the spec at path. The error is non-nil only for
// unusable input (unreadable, empty, binary, not YAML, too big): callers
// exit 2 then, after printing the diagnostics that explain it. See Bytes
// for what the deployment holds.
func File(path string) (*resolve.Deployment, diag.Diagnostics, error) {
	data, err := spec.ReadFile(path)
	if err != nil {
		d := diag.Diagnostic{Code: CodeUnreadable, Severity: diag.Error, File: path, Message: "cannot read spec: " + err.Error()}
		return nil, diag.Diagnostics{d}, fmt.Errorf("%s: %w: %v", path, spec.ErrUnusable, err)
	}
	return Bytes(path, data)
}

// Bytes validates data as the content of file (used in positions and to
// resolve a relative model config path). The deployment is non-nil whenever
// the document could be decoded, even with findings: its Spec (defaults
// applied) is always set, and it is completely resolved (model, GPU,
// release, layout, engine settings) when the diagnostics hold no error.
func Bytes(file string, data []byte) (*resolve.Deployment, diag.Diagnostics, error) {
	if len(data) > spec.MaxSpecBytes {
		d := diag.Diagnostic{Code: CodeUnreadable, Severity: diag.Error, File: file,
			Message: fmt.Sprintf("the file is larger than %d MiB", spec.MaxSpecBytes>>20)}
		return nil, diag.Diagnostics{d}, unusable(file, d.Message)
	}
	root, ds := spec.ParseNode(file, data)
	if ds.HasErrors() {
		return nil, ds, unusable(file, ds[0].Message)
	}
	value, problems, err := toValue(root)
	if err != nil {
		d := diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
			Message: "the document is too large or too deeply nested: " + err.Error(),
			Hint:    "a deployment has a few hundred values; check for nested aliases (*name) that multiply"}
		return nil, diag.Diagnostics{d}, unusable(file, d.Message)
	}
	ds = append(problemDiags(file, problems), filterProblems(schemaCheck(file, root, value), problems)...)
	d, decodeDiags := spec.Decode(file, root)
	if !ds.HasErrors() {
		ds = append(ds, decodeDiags...)
	}
	if d == nil {
		ds.Sort()
		return nil, ds, nil
	}
	spec.ApplyDefaults(d)
	r, sds := semantic(d, ds)
	ds = append(ds, sds...)
	ds.Sort()
	return r, ds, nil
}

func unusable(file, msg string) error {
	return fmt.Errorf("%s: %w: %s", file, spec.ErrUnusable, msg)
}

// IsUnusable reports whether err marks unusable input (exit code 2).
func IsUnusable(err error) bool { return errors.Is(err, spec.ErrUnusable) }

func problemDiags(file string, ps []problem) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, p := range ps {
		ds = append(ds, diag.Diagnostic{Code: CodeType, Severity: diag.Error, File: file,
			Line: p.node.Line, Col: p.node.Column, Path: spec.PathString(p.path), Message: p.msg})
	}
	return ds
}

// filterProblems drops schema errors at paths already reported as
// problems (a .nan the converter had to turn into a string).
func filterProblems(ds diag.Diagnostics, ps []problem) diag.Diagnostics {
	bad := map[string]bool{}
	for _, p := range ps {
		bad[spec.PathString(p.path)] = true
	}
	out := ds[:0]
	for _, d := range ds {
		if !bad[d.Path] {
			out = append(out, d)
		}
	}
	return out
}

// taintedPaths are the fields whose decoded value cannot be trusted because
// the schema already rejected them; semantic rules stay quiet about them
// rather than piling a second, derived error on the first.
func taintedPaths(ds diag.Diagnostics) []string {
	var out []string
	for _, d := range ds {
		switch d.Code {
		case CodeType, CodeValue, CodeRequired:
			out = append(out, d.Path)
		}
	}
	return out
}
