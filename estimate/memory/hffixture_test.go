package memory

import (
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

// hfFixture loads catalog/testdata/hf/file as vlaunch reads a Hugging
// Face config.json, failing the test when it cannot be read.
func hfFixture(t *testing.T, file string) *catalog.Model {
	t.Helper()
	m, err := catalog.LoadHFConfig("../../catalog/testdata/hf/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
