package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeCSV writes t as CSV with a header row of its column names, each cell
// the string form Load gives it. aiconfigurator up to v0.9.0 read its tables
// as CSV ("*_perf.txt", csv.DictReader); from v0.10.0 on the same tables are
// parquet. tools/aicmp converts them back so that the last pure-Python
// release can be run on a machine without pyarrow or its Rust core.
func writeCSV(w io.Writer, t *Table) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Cols); err != nil {
		return err
	}
	for _, r := range t.Strs {
		if err := cw.Write(r); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// toCSV converts the parquet file in to a CSV file out, written to a
// temporary file beside out and renamed, so out is never left half-written.
func toCSV(in, out string) error {
	t, err := Load(in)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(out), ".aicdata-csv-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := writeCSV(f, t); err != nil {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", out, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
