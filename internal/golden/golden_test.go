package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder captures Check's failures instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                                   {}
func (r *recorder) Errorf(format string, args ...interface{}) { r.errs = append(r.errs, format) }
func (r *recorder) Fatalf(format string, args ...interface{}) { r.errs = append(r.errs, format) }

func TestCheckComparesAndUpdates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.golden")
	r := &recorder{TB: t}
	Check(r, path, []byte("a\n"))
	if len(r.errs) != 1 {
		t.Fatalf("a missing golden must fail, got %v", r.errs)
	}
	*update = true
	Check(r, path, []byte("a\n"))
	*update = false
	if b, err := os.ReadFile(path); err != nil || string(b) != "a\n" {
		t.Fatalf("-update must write the golden: %q, %v", b, err)
	}
	r.errs = nil
	Check(r, path, []byte("a\n"))
	Check(r, path, []byte("b\n"))
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "differs") {
		t.Errorf("want one difference reported, got %v", r.errs)
	}
}

func TestCheckDirFindsStaleFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string][]byte{"a.golden": []byte("a"), "sub/b.golden": []byte("b")}
	*update = true
	CheckDir(t, dir, files)
	*update = false
	CheckDir(t, dir, files) // identical: passes
	r := &recorder{TB: t}
	delete(files, "sub/b.golden")
	CheckDir(r, dir, files)
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "no output matches") {
		t.Errorf("a golden file without an output must fail, got %v", r.errs)
	}
}
