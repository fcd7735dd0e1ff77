package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
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
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		return nil, diag.Diagnostics{syntaxDiag(file, err)}
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
	return doc, nil
}

var lineRE = regexp.MustCompile(`line (\d+)(?:, column (\d+))?`)

// syntaxDiag turns a yaml.v3 error into a diagnostic with its line (and column when given).
func syntaxDiag(file string, err error) diag.Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	d := diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: file, Message: "invalid YAML: " + msg}
	if m := lineRE.FindStringSubmatch(msg); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
		if m[2] != "" {
			d.Col, _ = strconv.Atoi(m[2])
		}
		d.Message = "invalid YAML: " + strings.TrimSpace(lineRE.ReplaceAllString(msg, ""))
		d.Message = strings.TrimSuffix(strings.TrimPrefix(d.Message, "invalid YAML: : "), ":")
		if !strings.HasPrefix(d.Message, "invalid YAML") {
			d.Message = "invalid YAML: " + d.Message
		}
	}
	if d.Line == 0 {
		d.Line = 1
	}
	return d
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
		return nil, diag.Diagnostics{syntaxDiag(file, err)}
	}
	var ds diag.Diagnostics
	for _, msg := range te.Errors {
		dd := syntaxDiag(file, errors.New(msg))
		dd.Code = CodeDecode
		dd.Message = strings.Replace(dd.Message, "invalid YAML", "wrong type", 1)
		ds = append(ds, dd)
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
