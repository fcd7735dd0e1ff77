// Package fuzzseed gives lint's fuzz targets their seed corpus: the real and
// made-up launch files of lint/testdata, so that the linter (package lint)
// and its front end (lint/launch) start from the same inputs.
package fuzzseed

import (
	"os"
	"path/filepath"
)

// patterns are the corpus configurations and rule fixtures, files and the
// files of multi-file cases, below a testdata directory.
var patterns = []string{"corpus/*/*", "corpus/*/*/*", "rules/*/*", "rules/*/*/*"}

// Files returns the contents of every corpus and fixture file below
// testdata (lint's testdata directory, as the calling test reaches it)
// whose extension is one of exts. Unreadable files are skipped: a seed
// corpus is a start, not a requirement.
func Files(testdata string, exts ...string) [][]byte {
	var out [][]byte
	for _, pattern := range patterns {
		files, _ := filepath.Glob(filepath.Join(testdata, pattern))
		for _, p := range files {
			if !hasExt(p, exts) {
				continue
			}
			if data, err := os.ReadFile(p); err == nil {
				out = append(out, data)
			}
		}
	}
	return out
}

func hasExt(path string, exts []string) bool {
	for _, e := range exts {
		if filepath.Ext(path) == e {
			return true
		}
	}
	return false
}
