package launch

import (
	"bytes"
	"fmt"
	"gopkg.in/yaml.v3"

	"github.com/vlaunch/vlaunch/diag"
	"mvdan.cc/sh/v3/syntax"
)

// Script is one parsed piece of shell: a whole file or a string inside one.
// Hygiene rules walk Scripts; positions go through their source.
type Script struct {
	src  *source
	File *syntax.File
}

// Name is the input file the script was found in.
func (s *Script) Name() string { return s.src.file }

// Pos is the input-file position of a parser position in the script.
func (s *Script) Pos(p syntax.Pos) Pos { return s.src.pos(p) }

// At is the input-file position of byte offset off of the script text.
func (s *Script) At(off int) Pos { return s.src.at(off) }

// Data is the script text as parsed (a leading byte-order mark blanked).
func (s *Script) Data() []byte { return s.src.data }

// Derived reports text found inside another input (a `sh -c` body, a
// here-document, a manifest scalar) rather than a whole file.
func (s *Script) Derived() bool { return s.src.sub != nil }

// BOM reports a file that began with a UTF-8 byte-order mark.
func (s *Script) BOM() bool { return s.src.bom }

// frontEnd collects what one input file yields.
type frontEnd struct {
	// shellEnv is the environment (-e) of the interactive container shells
	// the document started so far (interactiveShell): a Markdown
	// document's later commands are typed into that shell (ParseMarkdown).
	shellEnv []EnvVar
	file     string
	invs     []*Invocation
	scripts  []*Script
	diags    diag.Diagnostics
	funcs    map[string]*syntax.FuncDecl
	// funcSrc is the source each function was defined in, which need not
	// be the walker's own (a sourced input's, another Markdown block's).
	funcSrc map[*syntax.FuncDecl]*source
	// lookup finds sourced inputs (nil: none followed); following holds
	// the inputs being walked, against a file sourcing itself back.
	lookup    SourceLookup
	following map[string]bool
	depth     int
	// sourced is set once the script sources another file: its variables are unknown.
	sourced bool
	// steps counts statements walked; unrolled loops and functions stop at maxSteps.
	steps int
	// clauses numbers the walks of if and case statements (Arm.Clause).
	clauses int
	// configMaps are the data of the ConfigMaps a manifest file defines, by
	// name (nil for a name defined twice).
	configMaps map[string]*yaml.Node
	// services and pods are a manifest's Services and its pods' metadata.
	services []kubeService
	pods     map[*Invocation]podMeta
	// hits collects, while a command's words are expanded, its references
	// to variables a parent shell did not export (scope.hidden);
	// cmdHidden holds them while the command is walked (newInvocation).
	hits      *[]ParentOnlyRef
	cmdHidden []ParentOnlyRef
}

// maxSteps bounds the work per input (nested loops unroll multiplicatively).
const maxSteps = 20000

// maxDepth bounds nested parsing (sh -c inside ssh inside a function...).
const maxDepth = 8

// ParseShell reads a shell script and returns the vLLM-related invocations
// it contains, the parsed scripts (for hygiene rules) and syntax errors.
func ParseShell(file string, data []byte) ([]*Invocation, []*Script, diag.Diagnostics) {
	return parseShellWith(file, data, nil)
}

// parseShellWith is ParseShell following the sourced inputs lookup finds.
func parseShellWith(file string, data []byte, lookup SourceLookup) ([]*Invocation, []*Script, diag.Diagnostics) {
	fe := &frontEnd{file: file, funcs: map[string]*syntax.FuncDecl{}, lookup: lookup}
	src := shellSource(file, data)
	fe.parseAndWalk(src, sbatchScope(src), walkCtx{})
	fe.notePlaceholders(src, true)
	return fe.invs, fe.scripts, fe.diags
}

// shellSource is a shell file's text as the parser reads it.
func shellSource(file string, data []byte) *source {
	data = validUTF8(data)
	src := newFileSource(file, data, false)
	if bytes.HasPrefix(data, utf8BOM) {
		// bash reads the mark as part of the first word; parse the rest
		// (VL309 reports it) with the columns kept.
		src.data = append([]byte("   "), data[len(utf8BOM):]...)
		src.bom = true
	}
	return src
}

// utf8BOM is the byte-order mark Windows editors put at the start of a file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// walkCtx is what a nested script inherits from where it was found.
type walkCtx struct {
	host      string
	container *containerCtx
	role      string
	// background is set inside a compound command or pipeline the shell
	// does not wait for (`( vllm serve ... ) &`, `vllm serve ... | tee log &`):
	// the commands in it run in the background too.
	background bool
	// operatorArgs are flags an operator appends to the vLLM server the
	// container runs, wherever its command line sits (Dynamo's multinode
	// launch inserts them after the dynamo.vllm command, before any shell
	// operator).
	operatorArgs []Value
	// arms are the branches being walked (Invocation.Arms).
	arms []Arm
}

// parseAndWalk parses src as bash and walks it with scope sc.
func (fe *frontEnd) parseAndWalk(src *source, sc *scope, ctx walkCtx) {
	if fe.depth >= maxDepth {
		return
	}
	fe.depth++
	defer func() { fe.depth-- }()
	f := fe.parse(src)
	if f == nil {
		return
	}
	fe.scripts = append(fe.scripts, &Script{src: src, File: f})
	w := &walker{fe: fe, src: src, sc: sc, ctx: ctx}
	w.stmts(f.Stmts)
}

func (fe *frontEnd) parseErr(src *source, err error) diag.Diagnostic {
	d := diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: fe.file, Message: "shell syntax error: " + err.Error()}
	var pos syntax.Pos
	switch e := err.(type) {
	case syntax.ParseError:
		pos, d.Message = e.Pos, "shell syntax error: "+e.Text
	case syntax.LangError:
		pos, d.Message = e.Pos, fmt.Sprintf("shell syntax error: %s is not supported in bash", e.Feature)
	}
	p := src.pos(pos)
	if p.Line == 0 {
		p = src.at(0)
	}
	switch {
	case conflictMarker(src.data):
		d.Hint = "the file still has merge-conflict markers (<<<<<<<, =======, >>>>>>>)"
	case BacktickLine(src.data) > 0:
		d.Hint = "lines end in a backtick: this looks like PowerShell, whose line continuation is `; vlaunch reads POSIX shell, where it is \\"
	}
	d.Line, d.Col = p.Line, p.Col
	return d
}

// BacktickLine is the first line ending in " `" (1-based), 0 if none.
func BacktickLine(data []byte) int {
	for i, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasSuffix(bytes.TrimRight(l, " \t\r"), []byte(" `")) {
			return i + 1
		}
	}
	return 0
}
