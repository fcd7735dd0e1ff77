package validate

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/schemas"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"
)

var (
	compileOnce sync.Once
	compiled    *gojsonschema.Schema
	schemaTree  map[string]interface{}
)

// loadSchema compiles the embedded schema once. A broken embedded schema is
// a build defect that the tests catch, so it panics.
func loadSchema() *gojsonschema.Schema {
	compileOnce.Do(func() {
		s, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(schemas.Deployment))
		if err != nil {
			panic("embedded deployment schema does not compile: " + err.Error())
		}
		if err := json.Unmarshal(schemas.Deployment, &schemaTree); err != nil {
			panic("embedded deployment schema is not JSON: " + err.Error())
		}
		compiled = s
	})
	return compiled
}

// schemaCheck validates the converted document and maps every error to the
// YAML node it is about.
func schemaCheck(file string, root *yaml.Node, value interface{}) diag.Diagnostics {
	res, err := loadSchema().Validate(gojsonschema.NewGoLoader(value))
	if err != nil {
		return diag.Diagnostics{{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
			Message: "the document cannot be checked against the schema: " + err.Error()}}
	}
	errs := res.Errors()
	oneOf := map[string]bool{}
	for _, e := range errs {
		if e.Type() == "number_one_of" {
			oneOf[e.Context().String("\x00")] = true
		}
	}
	var ds diag.Diagnostics
	seen := map[string]bool{}
	for _, e := range errs {
		if e.Type() == "required" && oneOf[e.Context().String("\x00")] {
			continue // explained by the one-of diagnostic at the same place
		}
		d, ok := mapError(file, root, e)
		key := string(d.Code) + "\x00" + d.Path + "\x00" + d.Message
		if ok && !seen[key] {
			seen[key] = true
			ds = append(ds, d)
		}
	}
	return ds
}

// contextPath splits a gojsonschema context ("(root)", "hardware", "nodes",
// "0") into path segments. The NUL delimiter cannot occur in keys because
// the loader refuses files that contain NUL bytes.
func contextPath(e gojsonschema.ResultError) []string {
	segs := strings.Split(e.Context().String("\x00"), "\x00")
	if len(segs) > 0 && segs[0] == "(root)" {
		segs = segs[1:]
	}
	return segs
}

// mapError turns one schema error into a diagnostic; ok is false for
// errors that only summarise others (if/then/else, anyOf).
func mapError(file string, root *yaml.Node, e gojsonschema.ResultError) (diag.Diagnostic, bool) {
	segs := contextPath(e)
	d := diag.Diagnostic{Severity: diag.Error, File: file, Path: spec.PathString(segs)}
	prop, _ := e.Details()["property"].(string)
	switch e.Type() {
	case "condition_then", "condition_else", "number_any_of", "number_all_of":
		return d, false
	case "additional_property_not_allowed":
		return unknownKey(d, root, segs, prop), true
	case "required":
		d.Code, d.Path = CodeRequired, spec.PathString(append(segs[:len(segs):len(segs)], prop))
		d.Message = fmt.Sprintf("%s is required", quoteKey(d.Path))
		d.Hint = requiredHint(d.Path)
	case "number_one_of":
		d.Code = CodeRequired
		d.Message, d.Hint = oneOfMessage(d.Path, root, segs)
	case "invalid_type":
		d.Code = CodeType
		d.Message, d.Hint = typeMessage(d.Path, segs, e)
	case "enum", "const":
		d.Code = CodeValue
		d.Message, d.Hint = enumMessage(d.Path, e)
	default:
		d.Code = CodeValue
		var ok bool
		if d.Message, d.Hint, ok = boundMessage(d.Path, segs, e); !ok {
			d.Message = fmt.Sprintf("%s %s", quoteKey(d.Path), lowerFirst(e.Description()))
		}
	}
	n, _ := spec.NodeAt(root, segs, false)
	d.Line, d.Col = n.Line, n.Column
	return d, true
}

func unknownKey(d diag.Diagnostic, root *yaml.Node, segs []string, prop string) diag.Diagnostic {
	path := append(segs[:len(segs):len(segs)], prop)
	n, _ := spec.NodeAt(root, path, true)
	d.Code, d.Line, d.Col = CodeUnknownKey, n.Line, n.Column
	d.Path = spec.PathString(path)
	where := "at the top level"
	if len(segs) > 0 {
		where = "in " + quoteKey(spec.PathString(segs))
	}
	d.Message = fmt.Sprintf("unknown key %q %s", prop, where)
	allowed := allowedKeys(segs)
	if s := suggest(prop, allowed); s != "" {
		d.Hint = s
	} else if len(allowed) > 0 {
		d.Hint = "allowed keys: " + strings.Join(allowed, ", ")
	}
	return d
}

