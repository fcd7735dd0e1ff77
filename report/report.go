// Package report renders the result of `vlaunch check` (an estimate.Report)
// for people and machines: text, markdown, indented JSON, the short summary
// a bundle README carries, and the layout-search table. The estimator
// computes figures and derivations; this package only lays them out, so a
// change of presentation never touches the model. Findings go through diag's
// printer, like every other command's.
package report

import (
	"encoding/json"
	"io"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
)

// WriteJSON writes the report as indented JSON. An empty findings list is
// written as [] rather than null: consumers can iterate without a check.
func WriteJSON(w io.Writer, r *estimate.Report) error {
	out := *r
	out.Verdict = r.Overall()
	if out.Findings == nil {
		out.Findings = diag.Diagnostics{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}
