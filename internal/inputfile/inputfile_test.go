package inputfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadRefusesNonRegular: a FIFO without a writer, a directory and
// /dev/zero end at once with ErrNotRegular instead of blocking or reading
// forever.
func TestReadRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	paths := []string{dir, "/dev/zero"}
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		paths = append(paths, fifo)
	}
	for _, p := range paths {
		done := make(chan error, 1)
		go func() { _, err := Read(p, 1<<20); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: want ErrNotRegular, got %v", p, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Read blocked", p)
		}
	}
}

// TestReadCap: exactly the cap is read; one byte more is ErrTooLarge with
// both sizes in the message.
func TestReadCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 4096)), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(p, 4096); err != nil || len(data) != 4096 {
		t.Fatalf("at the cap: %d bytes, %v", len(data), err)
	}
	_, err := Read(p, 4095)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "4 KiB, over the 4095 bytes limit") {
		t.Fatalf("over the cap: %v", err)
	}
	if _, err := Read(filepath.Join(t.TempDir(), "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestSizeAndKind(t *testing.T) {
	for n, want := range map[int64]string{120 << 20: "120 MiB", 1536: "1.5 KiB", 37: "37 bytes", 3 << 30: "3 GiB", 4<<20 + 2: "4194306 bytes", 1<<30 + 1<<29: "1.5 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Kind(os.ModeNamedPipe); got != "a named pipe" {
		t.Errorf("Kind = %q", got)
	}
}

// TestStdinDash (qa45c F7): "-" is refused as standard input, not looked
// up as a file, by Open and by Read.
func TestStdinDash(t *testing.T) {
	if _, _, err := Open("-"); !errors.Is(err, ErrStdin) {
		t.Errorf("Open(-): %v, want ErrStdin", err)
	}
	if _, err := Read("-", 1<<20); !errors.Is(err, ErrStdin) || !strings.Contains(err.Error(), "standard input is not read") {
		t.Errorf("Read(-): %v, want ErrStdin", err)
	}
}
