package vllm

import "strings"

// How vLLM's NIXL connector turns a request's KV hand-off into NIXL
// descriptors, which memory it hands NIXL, and what UCX_TLS lets UCX carry
// it over: the facts check prices the hand-off with (estimate/pd) and lint's
// NIXL/UCX rules ask (VL229, VL230).

// srcNixlDescriptors cites the descriptor count. register_kv_caches
// registers one NIXL region per KV cache tensor ("self.num_regions =
// len(caches_data)"; "Currently one region per cache (so 1 per layer for
// MLA, otherwise 2 per layer)", the connector's comment since #17751's
// follow-ups, neuralmagic/vllm#77; a blocks-first layout, FlashInfer's joint
// K/V, registers one per layer and doubles num_regions virtually: "we double
// the number of 'virtual' regions here"), and _read_blocks posts one READ
// whose descriptor ids are every region × every block of the request
// (_get_block_descs_ids: "descs_ids = region_ids * num_blocks + block_ids"),
// once per remote rank it reads (_read_blocks_for_req: "D may have to
// perform multiple reads from different remote ranks" when the prefill TP
// is larger; MLA reads the first only, "cache is duplicated"). Read in
// vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py at
// vllm@002a1057 (the one stored version of vllm-project/vllm's file:
// NIXL_CONNECTOR_VERSION 2, after the network_utils split of late 2025, so
// later than v0.11.0; its release is not pinned), and in earlier forms of
// the same function that the code index holds without naming their
// repository (the first: "for reg_id in region_ids: for block_id in
// block_ids: descs_ids.append(reg_id * num_blocks + block_id)"), none
// merging blocks. The v0.11.0 tag's file reads the same (_get_block_descs_ids:
// "descs_ids = region_ids * num_blocks + block_ids"), and vLLM's own lists
// stay per block through v0.24.0 (srcNixlBlockRatio): whether the NIXL of
// a release between merges them is what NixlCoalescesBlocks leaves open.
const srcNixlDescriptors = "vllm@002a1057:vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py " +
	"(register_kv_caches: num_regions = len(caches_data), doubled for a blocks-first layout; _get_block_descs_ids: " +
	"region_ids * num_blocks + block_ids; _read_blocks_for_req: one read per remote rank, the first only for MLA)"

// srcNixlCoalesced cites contiguous blocks coalescing: on vLLM 0.28.0 with
// nixl 1.3.2, "Quadrupling the prompt from 10.3k to 41.1k tokens quadrupled
// the payload and left the descriptor count at exactly 101 — one per
// region, because freshly allocated blocks are contiguous and coalesce"
// (vllm-project/vllm#55434, 2026-09-05; which layer merges them, vLLM or
// NIXL, the report does not say).
const srcNixlCoalesced = "vllm-project/vllm#55434 (vLLM 0.28.0, nixl 1.3.2: 101 descriptors, one per region, for fresh prompts of 10.3k and 41.1k tokens)"

// nixlCoalescedFrom is the one release a source shows coalescing in.
var nixlCoalescedFrom = v0280

// nixlPerBlockThrough is the first release after the ones whose connector
// is known to post one descriptor per block: the stored source
// (srcNixlDescriptors, from after v0.11.0) and every earlier form read
// build the list block by block with no merging, so releases through 0.11
// do too.
var nixlPerBlockThrough = v0120

// NixlRegions is how many NIXL regions one worker registers for layers
// attention layers: one per layer with MLA (one latent cache), else two
// (K and V, split or virtually split).
func NixlRegions(layers int, mla bool) int {
	if mla {
		return layers
	}
	return 2 * layers
}

// NixlReadsPerDecodeRank is how many READs a decode worker posts for one
// request: one per prefill rank whose heads it needs (prefill TP p over
// decode TP d, when p > d and the cache is not MLA's replicated latent),
// else one.
func NixlReadsPerDecodeRank(p, d int, mla bool) int {
	if mla || p <= d || d <= 0 {
		return 1
	}
	return p / d
}

