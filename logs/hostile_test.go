package logs

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// lineGen produces size bytes of lines made by f (line i).
type lineGen struct {
	size, done int64
	f          func(i int) string
	i          int
	buf        bytes.Buffer
}

func (g *lineGen) Read(p []byte) (int, error) {
	for g.buf.Len() < len(p) && g.done+int64(g.buf.Len()) < g.size {
		g.buf.WriteString(g.f(g.i))
		g.i++
	}
	if g.buf.Len() == 0 {
		return 0, io.EOF
	}
	if rest := g.size - g.done; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, _ := g.buf.Read(p)
	g.done += int64(n)
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// TestHostileLogsBounded feeds inputs built to blow up state — a new
// process on every line, endless restarts, thousands of DP ranks, one
// endless line, every line a failure — and holds memory to the same bound
// as an ordinary log, with the caps reported as notes.
func TestHostileLogsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	const size = 24 << 20
	cases := []struct {
		name string
		f    func(i int) string
	}{
		{"new pid every line", func(i int) string {
			return fmt.Sprintf("(VllmWorker rank=%d pid=%d) ERROR 01-01 00:00:00 [x.py:1] RuntimeError: NCCL error: unhandled system error %d\n", i%64, i, i)
		}},
		{"restart loop", func(i int) string {
			switch i % 3 {
			case 0:
				return "INFO 01-01 00:00:00 [api_server.py:1] vLLM API server version 0.8.5\n"
			case 1:
				return "INFO 01-01 00:00:00 [core.py:1] Initializing a V1 LLM engine (v0.8.5) with config: model='m', max_seq_len=8192, tensor_parallel_size=1\n"
			}
			return "ERROR 01-01 00:00:00 [core.py:2] EngineCore failed to start.\n"
		}},
		{"every DP rank", func(i int) string {
			return fmt.Sprintf("(EngineCore_DP%d pid=%d) INFO 01-01 00:00:00 [gpu_worker.py:1] Available KV cache memory: %d.5 GiB\n", i, 100+i, i)
		}},
		{"one endless line", func(i int) string { return strings.Repeat("Available KV cache memory: 1 GiB ", 64) }},
		{"control characters", func(i int) string {
			return fmt.Sprintf("\x1b]0;title\x07\x1b[31m(EngineCore pid=1)\x1b[0m ERROR 01-01 00:00:00 [a.py:1] ValueError: \x07\x1b[2J%d\r\n", i)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			peak := sampleHeap()
			start := time.Now()
			src, err := NewSource("hostile.log", &lineGen{size: size, f: c.f})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Analyze(src)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if err := WriteText(&out, rep); err != nil {
				t.Fatal(err)
			}
			heap := peak()
			t.Logf("%v, peak heap %.1f MiB, %d engines, %d failures, notes %q", time.Since(start).Round(time.Millisecond),
				float64(heap)/(1<<20), len(rep.Engines), len(rep.Failures), rep.Notes)
			if heap > 100<<20 {
				t.Errorf("peak heap %d MiB, want ≤ 100 MiB", heap>>20)
			}
			if bytes.ContainsAny(out.Bytes(), "\x1b\x07\r") {
				t.Errorf("text output carries raw control characters")
			}
		})
	}
}
