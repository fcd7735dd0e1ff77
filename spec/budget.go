package spec

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"gopkg.in/yaml.v3"
)

// MaxValues bounds the values (scalars, lists and mappings) of one spec,
// aliases expanded. The largest spec the schema allows, 10,000 nodes with
// their RDMA devices, has about 200,000; a typical one a few hundred. It
// stops documents whose aliases multiply ("billion laughs") and files
// that are mostly values, before they cost seconds and hundreds of MiB.
const MaxValues = 250000

// maxTokens bounds what the parser is given: parsing costs about a
// microsecond and a few hundred bytes per YAML node, so a 4 MiB file of
// two million one-character list items would take seconds and most of a
// GiB just to be refused. Keys count as tokens too, hence twice MaxValues.
const maxTokens = 2 * MaxValues

// countTokens over-estimates the YAML nodes data can produce, without
// parsing: every run of characters outside separators, and every
// indicator that can open a collection or imply an empty value ('-', '?',
// ':', ',', '[', '{'). Comments are skipped. It is an estimate for a
// quick refusal; the converter's budget (MaxValues) is the exact bound.
func countTokens(data []byte) int {
	n, inWord, comment := 0, false, false
	for i, c := range data {
		switch {
		case c == '\n':
			inWord, comment = false, false
		case comment:
		case c == '#' && (i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n'):
			comment, inWord = true, false
		case c == ' ' || c == '\t' || c == '\r' || c == ']' || c == '}':
			inWord = false
		case c == '-' || c == '?' || c == ':' || c == ',' || c == '[' || c == '{':
			n++
			inWord = false
		case !inWord:
			n++
			inWord = true
		}
	}
	return n
}

// tooManyTokens is the diagnostic for a file countTokens refuses.
func tooManyTokens(file string, n int) diag.Diagnostic {
	return diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
		Message: fmt.Sprintf("the file holds about %d YAML values and keys, more than the %d a spec may have", n, maxTokens),
		Hint:    "a deployment has a few hundred values; the largest node list the schema allows has about 200,000"}
}

// duplicateKeys reports keys written twice in one mapping (yaml.v3 keeps
// both in the node tree and decoding would silently take one). Merged
// keys (<<) are not duplicates: an explicit key overrides a merged one.
func duplicateKeys(file string, n *yaml.Node, budget *int) diag.Diagnostics {
	if n == nil || n.Kind == yaml.AliasNode || *budget <= 0 {
		return nil
	}
	*budget--
	var ds diag.Diagnostics
	if n.Kind == yaml.MappingNode {
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode || k.Value == "<<" {
				continue
			}
			if first, dup := seen[k.Value]; dup {
				ds = append(ds, diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: file, Line: k.Line, Col: k.Column,
					Message: fmt.Sprintf("key %q is written twice in this mapping (first at line %d)", k.Value, first),
					Hint:    "keep one; YAML does not allow duplicate keys"})
				continue
			}
			seen[k.Value] = k.Line
		}
	}
	for _, c := range n.Content {
		ds = append(ds, duplicateKeys(file, c, budget)...)
	}
	return ds
}
