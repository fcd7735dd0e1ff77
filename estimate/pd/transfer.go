package pd

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/perf"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// Transfer is the KV hand-off of one request: NIXL reads the prompt's KV
// from the prefill rank that computed it into the decode rank that
// continues it, whole, after the prefill (not layer by layer). Another
// connector's hand-off is this one adapted to what it does
// (connectorTransfer, UseConnectorSemantics).
type Transfer struct {
	// BytesPerToken is one copy of the whole model's KV per token (every
	// layer; GQA heads unsplit), Formula how memory's KV layout gives it.
	BytesPerToken int64  `json:"bytes_per_token"`
	Formula       string `json:"formula"`
	// Tokens is the prompt in whole decode blocks (what NIXL moves).
	Tokens int `json:"tokens"`
	// BytesPerRequest is one copy of the prompt's KV and, for a model with
	// state layers, of the request's state (StateBytesPerRequest).
	BytesPerRequest float64 `json:"bytes_per_request"`
	// StateBytesPerRequest is the request's Mamba / Gated DeltaNet state
	// in BytesPerRequest (the whole model's: memory's StateBytesPerSeq at
	// TP 1; UseHandoffState); 0 for every model without state layers.
	StateBytesPerRequest float64 `json:"state_bytes_per_request,omitempty"`
	// WindowBytesPerRequest is DeepSeek-V4's windowed caches' pages in
	// BytesPerRequest: a finished prompt holds its last window of them
	// once, whatever its length (memory.KVLayout.HandoffSplit); 0 for
	// every other model.
	WindowBytesPerRequest float64 `json:"window_bytes_per_request,omitempty"`
	// PerPrefillRankBytes and PerDecodeRankBytes split it by each side's
	// TP and PP (an MLA latent is replicated on every TP rank: each decode
	// TP rank pulls a whole copy); WireBytes is what all the decode
	// ranks of the instance pull.
	PerPrefillRankBytes float64 `json:"per_prefill_rank_bytes"`
	PerDecodeRankBytes  float64 `json:"per_decode_rank_bytes"`
	WireBytes           float64 `json:"wire_bytes"`
	// Link is "inter-node NICs", "NVLink" (the pools share a node) or the
	// node's NICs (they share it in containers of their own);
	// LinkGBytesPerS is the bandwidth one request's transfer can use
	// alone, NodeGBytesPerS one node's NICs together.
	Link           string  `json:"link"`
	LinkGBytesPerS float64 `json:"link_gbytes_per_s"`
	NodeGBytesPerS float64 `json:"node_gbytes_per_s"`
	LatencyS       float64 `json:"latency_s"`
	// AloneS is latency + wire bytes / link: one transfer on idle NICs.
	AloneS float64 `json:"alone_s"`
	// Utilization is the busier side's NICs' load at the operating rate;
	// TimeS the mean transfer time with the NICs fairly shared.
	Utilization float64 `json:"nic_utilization"`
	TimeS       float64 `json:"time_s"`
	// Saturated marks a rate at or above what the NICs carry: transfers
	// queue without bound in an open loop (TimeS is then the lone
	// transfer's; a closed loop's wait comes from Little's law).
	Saturated bool `json:"saturated,omitempty"`
	// MaxRatePerS is the most requests per second the NICs carry.
	MaxRatePerS float64 `json:"max_rate_per_s"`
	// Transport is the UCX transport the hand-off takes (postCosts' keys:
	// cuda_ipc within a node, rc_x over InfiniBand or RoCE, tcp when UCX_TLS
	// leaves no RDMA transport or pools sharing a node in containers of their
	// own see no RDMA NIC; "" when vlaunch cannot tell, e.g. EFA or an
	// unstated fabric).
	Transport string `json:"transport,omitempty"`
	// Descriptors is what one decode rank posts for the request (vLLM's
	// regions × blocks × reads, vllm.NixlRegions); 0 when unknown.
	Descriptors int `json:"descriptors,omitempty"`
	// PostS is their submission: Descriptors × the transport's measured cost
	// per descriptor (postCosts), paid before the bytes move and not shared
	// with other transfers (the decode worker posts synchronously); 0 where
	// no cost is measured for the transport, the transfer then priced at
	// line rate alone.
	PostS float64 `json:"post_s,omitempty"`
	// Why says which path the hand-off takes and why, and what is not
	// priced, for the notes.
	Why []string `json:"why,omitempty"`
	// Refused, when not empty, says why vLLM cannot make this hand-off at
	// all (handoffRefusal: the connector in the release does not move the
	// model's state, or the engine turns off the hybrid KV cache manager a
	// state model needs and does not start). The byte and time figures are
	// then what the hand-off would move, not a transfer that can happen.
	Refused string `json:"refused,omitempty"`
	// SameNodeShare is f, the fraction of the hand-offs whose prefill and
	// decode instances both sit on a node the pools share, for pools that
	// share some of their nodes but not all (sharedNodeShare: 0 otherwise,
	// and for pools on one node, whose every hand-off stays inside it).
	// Such a hand-off takes the same-node path, SameNode; the rest, 1 − f,
	// this one's (the NICs: Link, LinkGBytesPerS, Transport, PostS above are
	// theirs, NICAloneS their lone transfer). AloneS and TimeS are then the
	// f-weighted means of the two paths, MaxRatePerS the whole rate at which
	// the NICs, carrying only the 1 − f share, saturate (blend).
	SameNodeShare float64   `json:"same_node_share,omitempty"`
	SameNode      *Transfer `json:"same_node,omitempty"`
	NICAloneS     float64   `json:"nic_alone_s,omitempty"`
	// Connector is the KV connector when it is not NixlConnector, and
	// Semantics how its hand-off is priced (UseConnectorSemantics);
	// Overlap is a layer-wise push's overlap with the prefill (TimeS is
	// then what it exposes).
	Connector string   `json:"connector,omitempty"`
	Semantics string   `json:"semantics,omitempty"`
	Overlap   *Overlap `json:"overlap,omitempty"`
	// closed marks a closed loop's hand-off priced for its sessions
	// (closedNIC, UseClosedLoopNICMVA); closedPts is then its
	// distribution (handoff), Utilization staying the NICs' load.
	closed    bool
	closedPts []handoffPoint
	// refusalWhy are the entries of Why withRefusal added.
	refusalWhy []string
}

