package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/internal/inputfile"
	"gopkg.in/yaml.v3"
)

// MaxSpecBytes bounds the input so a huge or hostile file is refused quickly.
// A spec is a few KiB (the reference example is 3 KiB); 4 MiB still holds
// the largest node list the schema allows (hardware.nodes).
const MaxSpecBytes = 4 << 20

// Diagnostic codes the loader reports.
const (
	CodeUnreadable = codes.SpecUnreadable
	CodeSyntax     = codes.SpecSyntax
	CodeDecode     = codes.SpecType
)

// ErrUnusable marks input that could not be turned into a document at all
// (exit code 2), as opposed to a document with findings (exit code 1).
var ErrUnusable = errors.New("unusable input")

// ReadFile reads a spec file: a regular file (a FIFO or device is refused
// without blocking) of at most MaxSpecBytes.
func ReadFile(path string) ([]byte, error) {
	data, err := inputfile.Read(path, MaxSpecBytes)
	if errors.Is(err, inputfile.ErrTooLarge) {
		return nil, fmt.Errorf("%w; a deployment spec is a few KiB", err)
	}
	return data, err
}

// ParseNode parses data into one YAML document node. It reports syntax
// errors, empty input, binary input and multi-document files.
func ParseNode(file string, data []byte) (*yaml.Node, diag.Diagnostics) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, diag.Diagnostics{{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
			Message: "the file is empty", Hint: "start from `vlaunch init --example deepseek-v3-32xh20`"}}
	}
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, diag.Diagnostics{{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
			Message: "the file is binary (contains NUL bytes), not YAML"}}
	}
	if !utf8.Valid(data) {
		return nil, diag.Diagnostics{{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
			Message: "the file is not UTF-8 text (binary?), so it cannot be YAML"}}
	}
	if n := countTokens(data); n > maxTokens {
		return nil, diag.Diagnostics{tooManyTokens(file, n)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		return nil, diag.Diagnostics{syntaxDiag(file, data, err)}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, diag.Diagnostics{{Code: CodeSyntax, Severity: diag.Error, File: file, Line: extra.Line, Col: extra.Column,
			Message: "the file holds more than one YAML document", Hint: "put one deployment per file"}}
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return nil, diag.Diagnostics{{Code: CodeSyntax, Severity: diag.Error, File: file, Line: doc.Line, Col: doc.Column,
			Message: fmt.Sprintf("the document must be a mapping of sections, found %s", kindName(doc)),
			Hint:    "a deployment starts with `apiVersion: vlaunch/v1` and `kind: Deployment`"}}
	}
	budget := MaxValues
	if ds := duplicateKeys(file, doc, &budget); len(ds) > 0 {
		return nil, ds
	}
	return doc, nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return "a scalar value"
	case yaml.AliasNode:
		return "an alias"
	}
	return "an empty document"
}

// Decode fills a Deployment from a parsed document node. Type mismatches are
// reported with their line; run schema validation first for full positions.
func Decode(file string, root *yaml.Node) (*Deployment, diag.Diagnostics) {
	d := &Deployment{File: file, Root: root}
	err := root.Decode(d)
	if err == nil {
		return d, nil
	}
	var te *yaml.TypeError
	if !errors.As(err, &te) {
		d := decodeDiag(file, strings.TrimPrefix(err.Error(), "yaml: "))
		d.Code, d.Message = CodeSyntax, strings.Replace(d.Message, "wrong type: ", "invalid YAML: ", 1)
		return nil, diag.Diagnostics{d}
	}
	var ds diag.Diagnostics
	for _, msg := range te.Errors {
		ds = append(ds, decodeDiag(file, msg))
	}
	return d, ds
}

// Load reads, parses and decodes a spec file without schema validation.
// Callers that want every diagnostic use validate.File instead.
func Load(path string) (*Deployment, diag.Diagnostics) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, diag.Diagnostics{{Code: CodeUnreadable, Severity: diag.Error, File: path, Message: "cannot read spec: " + err.Error()}}
	}
	root, ds := ParseNode(path, data)
	if ds.HasErrors() {
		return nil, ds
	}
	return Decode(path, root)
}

func jsonMarshal(v interface{}) ([]byte, error) { return json.Marshal(v) }
