package spec

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// Locate is the one pass that gives findings about this spec their place:
// every diagnostic with a field path but no line (estimate's, preflight's,
// a stage's) gets the spec's file and the line and column of that field, or
// of its nearest ancestor present in the document when the field was left
// to its default. Findings about other files, and findings that already
// carry a position, keep theirs.
func (d *Deployment) Locate(ds diag.Diagnostics) {
	if d == nil {
		return
	}
	for i := range ds {
		f := &ds[i]
		if f.Line != 0 || f.Path == "" || (f.File != "" && f.File != d.File) {
			continue
		}
		if d.File != "" {
			f.File = d.File
		}
		f.Line, f.Col = d.Pos(SplitPath(f.Path)...)
	}
}

// SplitPath is the inverse of PathString: "hardware.nodes[1].name" becomes
// hardware, nodes, 1, name.
func SplitPath(p string) []string {
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	return strings.Split(strings.TrimPrefix(p, "."), ".")
}
