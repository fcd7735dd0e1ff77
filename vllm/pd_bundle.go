package vllm

import (
	"fmt"
	"strconv"
	"strings"
)

// What vlaunch writes for a prefill/decode connector: the connectors whose
// start-up needs were read in vLLM's source and that a maintained router
// (vllm-project/router, or llm-d's for the NIXL family) pairs with. The
// generator (generator/pd.go) and validate (SPEC127) both read this table,
// so validate accepts exactly what the generator writes.

// PDBundle is one connector vlaunch writes bundles for.
type PDBundle struct {
	Connector string
	// Since is the first release vlaunch writes the connector for (its
	// registry span aside: the connector's start-up protocol must be the
	// one the router speaks). SinceSource pins it.
	Since       Version
	SinceSource string
	// NIXLSideChannel: the engines take VLLM_NIXL_SIDE_CHANNEL_HOST and
	// VLLM_NIXL_SIDE_CHANNEL_PORT (NIXL's handshake) and UCX_* variables.
	NIXLSideChannel bool
	// RouterKVConnector is vllm-router's --kv-connector value; "" leaves
	// the flag out (its default, nixl: vllm-project/router@03e9af5c:src/main.rs).
	RouterKVConnector string
	// BootstrapPortEnv is the prefill engines' bootstrap server port
	// variable ("" none) and BootstrapPortDefault its default.
	BootstrapPortEnv     string
	BootstrapPortDefault int
	// Module is the Python module the connector imports at start-up
	// (what preflight imports), Package the pip package that provides it.
	Module, Package string
	// LLMD: llm-d's routing sidecar pairs with it (its NIXL protocol,
	// --kv-connector=nixlv2: kv_transfer_params from the prefill response
	// handed to the decode request). NixlPushConnector answers with the
	// same keys plus transfer_mode, but whether the sidecar hands them on
	// unchanged was not read: false.
	LLMD bool
	// Source cites what the connector needs to start.
	Source string
}

// MooncakeBootstrapPortEnv is MooncakeConnector's bootstrap server port.
const MooncakeBootstrapPortEnv = "VLLM_MOONCAKE_BOOTSTRAP_PORT"

// srcNixlBaseScheduler: NixlPull/NixlPush share NixlConnector's handshake.
const srcNixlBaseScheduler = "vllm-project/vllm vllm/distributed/kv_transfer/kv_connector/v1/nixl/base_scheduler.py " +
	"(stored version; #35264's NixlBaseConnectorScheduler): side_channel_host = envs.VLLM_NIXL_SIDE_CHANNEL_HOST, " +
	"side_channel_port = envs.VLLM_NIXL_SIDE_CHANNEL_PORT + data_parallel_index, as NixlConnector's scheduler; " +
	"no key of kv_connector_extra_config is required (get_from_extra_config with defaults)"

// srcNixlPushParams: push answers the prefill leg with the same
// kv_transfer_params as pull, so a router that forwards them works.
const srcNixlPushParams = "vllm-project/vllm@0316d25ab528 vllm/distributed/kv_transfer/kv_connector/v1/nixl/push_scheduler.py: " +
	"request_finished returns do_remote_prefill, remote_block_ids, remote_engine_id, remote_request_id, remote_host " +
	"(side_channel_host), remote_port, tp_size, pp_size, remote_num_tokens, transfer_mode \"push\" — NixlConnector's " +
	"kv_transfer_params plus the mode; the decode scheduler (update_state_after_alloc) registers its blocks with remote_host:remote_port " +
	"and the prefill worker WRITEs them; push_registration_timeout optional (default the decoder KV TTL); " +
	"bidirectional_kv_xfer raises NotImplementedError"

