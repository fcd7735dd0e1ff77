package lint

import (
	"path/filepath"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestCorpusClean lints realistic launch configurations modelled on the
// official examples: none may produce a warning or an error.
func TestCorpusClean(t *testing.T) {
	for _, path := range fixtures(t, "testdata/corpus/clean") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			fx := loadFixture(t, path)
			ds, err := Lint(fx.inputs, Options{Version: fx.version})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				if d.Severity >= diag.Warning {
					t.Errorf("false positive: %s", d)
				}
			}
		})
	}
}

// TestCorpusBroken lints broken variants; every expected finding is
// written in the files as `# want` comments.
func TestCorpusBroken(t *testing.T) {
	for _, path := range fixtures(t, "testdata/corpus/broken") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			checkFixture(t, loadFixture(t, path), "")
		})
	}
}

// TestCorpusReal lints our own reconstructions of launch configurations
// people posted publicly (same launch shape and defect, our own values; not
// copies), each directory one deployment with a README.md citing the source
// it is modelled on. Expected findings live in the directory's expect.txt:
// every finding at warning or above must be listed, and every listed
// finding must be reported; info findings count only for listed codes.
func TestCorpusReal(t *testing.T) {
	for _, dir := range fixtures(t, "testdata/corpus/real") {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			fx, ex := loadRealFixture(t, dir)
			for _, msg := range compareFindings(t, fx, ex.wants) {
				t.Error(msg)
			}
		})
	}
}
