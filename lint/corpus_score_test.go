package lint

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// Targets of the strict corpus score (issue #12).
const (
	// minDetected is the share of defective configurations whose real
	// defect must be found.
	minDetected = 0.85
	// maxGoodErrors is how many errors known-good configurations may get.
	maxGoodErrors = 0
)

// TestCorpusScore lints every real configuration and prints the strict
// score: a defective configuration counts as detected only when a finding
// is one of its `defect` lines (code, file and line: the real defect, not a
// side effect), and a known-good configuration must get no error at all.
func TestCorpusScore(t *testing.T) {
	var defective, detected, good, goodErrors int
	var misses, falseErrors []string
	for _, dir := range fixtures(t, "testdata/corpus/real") {
		fx, ex := loadRealFixture(t, dir)
		ds, err := Lint(fx.inputs, Options{Version: fx.version})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		name := filepath.Base(dir)
		if ex.kind == "good" {
			good++
			for _, d := range ds {
				if d.Severity == diag.Error {
					goodErrors++
					falseErrors = append(falseErrors, name+": "+d.String())
				}
			}
			continue
		}
		defective++
		if foundAny(ds, ex.defects) {
			detected++
		} else {
			misses = append(misses, name)
		}
	}
	sort.Strings(misses)
	share := float64(detected) / float64(max(defective, 1))
	t.Logf("real corpus: %d configurations (%d defective, %d known-good)", defective+good, defective, good)
	t.Logf("strict score: real defect found in %d/%d defective (%.0f%%); %d error(s) on known-good configurations",
		detected, defective, 100*share, goodErrors)
	if len(misses) > 0 {
		t.Logf("defects not found: %s", strings.Join(misses, ", "))
	}
	if share < minDetected {
		t.Errorf("detection %.0f%% is below %.0f%%", 100*share, 100*minDetected)
	}
	if goodErrors > maxGoodErrors {
		t.Errorf("errors on known-good configurations:\n%s", strings.Join(falseErrors, "\n"))
	}
}

// foundAny reports whether a finding matches one of the defects.
func foundAny(ds diag.Diagnostics, defects []want) bool {
	for _, w := range defects {
		for _, d := range ds {
			if d.File == w.file && d.Line == w.line && string(d.Code) == w.code {
				return true
			}
		}
	}
	return false
}
