package vllm

// The connector table: every KV connector name vlaunch knows, each with
// its three parts, decided (TestConnectorPartsDecided):
//   - Spans, Platform, Offload, Source: the releases whose factory
//     registers the name (KVConnector, KVConnectorIn; kv_connectors.go);
//   - Handoff: how it hands a request's KV from the prefill engine to the
//     decode engine, or why that is unknown (KVHandoffOf; kv_handoff.go);
//   - Bundle: what vlaunch writes for it in a prefill/decode bundle, or why
//     it writes none (PDBundleOf, PDBundleConnectors; pd_bundle.go).
// The sources the entries share are in connector_sources.go.

// nixlReadHandoff is NixlConnector's READ: the decode side pulls the
// finished prefill's blocks (NixlPullConnector keeps it under a new name).
var nixlReadHandoff = KVHandoff{Direction: HandoffPull, LayerWise: Absent, Initiator: "decode",
	Transport: "NIXL (UCX)", UCX: true, Source: srcNixlV0110}

// exampleConnectorRefusal: ExampleConnector and the name it had before
// #30201, SharedStorageConnector.
const exampleConnectorRefusal = "it is vLLM's example connector, saving KV to a local shared_storage_path: no cross-node prefill/decode deployment"

// connectorTable are the registered names. V0 names were unregistered by
// #21785 (2025-08-04, ≈0.10.1, consistent with connectorRegistryCheck).
var connectorTable = []Connector{
	{Name: "PyNcclConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.6.5", "0.10.1?"))}, Source: "#10502 (v0.6.5), #21785",
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "MooncakeConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.7.0?", "0.10.1?")), connSpan("0.13.0?", "")}, Source: "V0 #10884/#11481, #21785; V1 #24718 (2025-12-04)",
		Handoff: handoffV1(KVHandoff{Direction: HandoffPush, LayerWise: Absent, Initiator: "decode asks, prefill writes",
			Transport: "Mooncake transfer engine", Source: srcMooncakeV1}, "V0 MooncakeConnector: not read"),
		Bundle: writes(PDBundle{Since: v0160, SinceSource: srcMooncakeSince, RouterKVConnector: "mooncake",
			BootstrapPortEnv: MooncakeBootstrapPortEnv, BootstrapPortDefault: 8998,
			Module: "mooncake.engine", Package: "mooncake-transfer-engine", Source: srcMooncakeNeeds + "; " + srcMooncakeRouter})},
	{Name: "LMCacheConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.8.0?", "0.10.1?"))}, Source: "#12953 (2025-02-25), #21785",
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "MooncakeStoreConnector", Spans: []ConnectorSpan{v0Gone(connSpan("0.8.3?", "0.10.1?")), connSpan("0.22.0?", "")}, Source: "#12957, #21785; V1 store connector #40900 (2026-05-13)",
		Handoff: handoffNotRead,
		Bundle:  refused("it moves KV through a Mooncake store (a mooncake_master and MOONCAKE_CONFIG_PATH), which vlaunch does not deploy")},
	{Name: "SharedStorageConnector", Spans: []ConnectorSpan{connSpan("0.8.5?", "0.13.0?")}, Source: "#15960 (2025-04-17); renamed ExampleConnector #30201 (2025-12-09)",
		Handoff: handoffNotRead, Bundle: refused(exampleConnectorRefusal)},
	{Name: "ExampleConnector", Spans: []ConnectorSpan{connSpan("0.13.0?", "")}, Source: "#30201 (2025-12-09)",
		Handoff: handoffNotRead, Bundle: refused(exampleConnectorRefusal)},
	{Name: "LMCacheConnectorV1", Spans: []ConnectorSpan{connSpan("0.8.5?", "")}, Source: "#16625 (2025-04-25)",
		Handoff: handoffUnknown("LMCache", "vllm@b8b302cde434 vllm/distributed/kv_transfer/kv_connector/v1/lmcache_connector.py: every hook (save_kv_layer, wait_for_layer_load, start_load_kv) delegates to LMCache's LMCacheConnectorV1Impl; whether it sends layer by layer and which side moves the bytes is LMCache's configuration, not vLLM's"),
		Bundle: refused("its P/D mode is LMCache's configuration (LMCACHE_CONFIG_FILE per role: enable_pd, pd_role, pd_proxy_host/port, " +
			"pd_buffer_size…) and pairs with LMCache's own disagg proxy example; vllm-router@03e9af5c has no LMCache mode, and vlaunch " +
			"writes no LMCache configuration")},
	{Name: "NixlConnector", Spans: []ConnectorSpan{connSpan("0.9.0", "")}, Source: "#17751 (v0.9.0)",
		Handoff: handoffFixed(nixlReadHandoff),
		Bundle: writes(PDBundle{Since: mustVersion("0.9.0"), SinceSource: "#17751 (v0.9.0)", NIXLSideChannel: true,
			Module: "nixl", Package: "nixl", LLMD: true, Source: srcNixlV0110})},
	{Name: "MultiConnector", Spans: []ConnectorSpan{connSpan("0.9.0", "")}, Source: "#17564 (v0.9.0)",
		Handoff: handoffUnknown("", "vllm@b8b302cde434 vllm/distributed/kv_transfer/kv_connector/v1/multi_connector.py: each hook is called on every child connector (save_kv_layer loops over self._connectors): the children's semantics, which the spec does not name"),
		Bundle:  refused("its children (kv_connector_extra_config.connectors) decide the hand-off, and vlaunch writes no child list")},
	{Name: "P2pNcclConnector", Spans: []ConnectorSpan{connSpan("0.9.2?", "0.24.0")}, Source: "#18242 (2025-06-18); removed by #44854 (2026-06-08): v0.24.0's GitHub release notes list the removal, v0.23.0's (cut before 2026-06-12, see srcNixlPushPull) do not",
		Handoff: handoffBySendType(KVHandoff{LayerWise: Present, SyncLoad: true, StagingCopies: true, Transport: "NCCL point-to-point", Source: srcP2pNccl}),
		Bundle: refused("its engines register over ZMQ with the proxy at kv_connector_extra_config proxy_ip:proxy_port and read http_port " +
			"unconditionally (vllm@b8b302cde434 p2p/p2p_nccl_engine.py __init__), each instance with its own kv_port; vllm-router's " +
			"--vllm-discovery-address takes such registrations (vllm-project/router@03e9af5c:src/main.rs), but vlaunch has not read the " +
			"engine's per-rank ports and GPU buffer (kv_buffer_size, taken from the KV budget) across 0.9.2-0.23 and writes none of them; " +
			"vLLM 0.24.0 removed the connector (#44854)")},
	{Name: "OffloadingConnector", Spans: []ConnectorSpan{connSpan("0.11.0?", "")}, Offload: true, Source: "#22595 (2025-09-19)",
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "DecodeBenchConnector", Spans: []ConnectorSpan{connSpan("0.11.1?", "")}, Offload: true, Source: "#25986 (2025-10-21)",
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "LMCacheMPConnector", Spans: []ConnectorSpan{connSpan("0.12.0?", "")}, Source: "#27902 (2025-11-12)",
		Handoff: handoffNotRead,
		Bundle:  refused("it runs LMCache's multi-process server, which vlaunch does not deploy, and no maintained router pairs with it for P/D")},
	{Name: "MoRIIOConnector", Spans: []ConnectorSpan{connSpan("0.14.0?", "")}, Platform: "rocm", Source: "#29304 (2026-01-09)",
		Handoff: handoffEnvMode(MoRIIOReadModeEnv,
			KVHandoff{Direction: HandoffPush, LayerWise: Present, Overlaps: true, Initiator: "prefill", Transport: "MoRI-IO (RDMA)", Source: srcMoRIIO},
			KVHandoff{Direction: HandoffPull, LayerWise: Absent, Initiator: "decode", Transport: "MoRI-IO (RDMA)", Source: srcMoRIIO}),
		Bundle: refused("ROCm only, and its scheduler reads kv_connector_extra_config[\"handshake_port\"] unconditionally " +
			"(vllm/distributed/kv_transfer/kv_connector/v1/moriio/moriio_connector.py MoRIIOConnectorScheduler); vllm-router@03e9af5c's " +
			"--kv-connector takes nixl or mooncake only (its MoRI-IO mode, newer, learns READ/WRITE mode from the instances' service-discovery " +
			"registration), and vlaunch writes neither the handshake ports nor that registration")},
	{Name: "FlexKVConnectorV1", Spans: []ConnectorSpan{connSpan("0.18.0?", "")}, Offload: true, Source: "#34328 (2026-03-12); registered at " + srcFA019,
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "SimpleCPUOffloadConnector", Spans: []ConnectorSpan{connSpan("0.19.0?", "")}, Offload: true, Source: "#37160 (2026-03-31); " + srcFAConnectors,
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "HF3FSKVConnector", Spans: []ConnectorSpan{connSpan("0.20.0?", "")}, Offload: true, Source: "#37636 (merged 2026-04-07, after the v0.19.0 commit); not registered in " + srcFAConnectors,
		Handoff: handoffNotRead, Bundle: bundleNotRead},
	{Name: "NixlPullConnector", Spans: []ConnectorSpan{connSpan("0.24.0", "")}, Source: srcNixlPushPull,
		Handoff: handoffFixed(withSource(nixlReadHandoff, "#35264: NixlConnector's pull under its new name; "+srcNixlV0110)),
		Bundle: writes(PDBundle{Since: mustVersion("0.24.0"), SinceSource: srcNixlPushPull, NIXLSideChannel: true,
			Module: "nixl", Package: "nixl", LLMD: true, Source: srcNixlBaseScheduler + "; pull_connector.py: NixlConnector's READ path"})},
	{Name: "NixlPushConnector", Spans: []ConnectorSpan{connSpan("0.24.0", "")}, Source: srcNixlPushPull,
		Handoff: handoffFixed(KVHandoff{Direction: HandoffPush, LayerWise: Absent, Initiator: "prefill",
			Transport: "NIXL (UCX)", UCX: true, Source: srcNixlPush}),
		Bundle: writes(PDBundle{Since: mustVersion("0.24.0"), SinceSource: srcNixlPushPull, NIXLSideChannel: true,
			Module: "nixl", Package: "nixl", Source: srcNixlBaseScheduler + "; " + srcNixlPushParams})},
	{Name: "ExampleHiddenStatesConnector", Spans: []ConnectorSpan{connSpan("0.17.0?", "")}, Offload: true, Source: "#33736 (merged 2026-03-02); " + srcFAConnectors,
		Handoff: handoffNotRead, Bundle: bundleNotRead},
}
