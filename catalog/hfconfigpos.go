package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// ConfigError is an error in a model's config.json (or in the
// hf_quant_config.json beside it) with where it lies in that file, so that
// a user with a 2,000-line config.json is sent to the line at fault rather
// than to the spec line naming the file. Error() is the message alone; the
// position is for the caller to render (validate reports it as
// config.json:LINE:COL).
type ConfigError struct {
	// File is the file at fault as the checkpoint names it: "config.json"
	// or HFQuantConfigFile.
	File string
	// Key is the dotted path of the key at fault ("text_config.hidden_size",
	// "layer_types[3]"), "" for a syntax error or the whole object.
	Key string
	// Line and Col are 1-based (Col counts bytes, as diag's snippets do);
	// 0 when unknown.
	Line, Col int
	Err       error
}

func (e *ConfigError) Error() string { return e.Err.Error() }
func (e *ConfigError) Unwrap() error { return e.Err }

// jsonIndex holds where each key of a JSON document starts, in the file
// as read (before pythonJSON's NaN/Infinity rewrite).
type jsonIndex struct {
	orig []byte
	// at maps a dotted key path to the byte offset of its key's opening
	// quote (an array element: of its value); "" is the top-level value.
	at map[string]int
	// edits are pythonJSON's rewrites, to map offsets in its output back.
	edits []jsonEdit
}

// jsonEdit is one non-finite literal pythonJSON rewrote as null: at out
// offset outAt, inLen bytes of the original became the 4 of "null".
type jsonEdit struct{ outAt, inAt, inLen int }

// maxIndexDepth bounds the nesting indexed: model configs nest 3 or 4
// deep, and a pathological file must not cost a deep stack.
const maxIndexDepth = 64

// indexJSON indexes orig's keys. It never fails: what cannot be read
// (a syntax error) ends the index where it is.
func indexJSON(orig []byte) *jsonIndex {
	out, edits := pythonJSONEdits(orig)
	ix := &jsonIndex{orig: orig, at: map[string]int{}, edits: edits}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	type frame struct {
		path    string
		arr     bool
		i       int
		wantKey bool
		cur     string
	}
	var stack []frame
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return ix
		}
		start := ix.orig0(skipSeparators(out, before))
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if n := len(stack); n > 0 && !stack[n-1].arr {
				stack[n-1].wantKey = true
			}
			continue
		}
		path := ""
		if n := len(stack); n > 0 {
			f := &stack[n-1]
			switch {
			case !f.arr && f.wantKey:
				key, _ := tok.(string)
				f.cur, f.wantKey = joinKey(f.path, key), false
				if _, seen := ix.at[f.cur]; !seen {
					ix.at[f.cur] = start
				}
				continue
			case f.arr:
				path = f.path + "[" + strconv.Itoa(f.i) + "]"
				f.i++
				ix.at[path] = start
			default:
				path = f.cur
				f.wantKey = true
			}
		} else {
			ix.at[""] = start
		}
		if d, ok := tok.(json.Delim); ok {
			if len(stack) >= maxIndexDepth {
				return ix
			}
			stack = append(stack, frame{path: path, arr: d == '[', wantKey: d == '{'})
		}
	}
}

func joinKey(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// skipSeparators is the offset of the first byte at or after i that is not
// whitespace, ',' or ':' (where the decoder's next token starts).
func skipSeparators(b []byte, i int) int {
	for i < len(b) && strings.IndexByte(" \t\r\n,:", b[i]) >= 0 {
		i++
	}
	return i
}

// orig0 maps an offset in pythonJSON's output to the file as read.
func (ix *jsonIndex) orig0(o int) int {
	shift := 0
	for _, e := range ix.edits {
		switch {
		case o >= e.outAt+4:
			shift += 4 - e.inLen
		case o > e.outAt:
			return e.inAt // inside a rewritten literal: its start
		}
	}
	return o - shift
}

// lineCol turns a byte offset of the file as read into a 1-based line and
// byte column.
func (ix *jsonIndex) lineCol(off int) (int, int) {
	off = min(max(off, 0), len(ix.orig))
	line := 1 + bytes.Count(ix.orig[:off], []byte("\n"))
	return line, off - bytes.LastIndexByte(ix.orig[:off], '\n')
}

// keyPos is where key (a dotted path) is written, or, when it is not, where
// the nearest enclosing key that is written is (the top-level object
// last): a field missing from text_config points at text_config.
func (ix *jsonIndex) keyPos(key string) (int, int, bool) {
	for k := key; ; {
		if off, ok := ix.at[k]; ok {
			l, c := ix.lineCol(off)
			return l, c, true
		}
		if k == "" {
			return 0, 0, false
		}
		if i := strings.LastIndexAny(k, ".["); i >= 0 {
			k = k[:i]
		} else {
			k = ""
		}
	}
}

// configError wraps err, an error reading the file (config.json or
// HFQuantConfigFile) whose index is ix, with its position: a JSON syntax
// error at its offset, a JSON type error at its field's key, any other
// error at key (a dotted path; "" for the whole document).
func (ix *jsonIndex) configError(file, key string, err error) error {
	ce := &ConfigError{File: file, Key: key, Err: err}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		ce.Key = ""
		off := int(se.Offset) - 1 // the decoder has read the offending byte
		if strings.Contains(se.Error(), "unexpected end of JSON input") {
			off = int(se.Offset)
		}
		ce.Line, ce.Col = ix.lineCol(ix.orig0(max(off, 0)))
		return ce
	case errors.As(err, &te) && te.Field != "":
		ce.Key = joinKey(key, te.Field)
	}
	if l, c, ok := ix.keyPos(ce.Key); ok {
		ce.Line, ce.Col = l, c
	}
	return ce
}

// pythonJSONEdits is pythonJSON with the list of its rewrites (the same
// scan, eachNonFinite; TestPythonJSONEditsAgree holds the two outputs
// equal): each literal of inLen bytes at inAt is "null" at outAt.
func pythonJSONEdits(data []byte) ([]byte, []jsonEdit) {
	out := pythonJSON(data)
	if len(out) == len(data) && bytes.Equal(out, data) {
		return out, nil
	}
	var edits []jsonEdit
	shift := 0 // out's offset minus data's so far
	eachNonFinite(data, func(at, n int) {
		edits = append(edits, jsonEdit{outAt: at + shift, inAt: at, inLen: n})
		shift += 4 - n
	})
	return out, edits
}
