package logs

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"

	"github.com/vlaunch/vlaunch/internal/inputfile"
)

// Bounds that keep reading any input finite and memory flat.
const (
	// MaxLineBytes is the longest line kept; the rest of a longer line is
	// skipped (vLLM's longest lines, the engine-config dumps, are a few KiB).
	MaxLineBytes = 128 << 10
	// MaxFileBytes is how much of one file is read after decompression, so
	// a gzip bomb ends instead of running for hours. A real start-up log is
	// megabytes; a week of serving logs is gigabytes.
	MaxFileBytes = 16 << 30
	// MaxGzipBytes is how much of a gzip file is read after
	// decompression. A plain file's work is bounded by a size the user
	// can see; a gzip's is not: 21 MB of gzip held 3 GB of one repeated
	// line and took 156 s (qa45c F4), where every other reader refuses in
	// 0.1 s. A start-up log is well under 100 MB, so 256 MiB (about 10 s
	// on a loaded 2-core machine at the measured 20 MB/s) keeps all of it;
	// a longer log can be decompressed and given plain (MaxFileBytes).
	MaxGzipBytes = 256 << 20
	// sniffBytes is how much of the start is checked for binary content.
	sniffBytes = 8 << 10
)

// ErrUnusable marks an input that cannot be read as a log at all (the
// command exits 2): not a regular file, empty, binary, corrupt gzip.
var ErrUnusable = errors.New("unusable log")

// Source is one input file, opened and ready to stream.
type Source struct {
	// Name is the path as the user gave it.
	Name string
	r    *bufio.Reader
	c    io.Closer
	gz   bool
	// limited reports whether MaxFileBytes (MaxGzipBytes for gzip) cut
	// the file.
	limited *io.LimitedReader
}

// maxGzipBytes is MaxGzipBytes, lowered by tests to craft a small bomb.
var maxGzipBytes int64 = MaxGzipBytes

// Close releases the file.
func (s *Source) Close() error { return s.c.Close() }

// Open opens a log file for streaming. It refuses anything that is not a
// regular file (a FIFO or /dev/zero would block or never end) through the
// reader every command shares, and sees through gzip by its magic number
// rather than the file name. The log is streamed; what is read is capped
// at MaxFileBytes, decompressed gzip at MaxGzipBytes (Cut reports it).
func Open(path string) (*Source, error) {
	f, st, err := inputfile.Open(path)
	if errors.Is(err, inputfile.ErrNotRegular) {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrUnusable, err)
	}
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		f.Close()
		return nil, fmt.Errorf("%s: %w: the file is empty", path, ErrUnusable)
	}
	src, err := wrapReader(path, f, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return src, nil
}

// wrapReader detects gzip and binary content at the start of r.
func wrapReader(path string, r io.Reader, c io.Closer) (*Source, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	s := &Source{Name: path, c: c}
	magic, _ := br.Peek(2)
	var body io.Reader = br
	limit := int64(MaxFileBytes)
	if bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w: bad gzip header: %v", path, ErrUnusable, err)
		}
		s.gz = true
		body = zr
		limit = maxGzipBytes
	}
	s.limited = &io.LimitedReader{R: body, N: limit}
	sniff := bufio.NewReaderSize(s.limited, MaxLineBytes)
	head, err := sniff.Peek(sniffBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("%s: %w: %v", path, ErrUnusable, err)
	}
	if len(head) == 0 {
		return nil, fmt.Errorf("%s: %w: the file is empty", path, ErrUnusable)
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return nil, fmt.Errorf("%s: %w: the file is binary (contains NUL bytes), not a log", path, ErrUnusable)
	}
	s.r = sniff
	return s, nil
}

// NewSource wraps an already open reader (tests, stdin-like callers). The
// reader is read to its end or MaxFileBytes.
func NewSource(name string, r io.Reader) (*Source, error) {
	return wrapReader(name, r, io.NopCloser(nil))
}

// Cut reports whether MaxFileBytes (MaxGzipBytes for gzip) stopped the
// read before the end.
func (s *Source) Cut() bool { return s.limited != nil && s.limited.N <= 0 }