// postCosts are the measured submission costs per NIXL descriptor on each
// UCX transport, from vLLM's NIXL Prometheus histograms (postDuration:
// synchronous submission; xferDuration: posting plus the movement) of one
// GB200 P/D deployment (GLM-5.3 NVFP4, DEP8 prefill, TP4 decode, vLLM 0.28.0,
// nixl 1.3.2; vllm-project/vllm#55434, 2026-09-05): per TP-rank transfer of
// ~4.9 GB, cuda_ipc over MNNVL took 800.8 ms of which 455.9 ms posting
// (56.9%) at 4.067 µs per descriptor (455.9 ms / 4.067 µs = 112k
// descriptors), rc_x over 4 InfiniBand rails 350.8 ms of which 24.4 ms
// posting at 0.204 µs (24.4 ms / 0.204 µs = 120k), rc_x over RoCE 0.352 µs.
// After posting, both moved the bytes at the same rate (800.8 − 455.9 =
// 344.9 ms, 4.9 GB / 0.345 s = 14.2 GB/s per rank on cuda_ipc; 350.8 − 24.4
// = 326.4 ms, 15.0 GB/s on IB): that rate is this workload's (fragmented
// ~45 KB descriptors), so the bytes stay at line rate here. One reporter,
// one host CPU (Grace); no other source gives a cost per descriptor for
// these or any other transport (EFA's SRD, TCP), which keep line rate.
var postCosts = map[string]float64{ // µs per descriptor
	transportCUDAIPC: 4.067,
	transportIB:      0.204,
	transportRoCE:    0.352,
}

// UCX transports the hand-off can take.
const (
	transportCUDAIPC = "cuda_ipc"
	transportIB      = "rc_x (InfiniBand)"
	transportRoCE    = "rc_x (RoCE)"
	transportTCP     = "tcp"
)

// tcpGBytesPerS is UCX moving GPU memory over TCP (software emulation
// through host memory): 0.5 GB/s measured with NIXL where UCX fell back to
// TCP, against 49 GB/s over cuda_ipc on the same pods
// (vllm-project/vllm#52607, 2026-08-17).
const tcpGBytesPerS = 0.5

// UseContainerSameNode: pools that share a node but run, as vlaunch
// deploys them on the docker and kubernetes runtimes, in a container or pod
// of their own do not reach each other over cuda_ipc: UCX moves the KV
// through the node's RDMA NICs where the container sees them, else over TCP
// (Transfer.path). false keeps every same-node hand-off on NVLink.
//
// What decides it is the process isolation, not CUDA_VISIBLE_DEVICES. UCX
// checks a peer's GPU by opening its CUDA IPC handle, "necessary when the
// device is not visible through CUDA_VISIBLE_DEVICES" (openucx/ucx@v1.20.0
// src/uct/cuda/cuda_ipc/cuda_ipc_md.c, uct_cuda_ipc_is_peer_accessible, since
// openucx/ucx#4137), and counts any peer of the same host reachable
// (cuda_ipc_iface.c, uct_cuda_ipc_iface_is_reachable_v2: same system id), so
// two bare processes pinned to different GPUs by CUDA_VISIBLE_DEVICES use
// cuda_ipc (on NVLink GPUs: UCX disables cuda_ipc's GET, which NIXL's pull
// issues, where NVML shows no NVLink, uct_cuda_ipc_iface_get_max_get_zcopy).
// Handles do not open across containers: "Legacy CUDA IPC handles cannot be
// exchanged across different PID namespaces" (openucx/ucx#11513, 2026-06-02;
// fabric handles could, which vLLM's KV cache lacks, vllm.KVCacheFabricMemory);
// prefill and decode in separate Docker containers on 2 × H100 with vLLM
// 0.28.0: "CUDA IPC failed" ("invalid device context") and the KV moved by
// "TCP software emulation", CUDA IPC zero-copy only with a shared PID
// namespace and mutual GPU visibility (vllm-project/vllm#55906, 2026-09-08);
// in separate Docker containers on an H100 node with Mellanox NICs, vLLM
// 0.11.0/0.13.0, NIXL 0.6/0.8, UCX 1.19/1.20, "rc_mlx5 being utilized because
// cuda_ipc fails to activate" (ai-dynamo/nixl#1195, 2026-01-12). vlaunch's
// docker bundle runs each instance as `docker run --gpus device=…` without
// --pid host (templates/docker/node.sh.tmpl), except a P/D pool sharing its
// node with the other pool: that one runs with --pid host and --gpus all,
// its GPUs picked by CUDA_VISIBLE_DEVICES (resolve.Deployment.HostPID, the
// one fact the generator writes it from and separateContainers reads), so
// it is not separate; its kubernetes bundle each instance smaller than a
// node as a pod of its own with the device plugin's GPUs and no hostPID
// (templates/kubernetes/lws.yaml.tmpl; a node both pools name is refused
// there); the RDMA devices reach the container only on an InfiniBand or
// RoCE fabric (docker: --device /dev/infiniband; kubernetes:
// runtime.kubernetes.rdma_resource).
var UseContainerSameNode = true

