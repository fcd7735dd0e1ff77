package vllm

// How each prefill/decode KV connector hands a request's KV from the prefill
// engine to the decode engine, read in vLLM's connector source (the file and
// commit each entry cites). What the P/D model prices from it
// (estimate/pd, UseConnectorSemantics): a read or write of the whole request
// after its prefill, or a send per layer during the prefill's forward.
//
// A connector's V1 interface (vllm/distributed/kv_transfer/kv_connector/v1/
// base.py) has two hooks for layer-wise work: save_kv_layer, called by each
// attention layer during the forward, and wait_for_layer_load; a connector
// that moves the whole request after it finishes leaves both empty and
// returns the request's blocks from request_finished.

// Handoff directions: who writes the bytes.
const (
	// HandoffPull: the decode side reads the prompt's KV from the prefill
	// side after the prefill.
	HandoffPull = "pull"
	// HandoffPush: the prefill side writes (sends) it to the decode side.
	HandoffPush = "push"
)

// KVHandoff is what one connector does with a request's KV in one release.
type KVHandoff struct {
	// Connector is the registry name.
	Connector string
	// Direction is HandoffPull or HandoffPush; "" unknown.
	Direction string
	// LayerWise: Present the KV leaves layer by layer during the prefill's
	// forward (save_kv_layer sends); Absent the whole request moves after
	// the prefill finishes; Maybe unknown (set by configuration vLLM does
	// not hold, or not read).
	LayerWise Presence
	// Overlaps: a layer-wise send runs beside the forward (its own thread
	// or an asynchronous post) rather than blocking it layer by layer.
	Overlaps bool
	// SyncLoad: the decode engine schedules the request at once and loads
	// its KV inside the forward that needs it (the scheduler's
	// get_num_new_matched_tokens returns load_async False), instead of
	// parking it until an asynchronous read finishes (noticed at a step's
	// end).
	SyncLoad bool
	// Initiator is the side that starts the movement ("decode", "prefill").
	Initiator string
	// Transport is the library that moves the bytes; UCX marks NIXL over
	// UCX, whose per-descriptor posting costs the P/D model measures.
	Transport string
	UCX       bool
	// StagingCopies: each layer's blocks are gathered into a contiguous
	// tensor on the sender's GPU before the send and scattered into the
	// paged cache on the receiver's after it (P2pNccl's
	// extract_kv_from_layer and inject_kv_into_layer).
	StagingCopies bool
	// Source cites the connector's code (file at commit).
	Source string
}

// Known reports that the hand-off's timing is established.
func (h KVHandoff) Known() bool { return h.Direction != "" && h.LayerWise != Maybe }

// srcNixlV0110 is NixlConnector's source at the v0.11.0 tag.
const srcNixlV0110 = "vllm@b8b302cde434 (v0.11.0 tag) vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py: " +
	"save_kv_layer and wait_for_layer_load empty (\"NixlConnector does not do layerwise saving\"), request_finished hands the " +
	"prefill's blocks out as kv_transfer_params, the decode worker's start_load_kv → _read_blocks_for_req issues NIXL READs " +
	"(get_num_new_matched_tokens returns load_async True)"

// srcP2pNccl is P2pNcclConnector's source: the PR's merge and the v0.11.0 tag.
const srcP2pNccl = "vllm@b8b302cde434 (v0.11.0 tag) vllm/distributed/kv_transfer/kv_connector/v1/p2p/p2p_nccl_connector.py " +
	"save_kv_layer (the producer extracts each layer's blocks of every finishing request, layer[:, block_ids], and send_tensor's " +
	"them to the consumer per layer), wait_for_save → p2p_nccl_engine.wait_for_sent (PUT_ASYNC: blocks the step's end until the " +
	"send queue is empty), get_num_new_matched_tokens returns (n, False) (the consumer loads synchronously in start_load_kv, " +
	"recv_tensor per layer); p2p_nccl_engine.py send_tensor (PUT: send_sync in the forward; PUT_ASYNC: queued for the " +
	"send_async thread; GET: the consumer fetches), send_sync (a ZMQ PUT message and its reply, then ncclSend on send_stream " +
	"and stream.synchronize); a chunked prompt is sent whole in the step that finishes it (build_connector_meta, chunked_prefill). " +
	"send_type default \"PUT\" at #18242's merge vllm@eccdc8318 (2025-06-18), \"PUT_ASYNC\" since #20906 (vllm@8a4e5c5f3, " +
	"2025-07-16, ≈0.10.0, inferred)"

