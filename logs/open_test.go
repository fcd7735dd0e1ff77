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

// TestGzipDecompressedCap (qa45c F4): a small gzip that expands past
// MaxGzipBytes is read up to the cap, reported cut with a message naming
// the cap, and a plain file of the same bytes is not cut by it.
func TestGzipDecompressedCap(t *testing.T) {
	maxGzipBytes = 1 << 20
	t.Cleanup(func() { maxGzipBytes = MaxGzipBytes })
	line := "INFO 04-22 01:04:01 [loggers.py:127] Engine 000: Avg prompt throughput: 0.0 tokens/s\n"
	plain := strings.Repeat(line, (4<<20)/len(line)) // 4 MiB, four times the lowered cap
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(plain))
	w.Close()
	if gz.Len() > 1<<20/8 {
		t.Fatalf("the crafted gzip is %d bytes; it must be far smaller than what it expands to", gz.Len())
	}
	dir := t.TempDir()
	gzPath, plainPath := filepath.Join(dir, "bomb.log.gz"), filepath.Join(dir, "big.log")
	os.WriteFile(gzPath, gz.Bytes(), 0o644)
	os.WriteFile(plainPath, []byte(plain), 0o644)
	rep, err := AnalyzeFiles([]string{gzPath, plainPath})
	if err != nil {
		t.Fatal(err)
	}
	g, p := rep.Files[0], rep.Files[1]
	if !g.Truncated || g.Lines >= p.Lines || g.Lines > (1<<20)/len(line)+1 {
		t.Errorf("gzip: truncated %v, %d lines read (plain %d); want cut at 1 MiB", g.Truncated, g.Lines, p.Lines)
	}
	if p.Truncated {
		t.Error("the plain file must not be cut by the gzip cap")
	}
	var out strings.Builder
	if err := WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "read only the first 1 MiB decompressed") || !strings.Contains(out.String(), "decompress the file") {
		t.Errorf("the report must say the gzip was cut and how to read it all:\n%s", out.String())
	}
}