// separateContainers reports that in's instances run each in a container or
// pod of its own (runtime docker or kubernetes) and whether UCX in it sees
// the node's RDMA NICs; false for bare metal or an input built by hand.
func separateContainers(in *input.Input) (separate, rdma bool) {
	d := in.Resolved()
	if d == nil {
		return false, false
	}
	ib := in.Network.InterKind == "infiniband" || in.Network.InterKind == "roce"
	switch d.Runtime.Kind {
	case "docker":
		return !d.HostPID(d.Runtime.Kind), ib
	case "kubernetes":
		return true, ib && d.Runtime.Kubernetes.RDMAResource != ""
	}
	return false, false
}

// isolated reports that the pools share a node without cuda_ipc between
// them (UseContainerSameNode), and whether the container sees RDMA NICs.
func isolated(dec *input.Input, sameNode bool) (iso, rdma bool) {
	if !sameNode || !UseContainerSameNode || vllm.KVCacheFabricMemory(dec.Release().Version) {
		return false, false
	}
	return separateContainers(dec)
}

// wholeModelKV is one copy of the whole model's KV per token in the decode
// pool's cache dtype: memory's KV layout over every layer with the heads
// unsplit (TP 1), so MLA and GQA come out exact.
func wholeModelKV(dec *input.Input) memory.KVLayout {
	v := *dec
	v.Layout.TP = 1
	return memory.KVBytes(&v, memory.Stage{First: 0, End: dec.Model.NumLayers})
}

// dsv4PerToken is how memory's DeepSeek-V4 formula states its per-token
// figure (memory.deepseekV4KV), which the hand-off does not use.
const dsv4PerToken = "per token: one max_model_len sequence over max_model_len"

// dsv4HandoffFormula restates a DeepSeek-V4 formula's per-token clause as
// the hand-off counts it (splitKV).
func dsv4HandoffFormula(f string) string {
	const handoff = "per token in the hand-off: the whole-sequence caches only; the windowed caches' last pages once per request (what a finished prompt holds: no prefill chunk in flight)"
	if strings.Contains(f, dsv4PerToken) {
		return strings.Replace(f, dsv4PerToken, handoff, 1)
	}
	return f + "; " + handoff
}

// kvShare is a hand-off's KV on one GPU (or one whole copy) split by how it
// grows with the prompt: perToken bytes per prompt token, window bytes once
// per request (DeepSeek-V4's windowed caches), state bytes once per request
// (Mamba / Gated DeltaNet state, UseHandoffState).
type kvShare struct {
	perToken, window, state float64
}

// splitKV is a layout's share per rank at pipeline size pp for a prompt of
// n tokens: memory's BytesPerToken per token, or, for DeepSeek-V4, whose
// BytesPerToken amortises a max_model_len sequence with the pool's prefill
// chunk in flight (so it moved with max_num_batched_tokens), what the
// finished prompt holds (memory.KVLayout.HandoffSplit).
func splitKV(kv memory.KVLayout, pp, n int) kvShare {
	d := float64(max(1, pp))
	s := kvShare{perToken: float64(kv.BytesPerToken) / d, state: stateBytes(kv, pp)}
	if perTok, perSeq, ok := kv.HandoffSplit(n); ok {
		s.perToken, s.window = perTok/d, float64(perSeq)/d
	}
	return s
}

// bytes is the share for tok prompt tokens, the tokens split dcp ways
// (TransferSplitsByDCP); the per-request parts are whole on every rank.
func (s kvShare) bytes(tok float64, dcp int) float64 {
	return s.perToken*tok/float64(max(1, dcp)) + s.window + s.state
}

// poolKV is memory's KV layout of a pool's GPU over every layer, in the
// decode pool's cache dtype (the one the bytes move in).
func poolKV(pool *input.Input, dtype string) memory.KVLayout {
	v := *pool
	v.KVCacheDType = dtype
	return memory.KVBytes(&v, memory.Stage{First: 0, End: pool.Model.NumLayers})
}

// UseHandoffState: the hand-off moves each request's Mamba / Gated DeltaNet
// state beside its attention KV, as vLLM's connectors that carry hybrid
// models do: NixlConnector registers each state layer's conv and temporal
// state and reads them for the request (four descriptors per layer, x/B/C
// and ssm, #37635; GDN's from #41869:
// ssm_conv_transfer_utils.derive_mamba_conv_split sizes the reads as the
// MambaSpec's conv and temporal shapes, unpadded), MooncakeConnector from
// #46807. The bytes are memory's StateBytesPerSeq — the same per-sequence
// state its capacity and notes count (estimate/memory gdnStateBytes,
// mambaStateBytes) — at TP 1 for the whole copy and at each pool's TP for a
// rank's share (each state splits over TP: MambaStateShapeCalculator
// divides the conv dim and heads by the TP size); DCP leaves the state
// whole. False: the hand-off moves the attention KV only (before the QA
// pass of 2026-12-07, ~192 MB short per Qwen3.5-397B request).
var UseHandoffState = true

// stateBytes is a pool rank's share of one request's state (0 without
// state layers or with UseHandoffState off): memory's per-sequence state
// of the pool's GPU over every layer, divided by PP.
func stateBytes(kv memory.KVLayout, pp int) float64 {
	if !UseHandoffState {
		return 0
	}
	return float64(kv.StateBytesPerSeq) / float64(max(1, pp))
}

// TransferSplitsByDCP: with decode context parallelism a rank holds and
// moves only its DCP rank's share of the prompt's tokens. BytesPerRequest,
// the prompt's KV, is unchanged by DCP on either side; what DCP changes is
// the per-rank share: vllm.KVTransferDCPSource (PR #50611's design: a side
// is fully replicated, dcp 1, or fully sharded, dcp = tp; a decode rank
// reads the remote ranks holding the blocks its dcp_rank owns, so with
// dcp = tp on an MLA model the decode instance pulls one copy of the
// prompt where without DCP each TP rank pulls a whole one). Switch for the
// integrator: false keeps every rank pulling the whole per-TP share.
var TransferSplitsByDCP = true