// srcMooncakeV1 is the V1 MooncakeConnector's source.
const srcMooncakeV1 = "vllm@ea0e501bb (#39832, 2026-05-09) vllm/distributed/kv_transfer/kv_connector/v1/mooncake/mooncake_connector.py: " +
	"save_kv_layer and wait_for_layer_load empty (\"MooncakeConnector does not do layerwise saving\"); the decode worker asks the " +
	"prefill worker over ZMQ and the prefill worker writes the finished request's blocks (send_kv_to_decode → _send_blocks → " +
	"engine.batch_transfer_sync_write; \"Mooncake is P-push\", get_kv_connector_stats)"

// srcMoRIIO is MoRIIOConnector's source.
const srcMoRIIO = "vllm@ea0e501bb (#39832) vllm/distributed/kv_transfer/kv_connector/v1/moriio/moriio_connector.py: WRITE mode " +
	"(the default: moriio_common.get_moriio_mode, VLLM_MORIIO_CONNECTOR_READ_MODE default False in vllm/envs.py) writes each " +
	"layer's blocks from save_kv_layer (_write_blocks_for_req per layer); READ mode: save_kv_layer returns, the decode side reads " +
	"after the prefill (\"READ (prefill-then-decode, sequential) from WRITE (concurrent)\")"

// srcNixlPush is NixlPushConnector's source.
const srcNixlPush = "vllm-project/vllm vllm/distributed/kv_transfer/kv_connector/v1/nixl/push_worker.py (stored version 8cc02e7f; " +
	"#35264): the decode worker registers its blocks with the prefill workers by NIXL notification; a prefill worker matches a " +
	"registration with the finished request's blocks from its scheduler (build_connector_meta) and issues NIXL WRITEs " +
	"(start_push_kv → _xfer_blocks_for_req), the whole request after its prefill"

// MoRIIOReadModeEnv selects MoRIIOConnector's READ mode (default WRITE).
const MoRIIOReadModeEnv = "VLLM_MORIIO_CONNECTOR_READ_MODE"

// P2pNcclSendType kv_connector_extra_config values
// (p2p_nccl_engine.py, send_type).
const (
	P2pNcclPut      = "PUT"
	P2pNcclPutAsync = "PUT_ASYNC"
	P2pNcclGet      = "GET"
)

// p2pNcclPutAsyncDefault is the first release whose P2pNccl send_type
// defaults to PUT_ASYNC: #20906, merged 2025-07-16 (after v0.9.2 of
// 2025-07-08), inferred to be in 0.10.0.
var p2pNcclPutAsyncDefault = v0100

// P2pNcclSendTypeDefault is the send_type P2pNcclConnector takes in release
// v when kv_connector_extra_config gives none, and whether the release is
// pinned (false: inferred from a merge date).
func P2pNcclSendTypeDefault(v Version) (string, bool) {
	if v.Less(p2pNcclPutAsyncDefault) {
		return P2pNcclPut, true
	}
	return P2pNcclPutAsync, v.AtLeast(v0110)
}

// NixlHandoff is NixlConnector's hand-off (what vlaunch writes).
func NixlHandoff() KVHandoff {
	return KVHandoff{Connector: NixlConnectorName, Direction: HandoffPull, LayerWise: Absent, Initiator: "decode",
		Transport: "NIXL (UCX)", UCX: true, Source: srcNixlV0110}
}

