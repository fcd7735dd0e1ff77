package report

import (
	"io"

	"github.com/vlaunch/vlaunch/plan"
)

// WritePlanHTML writes the plan as one self-contained page.
func WritePlanHTML(w io.Writer, r *plan.Result) error {
	WritePlanText(w, r) // placeholder until the page lands
	return nil
}
