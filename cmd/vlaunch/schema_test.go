package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/schemas"
	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"
)

// TestPrintedSchemaValidatesExamples checks every example against the
// schema exactly as `vlaunch schema` prints it, with a plain YAML decode
// (independent of package validate), plus a broken copy as a control.
func TestPrintedSchemaValidatesExamples(t *testing.T) {
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(printedSchema(t)))
	if err != nil {
		t.Fatalf("printed schema does not compile: %v", err)
	}
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if errs := schemaErrors(t, schema, data); len(errs) > 0 {
			t.Errorf("%s: %v", f, errs)
		}
		broken := append([]byte("unexpected_section: 1\n"), data...)
		if errs := schemaErrors(t, schema, broken); len(errs) == 0 {
			t.Errorf("%s with an unknown key still validates: the check cannot fail", f)
		}
	}
}

// TestSecondValidator checks the schema with a second JSON Schema
// implementation, independent of the gojsonschema that validate uses, as
// an editor's language server (another implementation again) reads it:
// the printed schema is valid against the draft-07 metaschema; every
// example in examples/ and every spec `vlaunch init` writes (modeline
// included) is valid against it; a copy with a misspelt key, a value
// outside an enum or a bound is not.
func TestSecondValidator(t *testing.T) {
	printed := printedSchema(t)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(printed))
	if err != nil {
		t.Fatalf("printed schema is not JSON: %v", err)
	}
	meta, err := jsonschema.NewCompiler().Compile("http://json-schema.org/draft-07/schema")
	if err != nil {
		t.Fatal(err)
	}
	if err := meta.Validate(doc); err != nil {
		t.Errorf("the schema is not valid draft-07: %v", err)
	}
	var notSchema interface{}
	_ = json.Unmarshal([]byte(`{"type": "object", "properties": {"x": {"type": 5}}}`), &notSchema)
	if meta.Validate(notSchema) == nil {
		t.Error("the metaschema accepts a broken schema: the check cannot fail")
	}

	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.DeploymentID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemas.DeploymentID)
	if err != nil {
		t.Fatalf("the second validator does not compile the schema: %v", err)
	}
	specs := map[string][]byte{}
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		specs[f] = data
	}
	for _, name := range examples.Names() {
		var out, errb bytes.Buffer
		if code := run([]string{"init", "--example", name}, nil, &out, &errb); code != 0 {
			t.Fatalf("vlaunch init --example %s exited %d: %s", name, code, errb.String())
		}
		if !strings.HasPrefix(out.String(), modelinePrefix+schemas.DeploymentID+"\n") {
			t.Errorf("init --example %s: the first line is not the modeline", name)
		}
		specs["init --example "+name] = out.Bytes()
	}
	if len(specs) < 8 {
		t.Fatalf("only %d specs to check", len(specs))
	}
	for name, data := range specs {
		v := yamlValue(t, data)
		if err := sch.Validate(v); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		for what, bad := range map[string]func(map[string]interface{}){
			"an unknown key":          func(m map[string]interface{}) { m["unexpected_section"] = 1 },
			"a kind outside the enum": func(m map[string]interface{}) { m["kind"] = "Deploymnet" },
			"a node with 65 GPUs": func(m map[string]interface{}) {
				m["hardware"].(map[string]interface{})["nodes"].([]interface{})[0].(map[string]interface{})["gpus"] = 65
			},
		} {
			broken := yamlValue(t, data).(map[string]interface{})
			bad(broken)
			if sch.Validate(broken) == nil {
				t.Errorf("%s with %s still validates: the check cannot fail", name, what)
			}
		}
	}
}

// TestSchemaAnnotationsValidate: every default and example the schema
// offers an editor is valid against its own property's schema (an editor
// inserts them as they are), checked with the second validator.
func TestSchemaAnnotationsValidate(t *testing.T) {
	printed := printedSchema(t)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(printed))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.DeploymentID, doc); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ptr := range annotatedProperties(doc, "") {
		p := lookupPointer(doc, ptr)
		sch, err := c.Compile(schemas.DeploymentID + "#" + ptr)
		if err != nil {
			t.Fatalf("%s: %v", ptr, err)
		}
		values := map[string]interface{}{}
		if d, ok := p["default"]; ok {
			values["default"] = d
		}
		ex, _ := p["examples"].([]interface{})
		for i, e := range ex {
			values["examples["+strconv.Itoa(i)+"]"] = e
		}
		for what, v := range values {
			n++
			if err := sch.Validate(v); err != nil {
				t.Errorf("%s %s %v is not valid for its property: %v", ptr, what, v, err)
			}
		}
	}
	if n < 40 {
		t.Errorf("checked %d defaults and examples: the walk misses some", n)
	}
}

// annotatedProperties lists the JSON pointers of the schema's properties
// that carry a default or examples.
func annotatedProperties(s interface{}, ptr string) []string {
	m, ok := s.(map[string]interface{})
	if !ok {
		return nil
	}
	var out []string
	if _, d := m["default"]; d {
		out = append(out, ptr)
	} else if _, e := m["examples"]; e {
		out = append(out, ptr)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch k {
		case "properties", "definitions":
			sub, _ := m[k].(map[string]interface{})
			names := make([]string, 0, len(sub))
			for name := range sub {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				out = append(out, annotatedProperties(sub[name], ptr+"/"+k+"/"+name)...)
			}
		case "then", "else", "items", "additionalProperties":
			out = append(out, annotatedProperties(m[k], ptr+"/"+k)...)
		}
	}
	return out
}

func lookupPointer(doc interface{}, ptr string) map[string]interface{} {
	for _, seg := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		doc = doc.(map[string]interface{})[seg]
	}
	return doc.(map[string]interface{})
}

// printedSchema is what `vlaunch schema` prints.
func printedSchema(t *testing.T) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run([]string{"schema"}, nil, &out, &errb); code != 0 {
		t.Fatalf("vlaunch schema exited %d: %s", code, errb.String())
	}
	return out.Bytes()
}

func exampleFiles(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) < 4 {
		t.Fatalf("expected at least 4 examples, found %d", len(files))
	}
	return files
}

// yamlValue decodes a spec as the plain values a JSON Schema validator
// reads (yaml.v3's maps, lists and scalars), independently of package
// validate's own conversion.
func yamlValue(t *testing.T, data []byte) interface{} {
	t.Helper()
	var doc interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func schemaErrors(t *testing.T, schema *gojsonschema.Schema, data []byte) []string {
	t.Helper()
	res, err := schema.Validate(gojsonschema.NewGoLoader(yamlValue(t, data)))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range res.Errors() {
		out = append(out, e.String())
	}
	return out
}
