package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLintInputFIFODoesNotBlock: a named pipe with no writer is refused at
// once instead of blocking the command forever.
func TestLintInputFIFODoesNotBlock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "pipe.sh")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan error, 1)
	go func() { _, err := readLintInput(p, maxLintInput); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "named pipe") {
			t.Fatalf("want a not-a-regular-file error, got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
}

// TestLintInputSizeCap: an input over the cap ends with a clear error, and
// only about the cap is read.
func TestLintInputSizeCap(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.sh")
	if err := os.WriteFile(p, []byte(strings.Repeat("# x\n", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readLintInput(p, 1000); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("want a size-limit error, got %v", err)
	}
	if _, err := readLintInput(p, 4000); err != nil {
		t.Fatalf("exactly at the cap: %v", err)
	}
}
