package validate

import (
	"github.com/vlaunch/vlaunch/vllm"
)

// checkMooncakeTP reports MooncakeConnector's own rules for a prefill TP
// other than the decode TP (pair: vllm.PDTPPairing's vllm.MooncakeTPPairing;
// qa44b F3): before 0.19.0 it pairs equal sizes only, from 0.19.0 it asserts
// that one size divides the other, and its per-transfer region check fails
// every transfer when the decode TP is above the KV heads and the prefill
// cache is not replicated. The bundle starts and every request's KV
// hand-off errors, so this is an error (SPEC128).
func checkMooncakeTP(c *checker, pt, dt, heads int, pair vllm.MooncakeTP, tpPath []string) {
	if pair.Pairs == vllm.Present {
		return
	}
	hint := "use one tensor size in both pools, or vLLM " + vllm.MooncakeHeteroTPFrom() + " or later"
	switch {
	case pair.Hetero && max(pt, dt)%min(pt, dt) != 0:
		hint = "make one pool's tensor size a multiple of the other's"
	case pair.Hetero:
		hint = "use a decode TP of at most the model's KV heads (" + itoa(heads) + "), or the prefill TP equal to the decode TP (" + itoa(dt) + ")"
	}
	c.errorf(CodePDPairing, tpPath, hint, "prefill TP %d and decode TP %d under MooncakeConnector: %s (%s)", pt, dt, pair.Why, pair.Source)
}
