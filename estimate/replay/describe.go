package replay

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/calibration"
)

// Describe is a one-line account of what a row ran: engine, hardware,
// layout and load.
func Describe(r calibration.Row) string {
	l, h, w := r.Layout, r.Hardware, r.Workload
	eng := r.Engine.Name
	if v := firstVersion(r.Engine.Version); v != "" && v != calibration.Unknown {
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
func loadText(l calibration.Load) string {
	switch l.Kind {
	case calibration.LoadClosedLoop:
		return fmt.Sprintf("closed loop %d", l.Concurrency.Int())
	case calibration.LoadBurst:
		return fmt.Sprintf("burst %d", l.BurstRequests.Int())
	case calibration.LoadOfflineBatch:
		return fmt.Sprintf("offline batch %d", l.BurstRequests.Int())
	case calibration.LoadPoisson:
		return fmt.Sprintf("Poisson %g/s × %d", l.RequestRatePerS.V, l.NumPrompts.Int())
	case calibration.LoadSteadyDecode:
		return "steady decode"
	case calibration.LoadSteadyPrefill:
		return "steady prefill"
	}
	return l.Kind
}