// srcMooncakeNeeds: what MooncakeConnector reads to start (from 0.16.0).
const srcMooncakeNeeds = "vllm-project/vllm@00f4240ee645 docs/features/mooncake_connector_usage.md: kv_connector_extra_config " +
	"keys all optional (num_workers 10, mooncake_protocol \"rdma\", device_name \"\" = every RDMA device, bootstrap_server_address " +
	"unset = the embedded server); VLLM_MOONCAKE_BOOTSTRAP_PORT default 8998, prefill only, the same on an instance's headless " +
	"nodes, unique per instance on a host; mooncake_connector.py imports mooncake.engine.TransferEngine " +
	"(pip mooncake-transfer-engine, -cuda13 on CUDA 13); mooncake_utils.py MooncakeBootstrapServer serves POST /register " +
	"and GET /query on the prefill instance's global rank 0, the workers' addresses from get_ip() (VLLM_HOST_IP); " +
	"MooncakeConnectorWorker (stored versions) initializes TransferEngine(hostname, \"P2PHANDSHAKE\", protocol, device_name), takes " +
	"the engine's own rpc_port and binds its ZMQ side channel on port 0 in register_kv_caches: OS-chosen ports, none to configure"

// srcMooncakeRouter: vllm-router's Mooncake mode.
const srcMooncakeRouter = "vllm-project/router@03e9af5c:src/main.rs (--kv-connector nixl|mooncake; --prefill URL [BOOTSTRAP_PORT]); " +
	"src/routers/http/vllm_pd_router.rs (stored version): with KvConnector::Mooncake it GETs http://PREFILL_HOST:PORT/query " +
	"(port default 8998) at start-up for each prefill URL, sends the prefill leg with a transfer_id and the decode leg with " +
	"remote_bootstrap_addr and the dp_rank's remote_engine_id"

// srcMooncakeSince: the bootstrap server the router queries arrived with
// #31034, listed in v0.16.0's release notes.
const srcMooncakeSince = "#31034 \"[P/D] rework mooncake connector and introduce its bootstrap server\": listed in vllm-project/vllm " +
	"releases/tag/v0.16.0 (\"Mooncake connector rework with bootstrap server (#31034)\", branch cut Feb 8 2026); " +
	"docs.vllm.ai/en/v0.15.0/features/mooncake_connector_usage pairs 0.15.0's MooncakeConnector with tests/…/toy_proxy_server.py instead"

// pdBundles are the connectors vlaunch writes bundles for.
var pdBundles = []PDBundle{
	{Connector: NixlConnectorName, Since: mustVersion("0.9.0"), SinceSource: "#17751 (v0.9.0)", NIXLSideChannel: true,
		Module: "nixl", Package: "nixl", LLMD: true, Source: srcNixlV0110},
	{Connector: "NixlPullConnector", Since: mustVersion("0.24.0"), SinceSource: srcNixlPushPull, NIXLSideChannel: true,
		Module: "nixl", Package: "nixl", LLMD: true, Source: srcNixlBaseScheduler + "; pull_connector.py: NixlConnector's READ path"},
	{Connector: "NixlPushConnector", Since: mustVersion("0.24.0"), SinceSource: srcNixlPushPull, NIXLSideChannel: true,
		Module: "nixl", Package: "nixl", Source: srcNixlBaseScheduler + "; " + srcNixlPushParams},
	{Connector: "MooncakeConnector", Since: v0160, SinceSource: srcMooncakeSince, RouterKVConnector: "mooncake",
		BootstrapPortEnv: MooncakeBootstrapPortEnv, BootstrapPortDefault: 8998,
		Module: "mooncake.engine", Package: "mooncake-transfer-engine", Source: srcMooncakeNeeds + "; " + srcMooncakeRouter},
}

