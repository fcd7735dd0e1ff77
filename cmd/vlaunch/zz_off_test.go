package main

import (
	"io"
	"os"
	"strings"
	"testing"
)

func BenchmarkOffender(b *testing.B) {
	for b.Loop() {
		run([]string{os.Getenv("CMD"), os.Getenv("OFF")}, strings.NewReader(""), io.Discard, io.Discard)
	}
}
