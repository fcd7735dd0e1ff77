package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/vlaunch/vlaunch/logs"
)

// TestLogsReproduceMemoryCalibration: for every real log excerpt of a
// case of the shared memory calibration set (logs/testdata/real, with the
// case's deployment as spec.yaml), `vlaunch logs --spec` prints the
// figures of that case's row of docs/calibration-memory.md: weights,
// KV bytes per token, KV tokens and maximum concurrency from the logged
// memory, and available KV memory — logged and predicted.
func TestLogsReproduceMemoryCalibration(t *testing.T) {
	rows := calibrationRows(t)
	paths, _ := filepath.Glob("../../logs/testdata/real/*.txtar")
	n := 0
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		id := metadata(ar, "calibration")
		if id == "" {
			continue
		}
		row, ok := rows[id]
		if !ok {
			t.Errorf("%s: case %s has no row in docs/calibration-memory.md", p, id)
			continue
		}
		n++
		t.Run(id, func(t *testing.T) {
			got := reproduceRow(t, ar)
			for col, want := range row {
				if want == "n/a" || want == "–" || calibrationExceptions[id+" "+col] != "" {
					continue
				}
				if g := got[col]; g != want {
					t.Errorf("%s: %q, the calibration doc says %q", col, g, want)
				}
			}
		})
	}
	if n < 8 {
		t.Errorf("%d calibration cases with logs, want at least 8", n)
	}
}

// calibrationExceptions are cells a spec cannot reproduce, with why.
var calibrationExceptions = map[string]string{
	// Kimi-K2-Thinking is not in the catalog: the spec's Kimi-K2 has its
	// MLA (the KV cells) but FP8 experts, not INT4 (the weights and so the
	// available memory differ from the case's Kimi-K2.5 stand-in).
	"kimi-k2-thinking-recipe-h200-tp8-dcp8 available": "the spec's Kimi-K2 has FP8 experts, the case's stand-in INT4",
}

// calibrationRows reads the doc's table: case id -> column -> cell (the
// "†" marks dropped).
func calibrationRows(t *testing.T) map[string]map[string]string {
	data, err := os.ReadFile("../../docs/calibration-memory.md")
	if err != nil {
		t.Fatal(err)
	}
	cols := []string{"weights", "bpt", "tokens", "concurrency", "available"}
	out := map[string]map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		cells := strings.Split(l, "|")
		if len(cells) < 10 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		id := strings.Trim(strings.TrimSpace(cells[1]), "`")
		row := map[string]string{}
		for i, c := range cols {
			row[c] = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cells[4+i]), "†"))
		}
		out[id] = row
	}
	return out
}

func metadata(ar *txtar.Archive, key string) string {
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if k, v, ok := strings.Cut(l, ": "); ok && k == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// reproduceRow runs the analysis and the comparison and formats the
// figures as the calibration doc does.
func reproduceRow(t *testing.T, ar *txtar.Archive) map[string]string {
	dir := t.TempDir()
	var srcs []*logs.Source
	for _, f := range ar.Files {
		if f.Name == "spec.yaml" {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		s, err := logs.NewSource(f.Name, bytes.NewReader(f.Data))
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	rep, err := logs.Analyze(srcs...)
	if err != nil {
		t.Fatal(err)
	}
	var errw bytes.Buffer
	if err := compareWithSpec(&streams{out: io.Discard, err: &errw}, rep, filepath.Join(dir, "spec.yaml"), "text"); err != nil {
		t.Fatalf("%v\n%s", err, errw.String())
	}
	return docCells(rep)
}

func docCells(rep *logs.Report) map[string]string {
	terms := map[string]logs.Comparison{}
	for _, c := range rep.Comparison {
		terms[c.Term] = c
	}
	cells := map[string]string{}
	if c, ok := terms["weights_gib"]; ok {
		cells["weights"] = fmt.Sprintf("%.2f / %.2f (%+.1f%%)", *c.Logged, *c.Predicted, 100**c.Error)
	}
	if c, ok := terms["kv_cache_tokens_from_logged_memory"]; ok {
		cells["tokens"] = fmt.Sprintf("%.0f / %.0f (%+.2f%%)", *c.Logged, *c.Predicted, 100**c.Error)
	}
	if c, ok := terms["kv_bytes_per_token"]; ok {
		cells["bpt"] = fmt.Sprintf("%.0f", *c.Predicted)
		if c.Logged != nil {
			cells["bpt"] += fmt.Sprintf(" (%.0f)", *c.Logged)
		}
	}
	if c, ok := terms["max_concurrency_from_logged_memory"]; ok {
		cells["concurrency"] = fmt.Sprintf("%.2f / %.2f", *c.Logged, *c.Predicted)
	}
	if c, ok := terms["available_kv_gib"]; ok {
		cells["available"] = fmt.Sprintf("%.2f / %.2f (%+.1f%%)", *c.Logged, *c.Predicted, 100**c.Error)
		if f, ok := terms["max_model_len_fits"]; ok {
			word := "fails too"
			if *f.Predicted != 0 {
				word = "starts"
			}
			cells["available"] = fmt.Sprintf("%.2f / %.2f (start-up failed; predicted: %s)", *c.Logged, *c.Predicted, word)
		}
	}
	return cells
}