func quoteKey(path string) string {
	if path == "" {
		return "the document"
	}
	return "`" + path + "`"
}

func requiredHint(path string) string {
	switch path {
	case "apiVersion":
		return "add `apiVersion: " + spec.APIVersion + "`"
	case "kind":
		return "add `kind: " + spec.Kind + "`"
	case "hardware.gpu":
		return "a catalog id (see `vlaunch gpus`) or the GPU's figures"
	}
	return ""
}

func oneOfMessage(path string, root *yaml.Node, segs []string) (string, string) {
	if path != "model" {
		return quoteKey(path) + " must match exactly one of its allowed forms", ""
	}
	_, hasName := spec.NodeAt(root, append(segs[:len(segs):len(segs)], "name"), false)
	_, hasConfig := spec.NodeAt(root, append(segs[:len(segs):len(segs)], "config"), false)
	if hasName && hasConfig {
		return "`model` has both `name` and `config`; give exactly one", "keep `name` for a catalog model or `config` for your own config.json"
	}
	return "`model` needs `name` (a catalog id) or `config` (a path to a config.json)", "see `vlaunch models` for catalog ids"
}

func typeMessage(path string, segs []string, e gojsonschema.ResultError) (string, string) {
	expected, _ := e.Details()["expected"].(string)
	expected = strings.ReplaceAll(strings.Trim(expected, "[]"), ",", " or ")
	given, _ := e.Details()["given"].(string)
	msg := fmt.Sprintf("%s has the wrong type: expected %s, got %s", quoteKey(path), expected, given)
	hint := ""
	switch {
	case path == "parallelism":
		hint = "write `parallelism: auto` or a mapping of tensor, pipeline, data, expert"
	case path == "hardware.gpu":
		hint = "a catalog id such as h100-sxm (see `vlaunch gpus`) or a mapping of the GPU's figures"
	case len(enumOf(segs)) > 0:
		hint = "write one of: " + strings.Join(enumOf(segs), ", ")
	case path == "vllm.version":
		hint = "quote the version, e.g. \"0.11.0\", so YAML keeps it as text"
	case strings.Contains(expected, "string") && (given == "number" || given == "integer" || given == "boolean"):
		hint = "quote the value so YAML keeps it as text"
	case expected == "integer" && given == "number":
		hint = "use a whole number"
	case expected == "integer" || expected == "number":
		hint = "write a plain number without quotes or units; the unit is in the key name"
	}
	return msg, hint
}

func enumMessage(path string, e gojsonschema.ResultError) (string, string) {
	allowed := enumValues(e)
	got := fmt.Sprint(e.Value())
	msg := fmt.Sprintf("%s is %q; allowed: %s", quoteKey(path), got, strings.Join(allowed, ", "))
	hint := suggest(got, allowed)
	if path == "model.weights" && hint == "" {
		hint = preQuantizedHint
	}
	if path == "hardware.network.inter_node.kind" && strings.EqualFold(got, "nvlink") {
		// inter_node describes the NICs between nodes; trays that share a
		// multi-node NVLink domain (GB200/GB300 NVL72) say so elsewhere (qa41).
		hint = "NVLink between nodes (the trays of a GB200/GB300 NVL72 rack) is `hardware.network.nvlink_domain: {}`; `inter_node` describes the NICs that leave the domain (e.g. `kind: infiniband`)"
	}
	return msg, hint
}

// preQuantizedHint is model.weights' hint for a format it cannot name
// (nvfp4, mxfp4, awq, int4 …; newuser40 finding 5): such a checkpoint says
// its own format, so the spec points at its config rather than naming it.
const preQuantizedHint = "a pre-quantized checkpoint (NVFP4, MXFP4, AWQ, GPTQ, INT4, …) is not a weights value: leave weights out (auto) and set " +
	"model.config to the checkpoint's config.json (its quantization_config, or ModelOpt's hf_quant_config.json beside it), " +
	"with model.path the checkpoint; `vlaunch init --example deepseek-v3.1-nvfp4-4xb200` shows one"

// enumOf lists the values the schema allows at segs (nil when any).
func enumOf(segs []string) []string {
	var out []string
	if enum, ok := schemaAt(segs)["enum"].([]interface{}); ok {
		for _, v := range enum {
			out = append(out, fmt.Sprint(v))
		}
	}
	return out
}

// enumValues reads the allowed values from the schema error details.
func enumValues(e gojsonschema.ResultError) []string {
	raw := fmt.Sprint(e.Details()["allowed"])
	var out []string
	for _, s := range strings.Split(raw, ",") {
		s = strings.Trim(strings.TrimSpace(s), `"`)
		if s != "" {
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
