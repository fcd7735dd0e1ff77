package preflight

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/vlaunch/vlaunch/diag"
)

// WriteText prints one line per check (status, id, what was found) with
// the expectation and the fix underneath every warn and fail, then a summary.
func WriteText(w io.Writer, r Report) error {
	fmt.Fprintf(w, "preflight for node %s\n\n", r.Node)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, res := range r.Results {
		id := res.ID
		if res.Pool != "" {
			id += " (" + res.Pool + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", strings.ToUpper(res.Status.String()), id, oneLine(res.Found))
		if res.Status == Warn || res.Status == Fail || res.Status == Unchecked {
			if res.Expected != "" {
				fmt.Fprintf(tw, "\t\texpected: %s\n", oneLine(res.Expected))
			}
			if res.Fix != "" {
				fmt.Fprintf(tw, "\t\tfix: %s\n", oneLine(res.Fix))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.Summary())
	return err
}

// WriteJSON prints the report as one indented JSON object: the node, every
// result, the summary counts and, under "diagnostics", the warns and fails
// as diagnostics (ds: Findings, placed in the spec), as every command's
// JSON carries them.
func WriteJSON(w io.Writer, r Report, ds diag.Diagnostics) error {
	if ds == nil {
		ds = diag.Diagnostics{}
	}
	v := r.jsonValue()
	v.Diagnostics = &ds
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// oneLine keeps the table one line per entry whatever a command printed,
// and escapes control characters host commands may print (see diag.Escape).
func oneLine(s string) string { return diag.EscapeLine(strings.Join(strings.Fields(s), " ")) }
