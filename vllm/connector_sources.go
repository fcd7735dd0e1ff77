package vllm

// The sources the connector table (connector_table.go) cites: each
// connector's code (file at commit) or the release notes that pin a
// boundary, shared where several connectors or parts cite the same read.

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
	"keys all optional (num_workers 10, mooncake_protocol \"rdma\", bootstrap_server_address " +
	"unset = the embedded server); VLLM_MOONCAKE_BOOTSTRAP_PORT default 8998, prefill only, the same on an instance's headless " +
	"nodes, unique per instance on a host; mooncake_connector.py imports mooncake.engine.TransferEngine " +
	"(pip mooncake-transfer-engine, -cuda13 on CUDA 13); mooncake_utils.py MooncakeBootstrapServer serves POST /register " +
	"and GET /query on the prefill instance's global rank 0, the workers' addresses from get_ip() (VLLM_HOST_IP); " +
	"MooncakeConnectorWorker initializes TransferEngine(hostname, \"P2PHANDSHAKE\", protocol, \"\") at tags v0.14.0-v0.24.0 (no device name: Mooncake discovers every RDMA device; v0.24.0's docs list only num_workers and mooncake_protocol), takes " +
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
