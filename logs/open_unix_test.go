//go:build unix

package logs

import (
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestOpenRefusesNonRegular: a FIFO, a device and a directory are refused
// at once instead of blocking or reading forever (issue 15).
func TestOpenRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{"directory": dir}
	if runtime.GOOS == "linux" {
		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		cases["fifo"] = fifo
		cases["/dev/zero"] = "/dev/zero"
	}
	for name, path := range cases {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := AnalyzeFiles([]string{path})
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrUnusable) || !strings.Contains(err.Error(), "not a regular file") {
					t.Errorf("got %v, want a not-a-regular-file error", err)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("blocked on a non-regular file")
			}
		})
	}
}
