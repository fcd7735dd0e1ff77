package lint

import "github.com/vlaunch/vlaunch/vllm"

// kvConnector is one name vLLM's KVConnectorFactory registers, with the
// releases that have it. Since/Removed carry Confirmed flags: a release
// inferred from a merge date ("≈" in the research) is unconfirmed, and an
// unconfirmed boundary is only ever an info finding (VL133).
type kvConnector struct {
	Name string
	// Spans are the release ranges holding the name (a name can come back:
	// MooncakeConnector was a V0 connector, removed, and re-added for V1).
	Spans []connectorSpan
	// Platform is the only platform the connector runs on ("" = any).
	Platform string
	// Source cites where the facts come from.
	Source string
}

// connectorSpan is one release range of a connector name.
type connectorSpan struct {
	Since, Removed                   vllm.Version
	SinceConfirmed, RemovedConfirmed bool
	// GoneFrom is the first release certainly without the name when the
	// removal release itself is inferred: a minor release cut from main
	// after the removal merged.
	GoneFrom vllm.Version
	// V0 marks a connector of the V0 engine (KVConnectorBase): the V1
	// engine's factory asserts a KVConnectorBase_V1 subclass and fails on
	// it, and the V0 engine has none of the V1 connectors.
	V0 bool
}

// v0Gone is where the V0 connectors are certainly gone: #21785 merged
// 2025-08-04, v0.11.0 was cut 2025-10-02, and registryCheck (main between
// the two) registers none of them.
func v0Gone(c connectorSpan) connectorSpan {
	c.GoneFrom = mustV("0.11.0")
	c.V0 = true
	return c
}

// pdResearch is the research note the connector facts were gathered in;
// each entry names its pull request (vllm-project/vllm) there.
const pdResearch = "pd-disaggregation.md §1.2/§1.6 (Dec 2026)"

// registryCheck is what the search index shows of the factory: at
// vllm@007c643b (between #21785 and #22595) it registers SharedStorage,
// P2pNccl, LMCacheConnectorV1, Nixl and Multi, and no V0 name; the newest
// stored factory (per the research) registers no P2pNcclConnector.
const registryCheck = "vllm@007c643b:vllm/distributed/kv_transfer/kv_connector/factory.py"

func mustV(s string) vllm.Version {
	ver, err := vllm.ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return ver
}

// span builds a connectorSpan: since/removed "" = open; a trailing "?"
// marks an unconfirmed boundary.
func span(since, removed string) connectorSpan {
	var c connectorSpan
	if since != "" {
		c.SinceConfirmed = since[len(since)-1] != '?'
		c.Since = mustV(trimQ(since))
	}
	if removed != "" {
		c.RemovedConfirmed = removed[len(removed)-1] != '?'
		c.Removed = mustV(trimQ(removed))
	}
	return c
}

func trimQ(s string) string {
	if s != "" && s[len(s)-1] == '?' {
		return s[:len(s)-1]
	}
	return s
}