// NixlCoalescesBlocks says whether release v's NIXL hand-off merges a
// request's contiguous blocks into one descriptor per region: Present from
// the release #55434 measured it in, Absent through 0.11 (one per block,
// srcNixlDescriptors), Maybe between (no source read pins it).
func NixlCoalescesBlocks(v Version) Presence {
	switch {
	case v.IsZero():
		return Maybe
	case v.Less(nixlPerBlockThrough):
		return Absent
	case !v.Less(nixlCoalescedFrom):
		return Present
	}
	return Maybe
}

// srcNixlHeteroTP cites how a decode worker reads a prefill engine of a
// smaller TP, read at the v0.11.0 tag in
// vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py. The
// handshake runs once per remote engine and D rank, in a background thread
// on the request that first names the engine (_background_nixl_handshake;
// the request waits for it), with the one prefill rank this D rank reads:
// "Handshake only with the remote TP rank that current local rank will pull
// from" (_nixl_handshake: p_remote_rank = tp_rank // tp_ratio, tp_ratio =
// D TP ÷ P TP). add_remote_agent then describes every remote block of every
// region at the D rank's own block length, offset into the P block by
// "tp_rank % tp_ratio * kv_block_len" (its share of the heads: the slice is
// contiguous because the connector requires the HND layout,
// get_required_kvcache_layout, and asserts "Heterogeneous TP expects same
// kv_cache_layout"), so _read_blocks posts one READ of regions × blocks
// descriptors, the same count as a D rank of a pool whose prefill has its
// TP, each descriptor a D block. Every D rank notifies its P rank with
// "req_id:tp_ratio" and the P rank frees the blocks after tp_ratio of them
// (_get_new_notifs). What differs from equal TP is the sending side: D TP ÷
// P TP D ranks read each P rank, so the P ranks, fewer, send every byte.
// From v0.11.1 a D rank whose KV layout is NHD may read an HND prefill with
// kv_transfer_config.enable_permute_local_kv and re-lays the blocks on the
// device after the read (permute_device_kv in get_finished); without the
// flag the mismatch stops the handshake.
const srcNixlHeteroTP = "vLLM v0.11.0 vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py " +
	"(_nixl_handshake: one handshake per remote engine with rank tp_rank // tp_ratio; add_remote_agent: remote blocks described " +
	"at the D rank's block length with rank_offset = tp_rank % tp_ratio * kv_block_len, HND required; _read_blocks: one READ " +
	"of regions × blocks descriptors; _get_new_notifs: P frees after tp_ratio notifications)"

// srcNixlBlockRatio cites the descriptor block size between block sizes:
// v0.11.1's connector registers the local cache a second time in
// descriptors of the remote (prefill) block length
// (register_local_xfer_handler: "num_blocks = self.num_blocks *
// block_size_ratio") and maps each local block to block_size_ratio remote
// ones (_read_blocks, get_mapped_blocks), so a read posts regions × prefill
// blocks; v0.24.0's pull_worker._read_blocks and
// base_worker._compute_desc_ids still do ("region_ids * num_blocks +
// block_arr", num_blocks scaled by block_size_ratio), vLLM itself merging
// no blocks through v0.24.0.
const srcNixlBlockRatio = "vLLM v0.11.1 nixl_connector.py (register_local_xfer_handler, get_mapped_blocks, _get_block_descs_ids with " +
	"block_size_ratio); v0.24.0 nixl/pull_worker.py _read_blocks and nixl/base_worker.py _compute_desc_ids"

// NixlDescriptorBlockSize is the block size, in tokens, of the descriptors
// a decode worker posts for prefill block size p and decode block size d in
// release v: the prefill's where it is the smaller and the release
// transfers between the two (NixlBlockSizes; each decode block is read as
// d ÷ p prefill blocks, srcNixlBlockRatio), else the decode's.
func NixlDescriptorBlockSize(v Version, p, d int) int {
	if p > 0 && p < d && NixlBlockSizes(v, p, d) == Present {
		return p
	}
	return d
}

