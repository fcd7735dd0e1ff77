package vllm

// Connector is one name vLLM's KVConnectorFactory registers (the
// kv_connector of --kv-transfer-config), with the releases that have it.
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

// srcNixlPushPull pins the first release of NixlPullConnector and
// NixlPushConnector, both added by #35264 (merged 2026-06-12T10:38Z as
// 88ed6362). v0.23.0 was tagged after the merge (2026-06-15) but cut from a
// branch taken before it: its release notes do not list #35264, while
// v0.24.0's (tagged 2026-06-29), which list the changes since v0.23.0, do
// ("KV push from prefill to decode via NIXL (#35264)"), as they do the PRs
// merged beside it that day (#42206, #45322, #39457, #45103). No 0.23.x
// patch release came between. A merge-date inference said 0.23.0.
const srcNixlPushPull = "#35264 (merged 2026-06-12); present at 0.24.0: vllm-project/vllm releases/tag/v0.24.0 notes list #35264; " +
	"absent at 0.23.0: releases/tag/v0.23.0 notes (2026-06-15) omit it; present in v0.26.0 per ai-dynamo/dynamo#13311"

// connectorTable are the registered names. V0 names were unregistered by
// #21785 (2025-08-04, ≈0.10.1, consistent with connectorRegistryCheck).
var connectorTable = []Connector{
	{Name: "PyNcclConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.6.5", "0.10.1?"))}, Source: "#10502 (v0.6.5), #21785"},
	{Name: "MooncakeConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.7.0?", "0.10.1?")), connSpan("0.13.0?", "")}, Source: "V0 #10884/#11481, #21785; V1 #24718 (2025-12-04)"},
	{Name: "LMCacheConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.8.0?", "0.10.1?"))}, Source: "#12953 (2025-02-25), #21785"},
	{Name: "MooncakeStoreConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.8.3?", "0.10.1?")), connSpan("0.22.0?", "")}, Source: "#12957, #21785; V1 store connector #40900 (2026-05-13)"},
	{Name: "SharedStorageConnector", Spans: []ConnectorSpan{connSpan("0.8.5?", "0.13.0?")}, Source: "#15960 (2025-04-17); renamed ExampleConnector #30201 (2025-12-09)"},
	{Name: "ExampleConnector", Spans: []ConnectorSpan{connSpan("0.13.0?", "")}, Source: "#30201 (2025-12-09)"},
	{Name: "LMCacheConnectorV1", Spans: []ConnectorSpan{connSpan("0.8.5?", "")}, Source: "#16625 (2025-04-25)"},
	{Name: "NixlConnector", Spans: []ConnectorSpan{connSpan("0.9.0", "")}, Source: "#17751 (v0.9.0)"},
	{Name: "MultiConnector", Spans: []ConnectorSpan{connSpan("0.9.0", "")}, Source: "#17564 (v0.9.0)"},
	{Name: "P2pNcclConnector", Spans: []ConnectorSpan{connSpan("0.9.2?", "0.24.0")}, Source: "#18242 (2025-06-18); removed by #44854 (2026-06-08): v0.24.0's GitHub release notes list the removal, v0.23.0's (cut before 2026-06-12, see srcNixlPushPull) do not"},
	{Name: "OffloadingConnector", Spans: []ConnectorSpan{connSpan("0.11.0?", "")}, Offload: true, Source: "#22595 (2025-09-19)"},
	{Name: "DecodeBenchConnector", Spans: []ConnectorSpan{connSpan("0.11.1?", "")}, Offload: true, Source: "#25986 (2025-10-21)"},
	{Name: "LMCacheMPConnector", Spans: []ConnectorSpan{connSpan("0.12.0?", "")}, Source: "#27902 (2025-11-12)"},
	{Name: "MoRIIOConnector", Spans: []ConnectorSpan{connSpan("0.14.0?", "")}, Platform: "rocm", Source: "#29304 (2026-01-09)"},
	{Name: "FlexKVConnectorV1", Spans: []ConnectorSpan{connSpan("0.18.0?", "")}, Offload: true, Source: "#34328 (2026-03-12); registered at " + srcFA019},
	{Name: "SimpleCPUOffloadConnector", Spans: []ConnectorSpan{connSpan("0.19.0?", "")}, Offload: true, Source: "#37160 (2026-03-31); " + srcFAConnectors},
	{Name: "HF3FSKVConnector", Spans: []ConnectorSpan{connSpan("0.20.0?", "")}, Offload: true, Source: "#37636 (merged 2026-04-07, after the v0.19.0 commit); not registered in " + srcFAConnectors},
	{Name: "NixlPullConnector", Spans: []ConnectorSpan{connSpan("0.24.0", "")}, Source: srcNixlPushPull},
	{Name: "NixlPushConnector", Spans: []ConnectorSpan{connSpan("0.24.0", "")}, Source: srcNixlPushPull},
	{Name: "ExampleHiddenStatesConnector", Spans: []ConnectorSpan{connSpan("0.17.0?", "")}, Offload: true, Source: "#33736 (merged 2026-03-02); " + srcFAConnectors},
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
