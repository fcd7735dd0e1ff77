package launch

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// CodeSyntax is the lint code of a shell or YAML syntax error. The front end
// reports it itself; package lint documents it with the rules.
const CodeSyntax = codes.VLSyntax

// Parse picks the front end by content (YAML manifests or shell), returns
// the invocations it finds with their nodes named, the parsed shell text
// and syntax errors.
func Parse(name string, data []byte) ([]*Invocation, []*Script, diag.Diagnostics) {
	return ParseWith(name, data, nil)
}

// ParseWith is Parse following, in a shell script, the `source`d files
// lookup finds among the inputs (FollowSourcedInputs).
func ParseWith(name string, data []byte, lookup SourceLookup) ([]*Invocation, []*Script, diag.Diagnostics) {
	var invs []*Invocation
	var scripts []*Script
	var ds diag.Diagnostics
	switch {
	case DataFile(name):
		return nil, nil, nil
	case Markdown(name):
		invs, scripts, ds = ParseMarkdown(name, data)
	case isManifest(name, data):
		invs, scripts, ds = ParseManifest(name, data)
	default:
		invs, scripts, ds = parseShellWith(name, data, lookup)
	}
	nameNodes(name, invs)
	return invs, scripts, ds
}

// DataFile reports a file that holds data, not a launch, by its name: a
// hosts table (the bundle's `hosts`, /etc/hosts), a bundle's marker, JSON,
// CSV, TOML, INI, plain text. Reading one as shell would only report
// syntax errors on lines that were never meant to run.
func DataFile(name string) bool {
	b := strings.ToLower(filepath.Base(name))
	if b == "hosts" || b == ".vlaunch-bundle" {
		return true
	}
	ext := filepath.Ext(b)
	return dataFileExt[ext] && ext != ".yaml" && ext != ".yml" && ext != ".md"
}

// ShellInput reports an input Parse reads as a shell script (not data, a
// Markdown document or a YAML manifest).
func ShellInput(name string, data []byte) bool {
	return !DataFile(name) && !Markdown(name) && !isManifest(name, data)
}

// isManifest reports YAML by extension, or by a leading apiVersion/kind.
func isManifest(name string, data []byte) bool {
	ext := strings.ToLower(filepath.Ext(name))
	if ext == ".yaml" || ext == ".yml" {
		return true
	}
	t := bytes.TrimSpace(data)
	return bytes.HasPrefix(t, []byte("apiVersion:")) || bytes.HasPrefix(t, []byte("kind:")) || bytes.HasPrefix(t, []byte("---"))
}

// nameNodes labels invocations: the file name alone when it holds one
// server, else file#N in order.
func nameNodes(file string, invs []*Invocation) {
	n := 0
	for _, inv := range invs {
		if inv.Kind == KindServe {
			n++
		}
	}
	k := 0
	for _, inv := range invs {
		if inv.Node != "" {
			continue
		}
		inv.Node = file
		if inv.Kind == KindServe && n > 1 {
			k++
			inv.Node = fmt.Sprintf("%s#%d", file, k)
		}
		if inv.Host != "" {
			inv.Node += " (" + inv.Host + ")"
		}
	}
}

// InjectedEnv reports a variable the platform sets in every pod it starts
// (LeaderWorkerSet's LWS_*): it has a value at run time that no file shows.
func InjectedEnv(name string) bool {
	for _, n := range lwsEnv {
		if n == name {
			return true
		}
	}
	return false
}