// dcpSplit is the share of a prompt's tokens one rank of the pool moves
// (1/dcpSplit): the pool's DCP size for a plain KV layout, 1 otherwise
// (packed layouts are sized without DCP, memory.KVLayout.DCP).
func dcpSplit(pool *input.Input) int {
	if !TransferSplitsByDCP {
		return 1
	}
	kv := memory.KVBytes(pool, memory.Stage{First: 0, End: pool.Model.NumLayers})
	if kv.Packing != "" {
		return 1
	}
	return max(1, kv.DCP)
}

// interNode is the inter-node network of a pool's nodes: one node's NICs
// together in GB/s, and the latency, with check's default when the spec
// gives none (perf.DefaultInterGbitPerGPU per GPU).
func interNode(in *input.Input) (nodeGBps float64, nics int, latS float64) {
	n := in.Network
	gbit, nics, lat := n.InterGbitPerSPerNIC, n.NICsPerNode, n.InterLatencyUs
	if gbit <= 0 {
		gbit, nics, lat = perf.DefaultInterGbitPerGPU, max(1, in.Layout.GPUsPerNode), perf.DefaultInterLatencyUs
	}
	nics = max(1, nics)
	return gbit / 8 * float64(nics), nics, lat * 1e-6
}

// pageBytes finds a hybrid layout's page in memory's KV formula.
var pageBytes = regexp.MustCompile(`every page (\d+) B`)

// handoffFormula is the whole model's KV formula (memory's layout at TP 1,
// wholeModelKV) as the hand-off states it: memory words a GQA formula per
// GPU ("KV heads per GPU"), which at TP 1 are the model's heads, so the
// words become the model's; what a GPU of each pool holds follows, as vLLM
// splits it: ModelConfig.get_num_kv_heads (vllm/config/model.py, e.g.
// v0.11.0) returns max(1, total_num_kv_heads // tensor_parallel_size) per
// GPU ("We will replicate the KV heads in the case where the number of KV
// heads is smaller than the tensor parallel size") and 1 for MLA, whose
// latent every TP rank holds whole (memory's MLA formulas say "replicated on
// every TP rank" already, true at any TP). memory.KVHeadsPerRank is that
// count (its ceiling equals vLLM's floor where TP divides the heads or the
// heads divide TP, which vLLM requires). The per-rank bytes
// (PerPrefillRankBytes, PerDecodeRankBytes) are memory's layout at each
// pool's own TP, the same count.
func handoffFormula(whole string, pre, dec *input.Input) string {
	m := dec.Model
	f := strings.ReplaceAll(whole, " KV heads per GPU", " KV heads")
	// A hybrid layout's page (memory's "every page N B") is the whole
	// model's at TP 1; a GPU's is its pool's layout's.
	if w := pageBytes.FindStringSubmatch(f); w != nil {
		page := func(pool *input.Input) string {
			v := *pool
			v.KVCacheDType = dec.KVCacheDType
			if g := pageBytes.FindStringSubmatch(memory.KVBytes(&v, memory.Stage{First: 0, End: m.NumLayers}).Formula); g != nil {
				return g[1]
			}
			return "?"
		}
		f = strings.Replace(f, w[0], fmt.Sprintf("every page %s B at TP 1 (%s B on a prefill GPU, %s B on a decode GPU)", w[1], page(pre), page(dec)), 1)
	}
	f = poolHybridBlocks(f, pre, dec)
	if m.IsMLA() || m.DSV4 != nil || m.NumKVHeads <= 0 {
		return f
	}
	if m.HasLayerAttention() {
		return f + fmt.Sprintf("; on a GPU each layer's KV heads ÷ TP, at least one (prefill TP %d, decode TP %d)", max(1, pre.Layout.TP), max(1, dec.Layout.TP))
	}
	side := func(tp int) string {
		tp = max(1, tp)
		h := int(memory.KVHeadsPerRank(m, tp))
		s := fmt.Sprintf("%d at TP %d", h, tp)
		if tp > m.NumKVHeads {
			s += fmt.Sprintf(" (each head replicated on %d GPUs)", tp/m.NumKVHeads)
		}
		return s
	}
	return f + fmt.Sprintf("; KV heads on a GPU: %s on the prefill pool, %s on the decode pool", side(pre.Layout.TP), side(dec.Layout.TP))
}

// hybridBlock finds the raised attention block in memory's KV formula.
var hybridBlock = regexp.MustCompile(`attention block raised to (\d+) tokens`)

// poolHybridBlocks states the attention block vLLM raises for a hybrid's
// state pages as each pool's GPU has it: the rule is per GPU (one
// attention page of the GPU's layer must hold one state layer of the GPU:
// memory's hybridStatePacking, the block its notes state), so the whole
// model's formula at TP 1 would name a block no pool runs.
func poolHybridBlocks(f string, pre, dec *input.Input) string {
	w := hybridBlock.FindStringSubmatch(f)
	if w == nil {
		return f
	}
	pb := poolKV(pre, dec.KVCacheDType).HybridBlock
	db := poolKV(dec, dec.KVCacheDType).HybridBlock
	at := fmt.Sprintf("attention block raised to %d tokens on a decode GPU (TP %d)", db, max(1, dec.Layout.TP))
	if pb != db || pre.Layout.TP != dec.Layout.TP {
		at += fmt.Sprintf(", %d on a prefill GPU (TP %d)", pb, max(1, pre.Layout.TP))
	} else {
		at = fmt.Sprintf("attention block raised to %d tokens on every GPU of both pools (TP %d)", db, max(1, dec.Layout.TP))
	}
	return strings.Replace(f, w[0], at, 1)
}

