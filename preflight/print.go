package preflight

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints one line per check (status, id, what was found) with
// the expectation and the fix underneath every warn and fail, then a summary.
func WriteText(w io.Writer, r Report) error {
	fmt.Fprintf(w, "preflight for node %s\n\n", r.Node)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, res := range r.Results {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", strings.ToUpper(res.Status.String()), res.ID, oneLine(res.Found))
		if res.Status == Warn || res.Status == Fail {
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

// WriteJSON prints the report as one indented JSON object.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// oneLine keeps the table one line per entry whatever a command printed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