// KVHandoffOf is connector name's hand-off in release v. extra is the
// kv_connector_extra_config (P2pNccl's send_type), env the engine's
// environment (MoRIIO's read mode); either may be nil. An unknown or
// unread connector comes back with Direction "" (Known false) and its
// registry name.
func KVHandoffOf(name string, v Version, extra, env map[string]string) KVHandoff {
	c, ok := KVConnectorNamed(name)
	if !ok {
		return KVHandoff{Connector: name, LayerWise: Maybe}
	}
	switch c.Name {
	case NixlConnectorName:
		return NixlHandoff()
	case "NixlPullConnector":
		h := NixlHandoff()
		h.Connector, h.Source = c.Name, "#35264: NixlConnector's pull under its new name; "+srcNixlV0110
		return h
	case "NixlPushConnector":
		return KVHandoff{Connector: c.Name, Direction: HandoffPush, LayerWise: Absent, Initiator: "prefill",
			Transport: "NIXL (UCX)", UCX: true, Source: srcNixlPush}
	case "P2pNcclConnector":
		st := extra["send_type"]
		if st == "" {
			st, _ = P2pNcclSendTypeDefault(v)
		}
		h := KVHandoff{Connector: c.Name, LayerWise: Present, SyncLoad: true, StagingCopies: true, Transport: "NCCL point-to-point (send_type " + st + ")", Source: srcP2pNccl}
		switch st {
		case P2pNcclPutAsync:
			h.Direction, h.Initiator, h.Overlaps = HandoffPush, "prefill", true
		case P2pNcclPut:
			h.Direction, h.Initiator = HandoffPush, "prefill"
		case P2pNcclGet:
			h.Direction, h.Initiator, h.LayerWise = HandoffPull, "decode", Maybe // not read in detail
		default:
			h.LayerWise = Maybe
		}
		return h
	case "MooncakeConnector":
		if c.V0In(v) {
			return KVHandoff{Connector: c.Name, LayerWise: Maybe, Source: "V0 MooncakeConnector: not read"}
		}
		return KVHandoff{Connector: c.Name, Direction: HandoffPush, LayerWise: Absent, Initiator: "decode asks, prefill writes",
			Transport: "Mooncake transfer engine", Source: srcMooncakeV1}
	case "MoRIIOConnector":
		if r := env[MoRIIOReadModeEnv]; r == "1" || r == "true" || r == "True" || r == "TRUE" {
			return KVHandoff{Connector: c.Name, Direction: HandoffPull, LayerWise: Absent, Initiator: "decode",
				Transport: "MoRI-IO (RDMA)", Source: srcMoRIIO}
		}
		return KVHandoff{Connector: c.Name, Direction: HandoffPush, LayerWise: Present, Overlaps: true, Initiator: "prefill",
			Transport: "MoRI-IO (RDMA)", Source: srcMoRIIO}
	case "LMCacheConnectorV1":
		return KVHandoff{Connector: c.Name, LayerWise: Maybe, Transport: "LMCache",
			Source: "vllm@b8b302cde434 vllm/distributed/kv_transfer/kv_connector/v1/lmcache_connector.py: every hook (save_kv_layer, wait_for_layer_load, start_load_kv) delegates to LMCache's LMCacheConnectorV1Impl; whether it sends layer by layer and which side moves the bytes is LMCache's configuration, not vLLM's"}
	case "MultiConnector":
		return KVHandoff{Connector: c.Name, LayerWise: Maybe,
			Source: "vllm@b8b302cde434 vllm/distributed/kv_transfer/kv_connector/v1/multi_connector.py: each hook is called on every child connector (save_kv_layer loops over self._connectors): the children's semantics, which the spec does not name"}
	}
	return KVHandoff{Connector: c.Name, LayerWise: Maybe, Source: "not read"}
}