// pdRefused says, per connector vlaunch does not write, what it lacks.
var pdRefused = map[string]string{
	"P2pNcclConnector": "its engines register over ZMQ with the proxy at kv_connector_extra_config proxy_ip:proxy_port and read http_port " +
		"unconditionally (vllm@b8b302cde434 p2p/p2p_nccl_engine.py __init__), each instance with its own kv_port; vllm-router's " +
		"--vllm-discovery-address takes such registrations (vllm-project/router@03e9af5c:src/main.rs), but vlaunch has not read the " +
		"engine's per-rank ports and GPU buffer (kv_buffer_size, taken from the KV budget) across 0.9.2-0.23 and writes none of them; " +
		"vLLM 0.24.0 removed the connector (#44854)",
	"MoRIIOConnector": "ROCm only, and its scheduler reads kv_connector_extra_config[\"handshake_port\"] unconditionally " +
		"(vllm/distributed/kv_transfer/kv_connector/v1/moriio/moriio_connector.py MoRIIOConnectorScheduler); vllm-router@03e9af5c's " +
		"--kv-connector takes nixl or mooncake only (its MoRI-IO mode, newer, learns READ/WRITE mode from the instances' service-discovery " +
		"registration), and vlaunch writes neither the handshake ports nor that registration",
	"LMCacheConnectorV1": "its P/D mode is LMCache's configuration (LMCACHE_CONFIG_FILE per role: enable_pd, pd_role, pd_proxy_host/port, " +
		"pd_buffer_size…) and pairs with LMCache's own disagg proxy example; vllm-router@03e9af5c has no LMCache mode, and vlaunch " +
		"writes no LMCache configuration",
	"LMCacheMPConnector":     "it runs LMCache's multi-process server, which vlaunch does not deploy, and no maintained router pairs with it for P/D",
	"MultiConnector":         "its children (kv_connector_extra_config.connectors) decide the hand-off, and vlaunch writes no child list",
	"MooncakeStoreConnector": "it moves KV through a Mooncake store (a mooncake_master and MOONCAKE_CONFIG_PATH), which vlaunch does not deploy",
	"ExampleConnector":       "it is vLLM's example connector, saving KV to a local shared_storage_path: no cross-node prefill/decode deployment",
	"SharedStorageConnector": "it is vLLM's example connector, saving KV to a local shared_storage_path: no cross-node prefill/decode deployment",
}

// BootstrapPort is the bootstrap server port of the instance in slot on
// its node (0: the node's first; instances sharing a host each need their
// own, srcMooncakeNeeds: "unique per instance on a host"): the default
// plus the slot, or the pool's own value when its vllm.env sets the
// variable (env; the generator keeps the spec's variable, so every
// instance then takes that one port). 0 for a connector without a
// bootstrap server. The generator (env and router arguments), validate's
// port check (resolve.PortProblems, SPEC129) and preflight's ports.free
// all read this.
func (b PDBundle) BootstrapPort(env map[string]string, slot int) int {
	if b.BootstrapPortEnv == "" {
		return 0
	}
	if v, err := strconv.Atoi(strings.TrimSpace(env[b.BootstrapPortEnv])); err == nil && v > 0 && v < 65536 {
		return v
	}
	return b.BootstrapPortDefault + slot
}

// PDBundleOf is the bundle vlaunch writes for connector name (a registry
// name, KVConnectorNamed's spelling) in release v. ok false: reason says
// what vlaunch lacks (v zero: any release; a connector written only from
// a later release says from which).
func PDBundleOf(name string, v Version) (PDBundle, bool, string) {
	c, found := KVConnectorNamed(name)
	if found {
		name = c.Name
	}
	for _, b := range pdBundles {
		if b.Connector != name {
			continue
		}
		if !v.IsZero() && v.Less(b.Since) {
			return b, false, fmt.Sprintf("vlaunch writes %s bundles from vLLM %s (%s)", b.Connector, b.Since, b.SinceSource)
		}
		return b, true, ""
	}
	if r, ok := pdRefused[name]; ok {
		return PDBundle{}, false, r
	}
	return PDBundle{}, false, "vlaunch has not read what " + name + " needs to start, so it writes no bundle for it"
}

// PDBundleConnectors lists the connectors vlaunch writes bundles for.
func PDBundleConnectors() []string {
	out := make([]string, len(pdBundles))
	for i, b := range pdBundles {
		out[i] = b.Connector
	}
	return out
}