// NixlHeteroTPSource cites how a decode worker reads a prefill of another
// TP (srcNixlHeteroTP) and the descriptor block size (srcNixlBlockRatio).
func NixlHeteroTPSource() string { return srcNixlHeteroTP + "; " + srcNixlBlockRatio }

// NixlDescriptorsSource cites NixlRegions, NixlReadsPerDecodeRank and
// NixlCoalescesBlocks.
func NixlDescriptorsSource() string { return srcNixlDescriptors + "; " + srcNixlCoalesced }

// srcKVNoFabric cites that vLLM allocates the KV cache without a CUDA
// fabric handle: "the KV cache is allocated with torch.zeros(...,
// device=\"cuda\") (plain cudaMalloc), which has no CUDA fabric handle, so
// UCX's cuda_ipc transport cannot export it across the MNNVL domain and
// downgrades to software emulation | tcp" (vllm-project/vllm#51377, RFC,
// open, 2026-08-07, on GB300 NVL72). The options that would allocate it
// (VLLM_KV_CACHE_FABRIC in #51377, VLLM_CUDA_FABRIC_MEMORY in #33558) are in
// pull requests that are open (#51377) or closed (#33558); no release's
// vllm/envs.py read registers either.
const srcKVNoFabric = "vllm-project/vllm#51377 (open RFC: KV cache from plain cudaMalloc, no fabric handle, so UCX cuda_ipc cannot reach across an MNNVL domain); #33558 (VLLM_CUDA_FABRIC_MEMORY, closed)"

// KVCacheFabricMemory reports whether release v can allocate its KV cache
// with a CUDA fabric handle, which UCX's cuda_ipc needs to move it between
// the nodes of a multi-node NVLink domain: no release known.
func KVCacheFabricMemory(Version) bool { return false }

// KVCacheFabricSource cites KVCacheFabricMemory.
func KVCacheFabricSource() string { return srcKVNoFabric }

// UCXTLSEnv is the UCX variable that restricts its transports.
const UCXTLSEnv = "UCX_TLS"

// ucxRDMA are UCX_TLS names of transports that move data over RDMA NICs
// (InfiniBand/RoCE verbs and mlx5 accelerated, EFA's SRD; "ib" is UCX's
// alias for all IB transports). UCX documents the names in its FAQ and
// ucx_info -d.
var ucxRDMA = map[string]bool{
	"ib": true, "rc": true, "rc_v": true, "rc_x": true, "rc_verbs": true, "rc_mlx5": true,
	"dc": true, "dc_x": true, "dc_mlx5": true, "ud": true, "ud_v": true, "ud_x": true, "ud_verbs": true, "ud_mlx5": true,
	"srd": true,
}

// UCXTLSRDMA says whether a UCX_TLS value leaves UCX an RDMA transport:
// Absent for a list that names none (UCX then moves inter-node data over
// tcp, if listed), or an exclusion list ("^…") that names "ib" or every RDMA
// transport's family; Present for "all", a list naming one, or an exclusion
// list that leaves them; Maybe for an empty value.
func UCXTLSRDMA(tls string) Presence {
	t := strings.TrimSpace(tls)
	if t == "" {
		return Maybe
	}
	if strings.HasPrefix(t, "^") {
		ex := map[string]bool{}
		for _, x := range strings.Split(t[1:], ",") {
			ex[strings.TrimSpace(x)] = true
		}
		if ex["ib"] || (ex["rc"] || ex["rc_v"] && ex["rc_x"]) && (ex["dc"] || ex["dc_x"]) && (ex["ud"] || ex["ud_v"] && ex["ud_x"]) && ex["srd"] {
			return Absent
		}
		return Present
	}
	for _, x := range strings.Split(t, ",") {
		x = strings.TrimSpace(x)
		if x == "all" || ucxRDMA[x] {
			return Present
		}
	}
	return Absent
}