// kvConnectors are the registered names. V0 names were unregistered by
// #21785 (2025-08-04, ≈0.10.1, consistent with registryCheck).
var kvConnectors = []kvConnector{
	{Name: "PyNcclConnector", Spans: []connectorSpan{v0Gone(span("0.6.5", "0.10.1?"))}, Source: "#10502 (v0.6.5), #21785"},
	{Name: "MooncakeConnector", Spans: []connectorSpan{v0Gone(span("0.7.0?", "0.10.1?")), span("0.13.0?", "")}, Source: "V0 #10884/#11481, #21785; V1 #24718 (2025-12-04)"},
	{Name: "LMCacheConnector", Spans: []connectorSpan{v0Gone(span("0.8.0?", "0.10.1?"))}, Source: "#12953 (2025-02-25), #21785"},
	{Name: "MooncakeStoreConnector", Spans: []connectorSpan{v0Gone(span("0.8.3?", "0.10.1?")), span("0.22.0?", "")}, Source: "#12957, #21785; V1 store connector #40900 (2026-05-13)"},
	{Name: "SharedStorageConnector", Spans: []connectorSpan{span("0.8.5?", "0.13.0?")}, Source: "#15960 (2025-04-17); renamed ExampleConnector #30201 (2025-12-09)"},
	{Name: "ExampleConnector", Spans: []connectorSpan{span("0.13.0?", "")}, Source: "#30201 (2025-12-09)"},
	{Name: "LMCacheConnectorV1", Spans: []connectorSpan{span("0.8.5?", "")}, Source: "#16625 (2025-04-25)"},
	{Name: "NixlConnector", Spans: []connectorSpan{span("0.9.0", "")}, Source: "#17751 (v0.9.0)"},
	{Name: "MultiConnector", Spans: []connectorSpan{span("0.9.0", "")}, Source: "#17564 (v0.9.0)"},
	{Name: "P2pNcclConnector", Spans: []connectorSpan{span("0.9.2?", "0.23.0?")}, Source: "#18242 (2025-06-18); removed #44854 (2026-06-08)"},
	{Name: "OffloadingConnector", Spans: []connectorSpan{span("0.11.0?", "")}, Source: "#22595 (2025-09-19)"},
	{Name: "DecodeBenchConnector", Spans: []connectorSpan{span("0.11.1?", "")}, Source: "#25986 (2025-10-21)"},
	{Name: "LMCacheMPConnector", Spans: []connectorSpan{span("0.12.0?", "")}, Source: "#27902 (2025-11-12)"},
	{Name: "MoRIIOConnector", Spans: []connectorSpan{span("0.14.0?", "")}, Platform: "rocm", Source: "#29304 (2026-01-09)"},
	{Name: "FlexKVConnectorV1", Spans: []connectorSpan{span("0.18.0?", "")}, Source: "#34328 (2026-03-12)"},
	{Name: "SimpleCPUOffloadConnector", Spans: []connectorSpan{span("0.19.0?", "")}, Source: "#37160 (2026-03-31)"},
	{Name: "HF3FSKVConnector", Spans: []connectorSpan{span("0.19.0?", "")}, Source: "#37636 (2026-04-07)"},
	{Name: "NixlPullConnector", Spans: []connectorSpan{span("0.23.0?", "")}, Source: "#35264 (present in v0.26.0 per ai-dynamo/dynamo#13311)"},
	{Name: "NixlPushConnector", Spans: []connectorSpan{span("0.23.0?", "")}, Source: "#35264 (present in v0.26.0 per ai-dynamo/dynamo#13311)"},
	{Name: "ExampleHiddenStatesConnector", Spans: []connectorSpan{span("0.23.0?", "")}, Source: "newest factory.py registry (release unknown)"},
}

// v0Connector reports whether the name, in release r, is a V0-engine
// connector (false when r is outside every span).
func v0Connector(c kvConnector, r vllm.Version) bool {
	for _, s := range c.Spans {
		if !r.Less(s.Since) && (s.Removed.IsZero() || r.Less(s.Removed)) {
			return s.V0
		}
	}
	return false
}

// lookupConnector finds a registered name.
func lookupConnector(name string) (kvConnector, bool) {
	for _, c := range kvConnectors {
		if c.Name == name {
			return c, true
		}
	}
	return kvConnector{}, false
}

// connectorIn says whether release r has the connector: in (lenient: any
// span may hold it) and certain (the boundaries that decide are confirmed).
func connectorIn(c kvConnector, r vllm.Version) (in, certain bool) {
	for _, s := range c.Spans {
		if r.Less(s.Since) {
			continue
		}
		if s.Removed.IsZero() || r.Less(s.Removed) {
			return true, true
		}
	}
	// Not in any span: certain only when the boundary nearest r is confirmed.
	for _, s := range c.Spans {
		if r.Less(s.Since) && !s.SinceConfirmed {
			return false, false
		}
		gone := s.RemovedConfirmed || (!s.GoneFrom.IsZero() && r.AtLeast(s.GoneFrom))
		if !s.Removed.IsZero() && !r.Less(s.Removed) && !gone {
			return false, false
		}
	}
	return false, true
}
