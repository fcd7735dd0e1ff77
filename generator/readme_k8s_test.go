package generator

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestKubernetesReadmesGiveNoStartOrder: a LeaderWorkerSet starts the
// leader and its workers itself, so no Kubernetes bundle's README tells
// the user to start a node (or the primary) first.
func TestKubernetesReadmesGiveNoStartOrder(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*kubernetes*/README.md.golden")
	if len(files) == 0 {
		t.Fatal("no Kubernetes README goldens")
	}
	order := regexp.MustCompile(`(?i)\bstart\b[^.]*\bfirst\b`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := order.Find(data); m != nil {
			t.Errorf("%s tells the user a start order: %q", f, m)
		}
	}
}
