package logs

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenUnusableContent(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var emptyGz bytes.Buffer
	gzip.NewWriter(&emptyGz).Close()
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"empty":      {nil, "empty"},
		"binary":     {[]byte("INFO x\x00\x01\x02"), "binary"},
		"bad gzip":   {[]byte{0x1f, 0x8b, 0x00, 0x01}, "gzip"},
		"empty gzip": {emptyGz.Bytes(), "empty"},
		"zeros":      {make([]byte, 4096), "binary"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := AnalyzeFiles([]string{write(strings.ReplaceAll(name, " ", "_"), c.data)})
			if !errors.Is(err, ErrUnusable) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an unusable-input error mentioning %q", err, c.want)
			}
		})
	}
}

// TestGzipAndLongLines: a gzip file reads like the plain one, and a line
// longer than MaxLineBytes is cut (counted) without losing the next line.
func TestGzipAndLongLines(t *testing.T) {
	plain := "INFO 04-22 01:04:01 [gpu_worker.py:436] Available KV cache memory: 3.04 GiB\n" +
		strings.Repeat("x", MaxLineBytes+100) + "\n" +
		"INFO 04-22 01:04:01 [kv_cache_utils.py:1319] GPU KV cache size: 19,920 tokens\n"
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(plain))
	w.Close()
	dir := t.TempDir()
	p := filepath.Join(dir, "node0.log.gz")
	if err := os.WriteFile(p, gz.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := AnalyzeFiles([]string{p})
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Files[0]
	if !f.Gzip || f.Lines != 3 || f.LongLines != 1 {
		t.Errorf("file info %+v, want gzip, 3 lines, 1 long line", f)
	}
	e := rep.Engines[0]
	if e.AvailableKVGiB == nil || *e.AvailableKVGiB != 3.04 || e.KVCacheTokens == nil || *e.KVCacheTokens != 19920 {
		t.Errorf("figures after the long line lost: %+v", e)
	}
}