// newTransfer sizes the hand-off of a prompt of n tokens between the pools.
// sameNode says the pools share a node (NVLink); pNodes and dNodes are the
// pools' node counts, over which the transfers spread. Pools that share
// some of their nodes but not all (a boundary node, resolve.NodeShare) get
// the mixture of the two paths (blend): the one decision check (compose.go)
// and plan's bound (Combine) both take.
func newTransfer(pre, dec *input.Input, n int, sameNode bool, pNodes, dNodes int) Transfer {
	t := pathTransfer(pre, dec, n, sameNode, pNodes, dNodes)
	if !sameNode && UseSharedNodeBlend {
		if f := sharedNodeShare(pre, dec); f > 0 && f < 1 {
			t = t.blend(pathTransfer(pre, dec, n, true, pNodes, dNodes), f)
		}
	}
	return t.withRefusal(pre, dec, vllm.NixlConnectorName)
}

// withRefusal marks a hand-off vLLM cannot make over connector (a registry
// name; handoffRefusal), first in its why, or adds what is not known of the
// state's transfer; it replaces what an earlier call added, so a hand-off
// priced as NixlConnector's (newTransfer) can be judged again for the
// spec's connector.
func (t Transfer) withRefusal(pre, dec *input.Input, connector string) Transfer {
	why := make([]string, 0, len(t.Why))
	for _, w := range t.Why {
		if !slices.Contains(t.refusalWhy, w) {
			why = append(why, w)
		}
	}
	t.Why, t.Refused, t.refusalWhy = why, "", nil
	refused, notes := handoffRefusal(pre, dec, connector)
	if refused == "" {
		t.refusalWhy = notes
		t.Why = append(t.Why, notes...)
		return t
	}
	t.Refused = refused
	t.refusalWhy = []string{"no hand-off is possible, the figures are what it would move: " + refused}
	t.Why = append(append([]string(nil), t.refusalWhy...), t.Why...)
	return t
}

// pathTransfer is newTransfer with every hand-off on one path: inside a
// node the pools share (sameNode), else over the NICs.
func pathTransfer(pre, dec *input.Input, n int, sameNode bool, pNodes, dNodes int) Transfer {
	kv := wholeModelKV(dec)
	bs := max(1, dec.BlockSize)
	t := Transfer{Formula: handoffFormula(kv.Formula, pre, dec), Tokens: (max(0, n) + bs - 1) / bs * bs}
	whole := splitKV(kv, 1, t.Tokens)
	t.BytesPerToken = int64(math.Ceil(whole.perToken))
	t.WindowBytesPerRequest = whole.window
	if t.WindowBytesPerRequest > 0 {
		t.Formula = dsv4HandoffFormula(t.Formula)
	}
	tok := float64(t.Tokens)
	t.StateBytesPerRequest = whole.state
	t.BytesPerRequest = whole.bytes(tok, 1)
	t.PerPrefillRankBytes = splitKV(poolKV(pre, dec.KVCacheDType), pre.Layout.PP, t.Tokens).bytes(tok, dcpSplit(pre))
	t.PerDecodeRankBytes = splitKV(poolKV(dec, dec.KVCacheDType), dec.Layout.PP, t.Tokens).bytes(tok, dcpSplit(dec))
	t.WireBytes = t.PerDecodeRankBytes * float64(max(1, dec.Layout.TP)*max(1, dec.Layout.PP))
	iso, _ := isolated(dec, sameNode)
	if sameNode && !iso {
		t.Link, t.LatencyS = "NVLink", dec.Network.IntraLatencyUs*1e-6
		t.LinkGBytesPerS, t.NodeGBytesPerS = sameNodeLink(pre, dec, &t.Why)
	} else {
		node, nics, lat := interNode(dec)
		t.Link, t.LatencyS, t.NodeGBytesPerS = "inter-node NICs", lat, node
		if iso {
			t.Link = "the node's NICs (pools in separate containers)"
		}
		t.LinkGBytesPerS = nicLink(pre, dec, node, nics, &t.Why)
		t.MaxRatePerS = nicsCarry(pre, pNodes, node, dNodes) * 1e9 / max(1, t.WireBytes)
	}
	t.path(pre, dec, sameNode)
	if t.LinkGBytesPerS > 0 {
		t.AloneS = t.LatencyS + t.PostS + t.WireBytes/(t.LinkGBytesPerS*1e9)
	}
	t.TimeS = t.AloneS
	return t
}

// nicsCarry is the GB/s the NICs carry between the pools: every prefill
// node's NICs together, or every decode node's (dNode GB/s each) where
// they carry less. Each pool's own nodes' NICs (interNode), so one pool on
// smaller nodes than the other (one-GPU prefill instances, four-GPU
// decode ones) is bounded by its own.
func nicsCarry(pre *input.Input, pNodes int, dNode float64, dNodes int) float64 {
	pNode, _, _ := interNode(pre)
	return min(float64(max(1, pNodes))*pNode, float64(max(1, dNodes))*dNode)
}

// sameNodeLink is the bandwidth one hand-off gets inside a node: each
// rank's share crosses its own GPU's link (hardware.network.intra_node's
// bandwidth, per GPU and one direction, or the GPU catalog's figure), and
// the side with fewer ranks bounds it: a prefill rank sends, and a decode
// rank receives, at most one link's rate, so the wire bytes move at
// link × min(prefill ranks, decode ranks). (Before, the decode side's
// ranks alone set it: a TP 2 prefill handing to TP 4 decode was priced at
// four links though two GPUs send every byte.) It says so in why.
func sameNodeLink(pre, dec *input.Input, why *[]string) (link, node float64) {
	per := dec.Network.IntraGBytesPerS
	pr, dr := max(1, pre.Layout.TP*pre.Layout.PP), max(1, dec.Layout.TP*dec.Layout.PP)
	n := min(pr, dr)
	*why = append(*why, fmt.Sprintf("inside the node each rank's share crosses its own GPU's link, %.0f GB/s per GPU in one direction (the spec's intra_node bandwidth, else the GPU catalog's): %d prefill rank(s) send, %d decode rank(s) receive, so one transfer moves at %d × %.0f = %.0f GB/s",
		per, pr, dr, n, per, per*float64(n)))
	return per * float64(n), per * float64(n)
}

