package validate

import (
	"github.com/vlaunch/vlaunch/vllm"
)

// checkMooncakeTP: MooncakeConnector's own rules for a prefill TP other
// than the decode TP (vllm.MooncakeTPPairing; qa44b F3): before 0.19.0 it
// pairs equal sizes only, and from 0.19.0 its per-transfer region check
// fails every transfer when the decode TP is above the KV heads and the
// prefill cache is not replicated. The bundle starts and every request's
// KV hand-off errors, so this is an error (SPEC128). Sizes neither of
// which divides the other are checkPDPairing's (the same assert as NIXL's).
func checkMooncakeTP(c *checker, pt, dt int, tpPath []string) {
	conn, ok := vllm.KVConnectorNamed(c.d.Disaggregation.Connector)
	if !ok || conn.Name != "MooncakeConnector" || pt <= 0 || dt <= 0 || max(pt, dt)%min(pt, dt) != 0 {
		return
	}
	heads, mla := 0, false
	if c.model != nil {
		heads, mla = c.model.NumKVHeads, c.model.IsMLA()
	}
	pair := vllm.MooncakeTPPairing(c.rel.Version, pt, dt, heads, mla)
	if pair.Pairs == vllm.Present {
		return
	}
	hint := "use one tensor size in both pools, or vLLM " + vllm.MooncakeHeteroTPFrom() + " or later"
	if pair.Hetero {
		hint = "use a decode TP of at most the model's KV heads (" + itoa(heads) + "), or the prefill TP equal to the decode TP (" + itoa(dt) + ")"
	}
	c.errorf(CodePDPairing, tpPath, hint, "prefill TP %d and decode TP %d under MooncakeConnector: %s (%s)", pt, dt, pair.Why, pair.Source)
}
