package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"gopkg.in/yaml.v3"
)

// TestPrintedSchemaValidatesExamples checks every example against the
// schema exactly as `vlaunch schema` prints it, with a plain YAML decode
// (independent of package validate), plus a broken copy as a control.
func TestPrintedSchemaValidatesExamples(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"schema"}, nil, &out, &errb); code != 0 {
		t.Fatalf("vlaunch schema exited %d: %s", code, errb.String())
	}
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(out.Bytes()))
	if err != nil {
		t.Fatalf("printed schema does not compile: %v", err)
	}
	files, _ := filepath.Glob("../../examples/*.yaml")
	if len(files) < 4 {
		t.Fatalf("expected at least 4 examples, found %d", len(files))
	}
	for _, f := range files {
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

func schemaErrors(t *testing.T, schema *gojsonschema.Schema, data []byte) []string {
	t.Helper()
	var doc interface{}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	res, err := schema.Validate(gojsonschema.NewGoLoader(doc))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range res.Errors() {
		out = append(out, e.String())
	}
	return out
}