// UseSenderNICs: between nodes a hand-off moves at the NICs of the side
// with fewer of them, not the decode side's alone. With prefill TP p below
// decode TP d, vLLM's NixlConnector has each decode rank read the one
// prefill rank tp_rank ÷ (d ÷ p) (vllm.NixlHeteroTPSource: v0.11.0's
// _nixl_handshake and add_remote_agent), so the p prefill ranks send every
// byte the d decode ranks pull, through the NICs their GPUs sit on; with p
// above d (#27274) the d decode ranks receive everything. Pools inside one
// node are bounded the same way (sameNodeLink). false prices the NICs of
// the decode ranks alone, as before.
var UseSenderNICs = true

// nicShare is the NICs a pool's ranks of one instance sit on: with fewer
// NICs than GPUs, GPUs share one (a lone transfer still gets a whole NIC,
// and no more than the node has).
func nicShare(in *input.Input, nics int) float64 {
	gpn := max(1, in.Layout.GPUsPerNode)
	own := float64(max(1, in.Layout.TP)*max(1, in.Layout.PP)) * float64(nics) / float64(gpn)
	return min(float64(nics), max(1, own))
}

// nicLink is the bandwidth one hand-off gets between nodes: node GB/s over
// nics NICs (the decode node's) at the NICs of the decode instance's ranks,
// or the prefill instance's NICs (its own node's) where they carry less
// (UseSenderNICs), which it then says in why.
func nicLink(pre, dec *input.Input, node float64, nics int, why *[]string) float64 {
	d := node / float64(nics) * nicShare(dec, nics)
	if !UseSenderNICs {
		return d
	}
	pnode, pn, _ := interNode(pre)
	share := nicShare(pre, pn)
	p := pnode / float64(pn) * share
	if p >= d {
		return d
	}
	pr, dr := max(1, pre.Layout.TP)*max(1, pre.Layout.PP), max(1, dec.Layout.TP)*max(1, dec.Layout.PP)
	how := ""
	if pt, dt := max(1, pre.Layout.TP), max(1, dec.Layout.TP); pt < dt {
		how = fmt.Sprintf(" (vLLM's NixlConnector has each decode rank read one prefill rank, tp_rank ÷ %d)", dt/pt)
	}
	*why = append(*why, fmt.Sprintf("the prefill instance's %d rank(s) send every byte the decode instance's %d pull%s: the transfer moves at the %.3g NIC(s) they sit on, %.1f GB/s, not the decode ranks' %.1f GB/s",
		pr, dr, how, share, p, d))
	return p
}

