package fuzzseed

import (
	"bytes"
	"testing"
)

// TestFiles: the seeds are the lint corpus and fixtures of the asked kind,
// nothing else (no YAML among shell seeds).
func TestFiles(t *testing.T) {
	sh := Files("../../testdata", ".sh")
	yaml := Files("../../testdata", ".yaml")
	if len(sh) < 100 || len(yaml) == 0 {
		t.Fatalf("%d shell and %d YAML seeds; the corpus has more", len(sh), len(yaml))
	}
	for _, d := range sh {
		if bytes.HasPrefix(d, []byte("apiVersion:")) {
			t.Errorf("a manifest among the shell seeds: %.40q", d)
		}
	}
	if len(Files("../../testdata")) != 0 || len(Files("no-such-dir", ".sh")) != 0 {
		t.Error("no extension or no directory must give no seeds")
	}
}
