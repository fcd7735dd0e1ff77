package replay

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/published"
)

// Describe is a one-line account of what a row ran: engine, hardware,
// layout and load.
func Describe(r published.Row) string {
	l, h, w := r.Layout, r.Hardware, r.Workload
	eng := r.Engine.Name
	if v := firstVersion(r.Engine.Version); v != "" && v != published.Unknown {
		eng += " " + v
	}
	lay := fmt.Sprintf("TP%d", l.TP.Int())
	if l.DP.Int() > 1 {
		lay += fmt.Sprintf(" DP%d", l.DP.Int())
	}
	if l.EP.Int() > 1 {
		lay += fmt.Sprintf(" EP%d", l.EP.Int())
	}
	in, out := lengths(w)
	return fmt.Sprintf("%s, %s × %d %s, %s, %s %d/%d", r.Model.Catalog, strings.ToUpper(h.GPU), h.GPUs.Int(), lay, eng, loadText(r.Load), in, out)
}

// loadText names a row's load.
func loadText(l published.Load) string {
	switch l.Kind {
	case published.LoadClosedLoop:
		return fmt.Sprintf("closed loop %d", l.Concurrency.Int())
	case published.LoadBurst:
		return fmt.Sprintf("burst %d", l.BurstRequests.Int())
	case published.LoadOfflineBatch:
		return fmt.Sprintf("offline batch %d", l.BurstRequests.Int())
	case published.LoadPoisson:
		return fmt.Sprintf("Poisson %g/s × %d", l.RequestRatePerS.V, l.NumPrompts.Int())
	case published.LoadSteadyDecode:
		return "steady decode"
	case published.LoadSteadyPrefill:
		return "steady prefill"
	}
	return l.Kind
}

// num formats a figure compactly (the generated docs' one format).
func num(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.3g", v)
	}
}