// path works out the UCX transport the hand-off takes and prices its
// descriptors where a cost is measured (postCosts).
//
// Within a node UCX moves GPU memory over cuda_ipc, unless the pools run in
// containers of their own (UseContainerSameNode): then it takes the node's
// RDMA NICs, or TCP where the containers see none. Between nodes it takes
// the NICs, also between the trays of one multi-node NVLink domain: vLLM
// allocates the KV cache without a CUDA fabric handle, which cuda_ipc needs
// to reach across trays (vllm.KVCacheFabricMemory). There a UCX_TLS that
// leaves UCX no RDMA transport (e.g. cuda_copy,cuda_ipc,tcp, as GB200 recipes
// set for NVLink) sends the KV over TCP at tcpGBytesPerS.
func (t *Transfer) path(pre, dec *input.Input, sameNode bool) {
	rel := dec.Release()
	iso, rdma := isolated(dec, sameNode)
	switch {
	case iso && !rdma:
		t.Transport = transportTCP
		t.LinkGBytesPerS = min(t.LinkGBytesPerS, tcpGBytesPerS)
		t.Why = append(t.Why, fmt.Sprintf("the pools share a node but run in containers of their own (runtime %s): UCX cannot open the other's CUDA IPC handles across PID namespaces (vllm-project/vllm#55906, openucx/ucx#11513) and the containers see no RDMA NIC, so the KV moves over TCP, %.1f GB/s per transfer as measured (vllm-project/vllm#52607)", dec.Resolved().Runtime.Kind, tcpGBytesPerS))
	case sameNode && !iso:
		t.Transport = transportCUDAIPC
		if d := dec.Resolved(); UseContainerSameNode && d != nil && d.HostPID(d.Runtime.Kind) {
			t.Why = append(t.Why, "the pools share a node in containers run with --pid host and every GPU visible (each picking its own with CUDA_VISIBLE_DEVICES), so UCX opens the other pool's CUDA IPC handles (vllm-project/vllm#55906: with a shared PID namespace, CUDA IPC zero-copy)")
		}
	default:
		if iso {
			t.Why = append(t.Why, fmt.Sprintf("the pools share a node but run in containers of their own (runtime %s): UCX cannot open the other's CUDA IPC handles across PID namespaces (vllm-project/vllm#55906, openucx/ucx#11513) and reads the KV through the node's RDMA NICs (ai-dynamo/nixl#1195: rc_mlx5), priced at their line rate", dec.Resolved().Runtime.Kind))
		}
		if !sameNode && dec.Network.MNNVL(dec.Layout.GPUsPerNode) && !vllm.KVCacheFabricMemory(rel.Version) {
			t.Why = append(t.Why, "the nodes share an NVLink domain, but vLLM allocates the KV cache without a CUDA fabric handle, so UCX's cuda_ipc cannot reach across nodes and NIXL moves it over the NICs (vllm-project/vllm#51377)")
		}
		switch dec.Network.InterKind {
		case "infiniband":
			t.Transport = transportIB
		case "roce":
			t.Transport = transportRoCE
		}
		for _, in := range []*input.Input{pre, dec} {
			if tls, ok := in.Env[vllm.UCXTLSEnv]; ok && vllm.UCXTLSRDMA(tls) == vllm.Absent {
				t.Transport = transportTCP
				t.LinkGBytesPerS = min(t.LinkGBytesPerS, tcpGBytesPerS)
				t.Why = append(t.Why, fmt.Sprintf("UCX_TLS=%s leaves UCX no RDMA transport: the KV moves over TCP, %.1f GB/s per transfer as measured (vllm-project/vllm#52607)", tls, tcpGBytesPerS))
				break
			}
		}
	}
	cost, ok := postCosts[t.Transport]
	if !ok {
		if t.Transport != transportTCP {
			t.Why = append(t.Why, "no measured cost per NIXL descriptor for this transport: the hand-off is priced at line rate")
		}
		return
	}
	// vLLM posts regions × blocks descriptors per read (vllm.NixlRegions);
	// a release that merges a request's contiguous blocks posts one per
	// region; where the release is not known to do either, nothing is
	// priced.
	kv := memory.KVBytes(dec, memory.Stage{First: 0, End: dec.Model.NumLayers})
	regions := vllm.NixlRegions(kv.Layers, dec.Model.IsMLA()) / max(1, dec.Layout.PP)
	reads := vllm.NixlReadsPerDecodeRank(pre.Layout.TP, dec.Layout.TP, dec.Model.IsMLA())
	// From 0.11.1 a prefill block smaller than the decode's is read block
	// by prefill block (vllm.NixlDescriptorBlockSize).
	blocks := t.Tokens / max(1, vllm.NixlDescriptorBlockSize(rel.Version, pre.BlockSize, dec.BlockSize))
	switch vllm.NixlCoalescesBlocks(rel.Version) {
	case vllm.Absent:
		t.Descriptors = regions * blocks * reads
	case vllm.Present:
		t.Descriptors = regions * reads
	default:
		t.Why = append(t.Why, fmt.Sprintf("vLLM %s is not known to post one NIXL descriptor per block or to merge contiguous blocks: no cost per descriptor is priced", rel.Version))
		return
	}
	t.PostS = float64(t.Descriptors) * cost * 1e-6
	t.Why = append(t.Why, fmt.Sprintf("%d NIXL descriptors per decode rank (vLLM posts one per KV region and block) over %s at %.3f µs each, as measured in vllm-project/vllm#55434: %.1f ms of posting",
		t.Descriptors, t.Transport, cost, 1e3*t.PostS))
}

// at is the transfer at rate requests/s: the NICs are shared fairly
// between the transfers in flight (processor sharing), so the mean time
// is the lone transfer's stretched by 1/(1 − utilisation); at or above
// full utilisation the NICs bind (Saturated, TimeS the lone transfer's).
// A mixture (SameNodeShare) stretches only its NIC share's time (the
// same-node share's too where that path also runs over the NICs: pools in
// containers of their own), the utilisation being that of the NIC share's
// rate (MaxRatePerS, blend).
func (t Transfer) at(rate float64) Transfer {
	if t.MaxRatePerS <= 0 {
		return t
	}
	t.Utilization = rate / t.MaxRatePerS
	if t.Utilization >= 1 {
		t.Saturated = true
		return t
	}
	stretch := func(aloneS float64) float64 {
		return t.LatencyS + t.PostS + (aloneS-t.LatencyS-t.PostS)/(1-t.Utilization)
	}
	if s := t.SameNode; t.SameNodeShare > 0 && s != nil {
		same := s.AloneS
		if s.MaxRatePerS > 0 {
			same = s.LatencyS + s.PostS + (s.AloneS-s.LatencyS-s.PostS)/(1-t.Utilization)
		}
		t.TimeS = t.SameNodeShare*same + (1-t.SameNodeShare)*stretch(t.NICAloneS)
		return t
	}
	t.TimeS = stretch(t.AloneS)
	return t
}

// UseSharedNodeBlend: pools that share a node but not all their nodes (a
// boundary node both pools split, resolve.NodeShare, which plan proposes:
// plan/pd_space.go boundaryCandidates) hand a fraction f of the requests
// off inside that node (sharedNodeShare), over the same-node path (NVLink
// and cuda_ipc, or what the containers allow, isolated), and load no NIC
// with them. false prices every such hand-off over the NICs, as before.
//
// f follows from where the instances run and how the router pairs them.
// vlaunch's router.sh runs vllm-project/router (`vllm-router
// --vllm-pd-disaggregation`, one --prefill and one --decode URL per
// instance, no --policy: generator/pd.go routerArgs). Its --policy
// defaults to cache_aware and --prefill-policy / --decode-policy to none
// (vllm-project/router@03e9af5c src/main.rs), each leg then taking the
// default policy (src/policies/registry.rs get_prefill_policy,
// get_decode_policy); with static URLs the router picks the prefill
// worker with the prefill policy among the prefill workers, then the
// decode worker with the decode policy among the decode workers, each
// pick on its own list, neither looking at the other's node
// (vllm-project/router@079da2e3 src/routers/http/vllm_pd_router.rs,
// route_chat / route_completion, direct URL mode). cache_aware sends a
// prompt with no cached prefix to the least loaded worker (the smallest
// radix tree, or the shortest queue when the loads diverge), so over many
// requests every instance of a pool (all alike) gets an equal share. With
// the picks independent and uniform, the pair of a request is on node k
// with probability (prefill instances on k / prefill instances) × (decode
// instances on k / decode instances), f the sum over the shared nodes.
// Not modelled: prompts sharing a prefix, which cache_aware keeps on the
// worker that cached it (the legs then correlate through the prompt: f
// may differ either way), and llm-d's router, which vlaunch deploys only
// on Kubernetes, where resolve refuses a node both pools name.
var UseSharedNodeBlend = true

