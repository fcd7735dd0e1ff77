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
func NixlHandoff() KVHandoff { return KVHandoffOf(NixlConnectorName, Version{}, nil, nil) }

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
	if c.Handoff == nil { // a table gap (TestConnectorPartsDecided fails on it): unknown, never a panic
		return handoffNotRead(c, v, extra, env)
	}
	return c.Handoff(c, v, extra, env)
}

// HandoffRule is a connector's hand-off part of the connector table: its
// hand-off in release v with kv_connector_extra_config extra and the
// engine's environment env (either may be nil), named c.Name.
type HandoffRule func(c Connector, v Version, extra, env map[string]string) KVHandoff

// handoffFixed: the same hand-off in every release and configuration.
func handoffFixed(h KVHandoff) HandoffRule {
	return func(c Connector, _ Version, _, _ map[string]string) KVHandoff {
		out := h
		out.Connector = c.Name
		return out
	}
}

// handoffUnknown: a hand-off not established (LayerWise Maybe, no
// direction); reason says why (what the connector's source leaves open).
func handoffUnknown(transport, reason string) HandoffRule {
	return handoffFixed(KVHandoff{LayerWise: Maybe, Transport: transport, Source: reason})
}

// handoffNotRead: a connector whose hand-off vlaunch has not read.
var handoffNotRead = handoffUnknown("", "not read")

// handoffV1: a name that was a V0 connector before it came back for V1
// (Connector.V0In): v1 in its V1 span, unknown (v0Reason) in its V0 one.
func handoffV1(v1 KVHandoff, v0Reason string) HandoffRule {
	return func(c Connector, v Version, extra, env map[string]string) KVHandoff {
		if c.V0In(v) {
			return handoffUnknown("", v0Reason)(c, v, extra, env)
		}
		return handoffFixed(v1)(c, v, extra, env)
	}
}

// handoffEnvMode: a hand-off an environment variable switches: on when
// env[name] is true ("1", "true", "True", "TRUE"), off otherwise.
func handoffEnvMode(name string, off, on KVHandoff) HandoffRule {
	return func(c Connector, v Version, extra, env map[string]string) KVHandoff {
		if r := env[name]; r == "1" || r == "true" || r == "True" || r == "TRUE" {
			return handoffFixed(on)(c, v, extra, env)
		}
		return handoffFixed(off)(c, v, extra, env)
	}
}

// handoffBySendType is P2pNcclConnector's hand-off: base with the
// direction its send_type gives (kv_connector_extra_config, or the
// release's default, P2pNcclSendTypeDefault), named in the transport.
func handoffBySendType(base KVHandoff) HandoffRule {
	return func(c Connector, v Version, extra, _ map[string]string) KVHandoff {
		st := extra["send_type"]
		if st == "" {
			st, _ = P2pNcclSendTypeDefault(v)
		}
		h := base
		h.Connector, h.Transport = c.Name, base.Transport+" (send_type "+st+")"
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
	}
}

// withSource is h citing src instead.
func withSource(h KVHandoff, src string) KVHandoff {
	h.Source = src
	return h
}
