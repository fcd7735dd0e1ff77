package codes

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// usage is what scanModule found in the module's non-test source.
type usage struct {
	// literals are code strings written outside the catalog ("file:line").
	literals []string
	// direct counts codes.X selectors outside alias declarations.
	direct map[string]bool
	// aliases maps a package-local constant (dir + name) declared as
	// `CodeX = codes.X` to X; aliasUsed records the aliases referred to.
	aliases   map[string]string
	aliasUsed map[string]bool
}

// used reports whether catalog constant name is referred to, directly or
// through a package's alias that is itself used.
func (u *usage) used(name string) bool {
	if u.direct[name] {
		return true
	}
	for alias, target := range u.aliases {
		if target == name && u.aliasUsed[alias] {
			return true
		}
	}
	return false
}

// scanModule parses every non-test Go file under root except this
// package's and records code literals and uses of catalog constants.
func scanModule(t *testing.T, root string) *usage {
	u := &usage{direct: map[string]bool{}, aliases: map[string]string{}, aliasUsed: map[string]bool{}}
	self, _ := filepath.Abs(".")
	idents := map[string]bool{} // dir + "." + name of every identifier use
	selectors := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		abs, _ := filepath.Abs(path)
		if d.IsDir() && (abs == self || d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && path != root)) {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		u.scanFile(path, f, idents, selectors)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for alias := range u.aliases {
		dir, name, _ := strings.Cut(alias, "\x00")
		u.aliasUsed[alias] = idents[dir+"\x00"+name] || selectors[name]
	}
	return u
}

func (u *usage) scanFile(path string, f *ast.File, idents, selectors map[string]bool) {
	dir := filepath.Dir(path)
	declared := map[*ast.Ident]bool{}
	inAlias := map[*ast.SelectorExpr]bool{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				if sel, ok := codesSelector(v); ok && i < len(vs.Names) {
					u.aliases[dir+"\x00"+vs.Names[i].Name] = sel.Sel.Name
					declared[vs.Names[i]] = true
					inAlias[sel] = true
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BasicLit:
			if s, err := strconv.Unquote(x.Value); err == nil && x.Kind == token.STRING && codeRE.MatchString(s) {
				u.literals = append(u.literals, path+": "+s)
			}
		case *ast.SelectorExpr:
			if sel, ok := codesSelector(x); ok && !inAlias[sel] {
				u.direct[sel.Sel.Name] = true
			}
			selectors[x.Sel.Name] = true
		case *ast.Ident:
			if !declared[x] {
				idents[dir+"\x00"+x.Name] = true
			}
		}
		return true
	})
}

// codesSelector matches `codes.Name`.
func codesSelector(e ast.Expr) (*ast.SelectorExpr, bool) {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	x, ok := sel.X.(*ast.Ident)
	return sel, ok && x.Name == "codes"
}

// parseDir parses the non-test Go files of dir.
func parseDir(t *testing.T, dir string) []*ast.File {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.File
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, f)
	}
	return out
}

// constStrings maps every constant declared with a string literal to it.
func constStrings(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, v := range vs.Values {
				if lit, ok := v.(*ast.BasicLit); ok && i < len(vs.Names) {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						out[vs.Names[i].Name] = s
					}
				}
			}
		}
	}
	return out
}
