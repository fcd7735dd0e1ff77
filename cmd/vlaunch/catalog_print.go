package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// listFormat reads --output for the catalog listings (text or json).
func listFormat(s string) (bool, error) {
	switch s {
	case "text":
		return false, nil
	case "json":
		return true, nil
	}
	return false, checkFormat(s, listFormats, "")
}

// listFormats are the catalog listings' formats (gpus, models).
var listFormats = []string{"text", "json"}

func writeJSON(w io.Writer, v interface{}) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeTable prints a header and rows aligned in columns.
func writeTable(w io.Writer, header []string, rows [][]string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// num prints a figure with up to prec decimals and no trailing zeros, or
// "-" for zero (not given).
func num(f float64, prec int) string {
	if f == 0 {
		return "-"
	}
	s := fmt.Sprintf("%.*f", prec, f)
	if strings.Contains(s, ".") {
		s = strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	return s
}
