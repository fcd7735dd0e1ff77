package vllm

// Connector is one name vLLM's KVConnectorFactory registers (the
// kv_connector of --kv-transfer-config): the releases that have it, its
// hand-off and what vlaunch writes for it. connectorTable
// (connector_table.go) holds one per name vlaunch knows.
//
// Its boundaries differ from a flag's Span: a connector's first or last
// release is mostly inferred from the merge date of the pull request that
// added or removed it ("≈" in the research), not read from a tag. The table
// takes an inferred boundary at the release it was inferred to be, and
// marks it unconfirmed; In turns an unconfirmed boundary that decides into
// Maybe, never into Absent, so a caller only ever notes it.
type Connector struct {
	Name string
	// Spans are the release ranges holding the name (a name can come back:
	// MooncakeConnector was a V0 connector, removed, and re-added for V1).
	Spans []ConnectorSpan
	// Platform is the only platform the connector runs on ("" = any).
	Platform string
	// Offload marks a connector that moves one engine's KV to host memory
	// or storage: it makes no prefill/decode deployment by itself.
	Offload bool
	// Source cites where the facts come from: the pull requests
	// (vllm-project/vllm) named in the research note pdResearch.
	Source string
	// Handoff is how the connector hands a request's KV from the prefill
	// engine to the decode engine (KVHandoffOf reads it); a connector whose
	// hand-off was not read says so (handoffNotRead).
	Handoff HandoffRule
	// Bundle is what vlaunch writes for the connector in a prefill/decode
	// bundle, or why it writes none (PDBundleOf reads it).
	Bundle ConnectorBundle
}

// ConnectorSpan is one release range [Since, Removed) of a connector name
// (a zero Removed: still registered in the newest release known).
type ConnectorSpan struct {
	Since, Removed Version
	// SinceConfirmed and RemovedConfirmed say a tag or a versioned source
	// pins the boundary; false: inferred from a merge date.
	SinceConfirmed, RemovedConfirmed bool
	// GoneFrom is the first release certainly without the name when the
	// removal release itself is inferred: a minor release cut from main
	// after the removal merged.
	GoneFrom Version
	// V0 marks a connector of the V0 engine (KVConnectorBase): the V1
	// engine's factory asserts a KVConnectorBase_V1 subclass and fails on
	// it, and the V0 engine has none of the V1 connectors.
	V0 bool
}

// pdResearch is the research note the connector facts were gathered in;
// each entry names its pull request (vllm-project/vllm) there.
const pdResearch = "pd-disaggregation.md §1.2/§1.6 (Dec 2026)"

// connectorRegistryCheck is what the search index shows of the factory: at
// vllm@007c643b (between #21785 and #22595) it registers SharedStorage,
// P2pNccl, LMCacheConnectorV1, Nixl and Multi, and no V0 name; the newest
// stored factory (per the research) registers no P2pNcclConnector.
const connectorRegistryCheck = "vllm@007c643b:vllm/distributed/kv_transfer/kv_connector/factory.py"

// v0Gone marks a V0 connector's span, certainly gone from 0.11.0: #21785
// merged 2025-08-04, v0.11.0 was cut 2025-10-02, and the factory at
// connectorRegistryCheck (main between the two) registers none of them.
func v0Gone(c ConnectorSpan) ConnectorSpan {
	c.GoneFrom = v0110
	c.V0 = true
	return c
}

// connSpan builds a ConnectorSpan: since/removed "" = open; a trailing "?"
// marks a boundary inferred from a merge date.
func connSpan(since, removed string) ConnectorSpan {
	var c ConnectorSpan
	if since != "" {
		c.SinceConfirmed = since[len(since)-1] != '?'
		c.Since = mustVersion(trimInferred(since))
	}
	if removed != "" {
		c.RemovedConfirmed = removed[len(removed)-1] != '?'
		c.Removed = mustVersion(trimInferred(removed))
	}
	return c
}

func trimInferred(s string) string {
	if s != "" && s[len(s)-1] == '?' {
		return s[:len(s)-1]
	}
	return s
}

// KVConnector finds a name the factory registers in some release.
func KVConnector(name string) (Connector, bool) {
	for _, c := range connectorTable {
		if c.Name == name {
			return c, true
		}
	}
	return Connector{}, false
}

// KVConnectorIn is what the table says about kv_connector name in this
// release: Present inside a span (an inferred boundary taken at the
// release it was inferred to be); Maybe outside every span when a boundary
// that decides is inferred, not confirmed (report it as probable, never as
// an error); Absent when confirmed boundaries put the release outside, or
// no release registers the name (KVConnector tells the two apart).
func (r Release) KVConnectorIn(name string) Presence {
	c, ok := KVConnector(name)
	if !ok {
		return Absent
	}
	return c.In(r.Version)
}

// In is KVConnectorIn for release v.
func (c Connector) In(v Version) Presence {
	for _, s := range c.Spans {
		if !v.Less(s.Since) && (s.Removed.IsZero() || v.Less(s.Removed)) {
			return Present
		}
	}
	// Outside every span: certain only when no boundary near v is inferred.
	for _, s := range c.Spans {
		if v.Less(s.Since) && !s.SinceConfirmed {
			return Maybe
		}
		gone := s.RemovedConfirmed || (!s.GoneFrom.IsZero() && v.AtLeast(s.GoneFrom))
		if !s.Removed.IsZero() && !v.Less(s.Removed) && !gone {
			return Maybe
		}
	}
	return Absent
}

// V0In reports whether the name, in release v, is a V0-engine connector
// (false when v is outside every span).
func (c Connector) V0In(v Version) bool {
	for _, s := range c.Spans {
		if !v.Less(s.Since) && (s.Removed.IsZero() || v.Less(s.Removed)) {
			return s.V0
		}
	}
	return false
}

// Citation is the connector's source with the research note that gathered it.
func (c Connector) Citation() string { return c.Source + " (" + pdResearch + ")" }