// sharedNodeShare is f, the fraction of hand-offs whose prefill and decode
// instances run on one node (UseSharedNodeBlend): Σ over the nodes of the
// prefill pool's share of instances there × the decode pool's, from
// resolve's placement of each pool (Deployment.Place, its share of a
// shared node from resolve.NodeShare). 0 when the pools share no node or
// an input was built by hand (no deployment).
func sharedNodeShare(pre, dec *input.Input) float64 {
	pd, dd := pre.Resolved(), dec.Resolved()
	if pd == nil || dd == nil || !pd.SharesNode() || !dd.SharesNode() {
		return 0
	}
	p, np := instancesPerNode(pd)
	d, nd := instancesPerNode(dd)
	if np == 0 || nd == 0 {
		return 0
	}
	f := 0.0
	for name, k := range p {
		f += float64(k) / float64(np) * float64(d[name]) / float64(nd)
	}
	return f
}

// instancesPerNode counts the deployment's instances (replicas) by the
// node they run on, an instance spanning nodes counted in the total only
// (no hand-off to it stays inside one node), and returns the total.
func instancesPerNode(d *resolve.Deployment) (map[string]int, int) {
	pl, err := d.Place()
	if err != nil {
		return nil, 0
	}
	out := map[string]int{}
	for _, i := range pl.ReplicaStart {
		if pl.ReplicaNodes == 1 && i >= 0 && i < len(d.Nodes) {
			out[d.Nodes[i].Name]++
		}
	}
	return out, len(pl.ReplicaStart)
}

// blend is t, every hand-off over the NICs, mixed with same, every one
// inside a shared node, at the share f of the latter: the mean lone time
// f·same + (1 − f)·NICs, and the NICs carrying only the 1 − f share of the
// rate (MaxRatePerS ÷ (1 − f)) unless the same-node path runs over them
// too (pools in containers of their own, isolated). t keeps the NIC
// path's figures (link, transport, descriptors), same's in SameNode.
func (t Transfer) blend(same Transfer, f float64) Transfer {
	same.Why = append([]string(nil), same.Why...)
	t.SameNodeShare, t.NICAloneS = f, t.AloneS
	t.SameNode = &same
	t.AloneS = f*same.AloneS + (1-f)*t.AloneS
	t.TimeS = t.AloneS
	if same.MaxRatePerS <= 0 && t.MaxRatePerS > 0 {
		t.MaxRatePerS /= 1 - f
	}
	t.Why = append(t.Why, fmt.Sprintf("the pools share a node: %.3g of hand-offs (the router pairs each request's prefill and decode instance independently, cache_aware by default: prefill instances there ÷ prefill instances × decode instances there ÷ decode instances) over %s (%s, %.2f ms alone), the rest over the NICs (%.2f ms alone); the transfer time is their f-weighted mean (%.2f ms alone) and the NICs carry only the rest's rate",
		f, same.Link, same.Transport, 1e3*same.AloneS, 1e3*t.NICAloneS, 1e3*t.AloneS))
	return t
}

// describe is the transfer in one line for the notes.
func (t Transfer) describe() string {
	state := ""
	if t.StateBytesPerRequest > 0 {
		state = fmt.Sprintf(" + %.1f MB of state per request", t.StateBytesPerRequest/1e6)
	}
	if t.WindowBytesPerRequest > 0 {
		state += fmt.Sprintf(" + %.1f MB of sliding-window pages per request", t.WindowBytesPerRequest/1e6)
	}
	s := fmt.Sprintf("KV hand-off: %d tokens × %d B/token (%s)%s = %.1f MB per request; %.1f MB per prefill rank, %.1f MB per decode rank, %.1f MB pulled in all over %s (%.2f GB/s for one transfer)",
		t.Tokens, t.BytesPerToken, t.Formula, state, t.BytesPerRequest/1e6, t.PerPrefillRankBytes/1e6, t.PerDecodeRankBytes/1e6, t.WireBytes/1e6, t.Link, t.LinkGBytesPerS)
	for _, w := range t.Why {
		s += "; " + w
	}
	if t.Semantics != "" {
		s += "; " + t.Semantics
	}
	if o := t.Overlap; o != nil {
		s += fmt.Sprintf("; at the operating rate: %.2f ms on the wire over %d layers, %.2f ms exposed", 1e3*o.WireS, o.Layers, 1e3*o.ExposedS)
	}
	return s
}

// OncePerRequest names the parts of BytesPerRequest that the hand-off
// moves once per request whatever the prompt's length — a hybrid's state
// (StateBytesPerRequest) and DeepSeek-V4's windowed pages
// (WindowBytesPerRequest) — so that the per-token figure × the tokens plus
// these make the request's bytes; "" when there are none. The report's
// per-request line reads it.
func (t Transfer) OncePerRequest() string {
	var once []string
	if t.StateBytesPerRequest > 0 {
		once = append(once, fmt.Sprintf("%.1f MB of state", t.StateBytesPerRequest/1e6))
	}
	if t.WindowBytesPerRequest > 0 {
		once = append(once, fmt.Sprintf("%.1f MB of sliding-window pages", t.WindowBytesPerRequest/1e6))
	}
	if len(once) == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s once, the rest per token)", strings.Join(once, " + "))
}
