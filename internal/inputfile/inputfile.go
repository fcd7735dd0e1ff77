// Package inputfile is the one way vlaunch opens a file a user names: a
// spec, a model's config.json, a --templates file, a lint input, a log.
//
// Every such path may be anything: a FIFO (opening it for reading blocks
// until a writer appears), /dev/zero (endless), a directory, or a file far
// larger than any real input. Open refuses all but regular files without
// ever blocking, and Read reads at most a caller-given number of bytes, so
// a hostile path ends at once with a clear message instead of hanging the
// command or exhausting memory.
package inputfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// ErrNotRegular marks a path that is not a regular file (directory, FIFO,
// socket, device).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge marks a file over the caller's size cap.
var ErrTooLarge = errors.New("file too large")

// ErrStdin marks the path "-": no command reads standard input. Every
// reader re-reads or names its file (a spec for snippets beside its
// findings, logs per file and per node, lint per script), caps it by its
// size and refuses a FIFO, so stdin would need a buffered, capped copy in
// each; the Unix habit `kubectl logs POD | vlaunch logs -` instead gets
// this message rather than "open -: no such file or directory" (qa45c F7).
var ErrStdin = errors.New("standard input is not read: give a file (save the output first, e.g. kubectl logs POD > pod.log; a file named - is ./-)")

// Open opens path for reading without blocking and refuses anything but a
// regular file. The returned file's Stat is the one that decided, so a path
// swapped for a FIFO between checks cannot slip through.
func Open(path string) (*os.File, os.FileInfo, error) {
	if path == "-" {
		return nil, nil, ErrStdin
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%w (%s)", ErrNotRegular, Kind(st.Mode()))
	}
	return f, st, nil
}

// Read returns the content of the regular file at path, refusing a file of
// more than limit bytes. It never reads more than limit+1 bytes, even when
// the file grows while it is read.
func Read(path string, limit int64) ([]byte, error) {
	f, st, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > limit {
		return nil, tooLarge(st.Size(), limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(int64(len(data)), limit)
	}
	return data, nil
}

func tooLarge(size, limit int64) error {
	return fmt.Errorf("%w: %s, over the %s limit", ErrTooLarge, Size(size), Size(limit))
}

// Size renders a byte count for messages: "120 MiB", "1.5 KiB", "37 bytes";
// a count just past a whole unit, which one decimal would show as the unit
// itself, in bytes ("4194306 bytes", not "4.0 MiB" next to a 4 MiB limit).
func Size(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		if n < u.size {
			continue
		}
		if n%u.size == 0 {
			return fmt.Sprintf("%d %s", n/u.size, u.name)
		}
		if s := fmt.Sprintf("%.1f", float64(n)/float64(u.size)); !strings.HasSuffix(s, ".0") {
			return s + " " + u.name
		}
		break
	}
	return fmt.Sprintf("%d bytes", n)
}

// Kind names a non-regular file type for messages.
func Kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "file type " + m.Type().String()
}
