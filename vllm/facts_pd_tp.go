package vllm

// PDTP is the P/D tensor-size pairing decision: what the pools' KV
// connector in a release does with a prefill TP and a decode TP. It is the
// one rule validate's SPEC128 reports and plan pairs its P/D candidates by,
// so a plan never lists a pair validate refuses.
type PDTP struct {
	// Refused: the connector cannot pair the sizes (validate's error; plan
	// does not pair them).
	Refused bool
	// Mooncake: the decision is MooncakeConnector's own (Moon holds it);
	// else it is NIXL's (Nixl holds it).
	Mooncake bool
	// Nixl is NixlTPPairing's answer, for every connector but Mooncake.
	Nixl TPPairing
	// Moon is MooncakeTPPairing's answer under MooncakeConnector.
	Moon MooncakeTP
}

// PDTPPairing decides whether the KV connector named connector (a spec's
// disaggregation.connector: "nixl", "mooncake", or a registry name) in
// release v pairs prefill TP p with decode TP d, for a model with kvHeads
// KV heads (mla: one latent cache every rank holds whole).
// MooncakeConnector follows its own code (MooncakeTPPairing: equal sizes
// only before 0.19.0); every other connector, NIXL's rule (NixlTPPairing:
// one size divides the other; a prefill TP above the decode TP from
// #27274), as validate has applied it to connectors whose own rule
// vlaunch has not read. A Maybe (NIXL's inferred first release) is not a
// refusal: validate says it as information.
func PDTPPairing(connector string, v Version, p, d, kvHeads int, mla bool) PDTP {
	if c, ok := KVConnectorNamed(connector); ok && c.Name == MooncakeConnectorName {
		m := MooncakeTPPairing(v, p, d, kvHeads, mla)
		return PDTP{Refused: m.Pairs != Present, Mooncake: true, Moon: m}
	}
	n := NixlTPPairing(v, p, d)
	return PDTP{Refused: n.NotDivisible || (n.PrefillLarger && n.Pairs == Absent), Nixl: n}
}
