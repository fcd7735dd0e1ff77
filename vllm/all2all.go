package vllm

// Backend is one MoE all-to-all backend.
type Backend struct {
	Name string
	// Span is when vLLM accepts the name.
	Span
	// FallsBackSince is the release from which vLLM still accepts the name
	// but logs "has been removed" and uses allgather_reducescatter.
	FallsBackSince Version
	// DeepEP backends need NVSHMEM with IBGDA across nodes.
	DeepEP bool
	// MultiNodeOK is false for backends meant for one node or one NVLink domain.
	MultiNodeOK bool
	Doc         string
	Verified    bool
	Source      string
}

// CUDAOnly reports whether the backend's kernels run on NVIDIA GPUs only:
// DeepEP's and pplx-kernels' all-to-all are built on NVSHMEM, NVIDIA's
// GPU-initiated communication library (srcImageKernels: the image installs
// NVSHMEM with DeepEP), which has no ROCm build; AMD GPUs run the NCCL
// (RCCL) based backends or MoRI. Neither `all2all_backend: auto` nor plan
// picks such a backend on AMD GPUs.
func (b Backend) CUDAOnly() bool {
	return b.DeepEP || b.Name == BackendPPLX
}

// Backend names the generator picks between.
const (
	BackendAllgatherReducescatter = "allgather_reducescatter"
	BackendDeepEPLowLatency       = "deepep_low_latency"
	BackendDeepEPHighThroughput   = "deepep_high_throughput"
	BackendNaive                  = "naive"
	BackendPPLX                   = "pplx"
	// BackendNixlEP is NIXL's EP kernels (from 0.17.0, all2allTable).
	BackendNixlEP = "nixl_ep"
)

const (
	srcA2A     = "vllm-facts.md §2.4 (vllm/config/parallel.py, EP docs)"
	srcEnvDocs = "docs.vllm.ai/en/v0.11.0/api/vllm/envs (VLLM_ALL2ALL_BACKEND Literal choices)"
	// srcA2ARemoved: PRs #33724 (pplx) and #33728 (naive, 2026-02-03) made
	// both names fall back to allgather_reducescatter; they landed next to
	// PR #33535, which the 0.16.0 envs page already reflects.
	srcA2ARemoved = "PRs #33724 and #33728 (Feb 2026): fall back to allgather_reducescatter; first release assumed 0.16.0 (next to PR #33535, reflected in docs.vllm.ai/en/v0.16.0/api/vllm/envs), unverified"
	// srcA2ANew: absent from 0.14.0's All2AllBackend Literal, present in the
	// 0.22.1 argparse dump.
	srcA2ANew = srcPar014 + " lacks it; present in " + srcDump + "; first release 0.15-0.22 unverified"
	// srcA2AAfter0221: names absent from the 0.22.1 argparse dump, so 0.23.0
	// is the earliest release that may have them.
	srcA2AAfter0221 = "absent from " + srcDump
	// srcDeepEPv2: DeepEP V2 (ElasticBuffer, NCCL symmetric memory instead of
	// NVSHMEM) merged upstream 2026-04-29; vLLM's DeepEPv2 tests stood in PR
	// #45321 by June 2026; PR #46887 (open) would redirect
	// deepep_high_throughput to it "to reduce vLLM's dependency on NVSHMEM"
	// and drop the CUDA-graph disable block, which names
	// deepep_high_throughput only; prime-rl PR #3498 (2026-09-07) patches
	// vLLM 0.28.0's deepep_v2 path (third-party: the first release with it
	// is 0.23-0.28, unverified).
	srcDeepEPv2 = srcA2AAfter0221 + "; deepseek-ai/DeepEP #605 (V2, merged 2026-04-29, per sgl-project/sglang PR #24443); " +
		"PR #45321 (DeepEPv2 tests, June 2026); PR #46887 (open, 2026-06-27: redirect deepep_high_throughput to deepep_v2, " +
		"less NVSHMEM, remove the CUDA-graph disable block of deepep_high_throughput); " +
		"PrimeIntellect-ai/prime-rl PR #3498 (2026-09-07: a compatibility patch for vLLM 0.28.0's deepep_v2, third-party); " +
		"first release 0.23-0.28 unverified"
)

// srcMoriSplitRelease: the releases of MoRI-EP's split into two names.
// Issue #23 (an audit of vllm/'s facts against release sources) found
// mori_high_throughput and mori_low_latency accepted at 0.26.0 and 0.29.0
// and --all2all-backend mori gone by 0.26.0; this session could not re-read
// those tags (no release-pinned copy of vllm/config/parallel.py was
// reachable), so that part is secondary. Public material agrees on the
// split without naming a release: llm-d's AMD MoRI-IO guides pass
// --all2all-backend mori_high_throughput (prefill) / mori_low_latency
// (decode) and say "the legacy single-name mori backend was split
// upstream; do not use it"; PR #41751 (merged after 2026-05-12) still
// picked the inter-node kernel through VLLM_MORI_INTERNODE_KERNEL, and the
// 0.22.1 dump lists mori only, so the split is after 0.22.1.
const srcMoriSplitRelease = "issue #23 (audit of release sources: mori_high_throughput/mori_low_latency accepted at 0.26.0 and 0.29.0, mori gone by 0.26.0; " +
	"secondary, the tags were not re-read here); llm-d guides/pd-disaggregation/modelserver/amd/vllm/moriio README " +
	"(\"the legacy single-name mori backend was split upstream\"); PR #41751 (after 2026-05-12: one mori backend, kernel by VLLM_MORI_INTERNODE_KERNEL); " +
	"the 0.22.1 dump lists mori only; first release of the split (0.23-0.26) unverified"

// srcA2AFlagTags: --all2all-backend's choices (ParallelConfig All2AllBackend
// Literal) at every tag v0.11.1-v0.24.0 (tools/flagspans/choices.py).
var srcA2AFlagTags = srcTagRead("v0.11.1-v0.24.0 (--all2all-backend choices: mori from v0.15.0; flashinfer_nvlink_one_sided, "+
	"flashinfer_nvlink_two_sided, nixl_ep from v0.18.0 (absent at v0.17.1); mori replaced by mori_high_throughput, mori_low_latency "+
	"at v0.23.0 (mori at v0.22.1); deepep_v2 from v0.24.0 (absent at v0.23.0))", "vllm/config/parallel.py")

var backendTable = []Backend{
	{Name: BackendNaive, Span: Span{Since: v090}, FallsBackSince: v0160, MultiNodeOK: false,
		Doc:    "broadcast-based, debugging only; hangs reported multi-node (#23448); the default up to 0.10.x",
		Source: srcEnv0901 + " (default naive); " + srcA2A0901 + "; " + srcEnv0110 + "; 0.8.x not read; fallback: " + srcA2ARemoved},
	{Name: BackendPPLX, Span: Span{Since: v090, Confirmed: v0110}, FallsBackSince: v0160, MultiNodeOK: false,
		Doc:    "pplx-kernels, single node; removed by PR #33724 (Feb 2026)",
		Source: srcEnv0110 + " (listed); 0.9.x-0.10.x not seen (the 0.9.0.1/0.10.1.1 envs pages type it as str); fallback: " + srcA2ARemoved},
	{Name: BackendDeepEPHighThroughput, Span: Span{Since: v091, Confirmed: v092}, DeepEP: true, MultiNodeOK: true,
		Doc:    "DeepEP normal kernels: multi-node prefill-heavy; not CUDA-graph compatible",
		Source: srcA2A092 + "; " + srcEnv0110 + "; absent from " + srcA2A0901 + "; 0.9.1 unverified"},
	{Name: BackendDeepEPLowLatency, Span: Span{Since: v091, Confirmed: v092}, DeepEP: true, MultiNodeOK: true,
		Doc:    "DeepEP low-latency kernels: multi-node decode-heavy; CUDA-graph friendly",
		Source: srcA2A092 + "; " + srcEnv0110 + "; " + srcEPDocs + "; absent from " + srcA2A0901 + "; 0.9.1 unverified"},
	{Name: BackendAllgatherReducescatter, Span: Span{Since: v0110}, MultiNodeOK: true,
		Doc: "all-gather + reduce-scatter over NCCL; works everywhere; the default from 0.11.0 (0.10.x raises \"Unknown all2all backend\")", Verified: true,
		Source: srcPR23964 + "; " + srcEnv01011 + "; " + srcA2A0110 + "; " + srcEnv0110},
	{Name: "flashinfer_all2allv", Span: Span{Since: v0100, Confirmed: v0110}, MultiNodeOK: true,
		Doc:    "multi-node NVLink (GB200 NVL72)",
		Source: srcEnvDocs + "; PR #21003 opened 2025-07-15, so 0.10.x may have it (unverified)"},
	{Name: "flashinfer_nvlink_one_sided", Span: Span{Since: v0180}, MultiNodeOK: true, Doc: "MNNVL one-sided",
		Verified: true, Source: srcA2AFlagTags + "; " + srcFAA2A016 + "; present in " + srcDump + "; also in docs.vllm.ai/en/v0.20.2/api/vllm/model_executor/layers/fused_moe/config"},
	{Name: "flashinfer_nvlink_two_sided", Span: Span{Since: v0180}, MultiNodeOK: true, Doc: "MNNVL two-sided",
		Verified: true, Source: srcA2AFlagTags + "; " + srcFAA2A016 + "; present in " + srcDump + "; also in docs.vllm.ai/en/v0.20.2/api/vllm/model_executor/layers/fused_moe/config"},
	{Name: "mori", Span: Span{Since: v0150, Removed: v0230}, MultiNodeOK: true,
		Doc:      "AMD ROCm (MoRI-EP); replaced by mori_high_throughput and mori_low_latency in 0.23.0",
		Verified: true, Source: srcA2AFlagTags + "; " + srcAll2AllEnvTags + " (0.15.0 adds mori); " + srcA2ANew + "; " + srcFAA2A016 + "; PR #28664 (MoRI-EP backend, opened 2025-11-13, merged 2026-01-22); absent from main's All2AllBackend Literal " +
			"(vllm/config/parallel.py @00193b82); " + srcMoriSplitRelease},
	// Since 0.23.0, pinned by the tags (choices45: v0.22.1 lacks it, v0.23.0 has it).
	{Name: "mori_high_throughput", Span: Span{Since: v0230}, MultiNodeOK: true,
		Doc:      "AMD ROCm MoRI-EP, throughput kernels (InterNodeV1 across nodes): prefill-heavy; replaces mori",
		Verified: true, Source: srcA2AFlagTags + "; " + srcA2AAfter0221 + "; " + srcMoriSplitRelease},
	{Name: "mori_low_latency", Span: Span{Since: v0230}, MultiNodeOK: true,
		Doc:      "AMD ROCm MoRI-EP, low-latency kernels (InterNodeV1LL across nodes): decode-heavy; replaces mori",
		Verified: true, Source: srcA2AFlagTags + "; " + srcA2AAfter0221 + "; " + srcMoriSplitRelease},
	{Name: "nixl_ep", Span: Span{Since: v0180}, MultiNodeOK: true, Doc: "NIXL-based EP", Verified: true, Source: srcA2AFlagTags + "; " + srcFAA2A016 + "; present in " + srcDump},
	// DeepEP is false: V2 runs over NCCL symmetric memory, not NVSHMEM, so
	// the NVSHMEM/IBGDA prerequisites of the deepep_* backends are not its.
	{Name: "deepep_v2", Span: Span{Since: v0240}, MultiNodeOK: true,
		Doc: "DeepEP V2 (ElasticBuffer over NCCL symmetric memory); meant to supersede deepep_high_throughput", Verified: true, Source: srcA2AFlagTags + "; " + srcDeepEPv2},
}

// All2AllBackends lists the backend names the release accepts.
func (r Release) All2AllBackends() []string {
	var out []string
	for _, b := range backendTable {
		if b.Contains(r.Version) {
			out = append(out, b.Name)
		}
	}
	return out
}

// All2AllBackend looks a backend up in this release.
func (r Release) All2AllBackend(name string) (*Backend, bool) {
	for i := range backendTable {
		if backendTable[i].Name == name && backendTable[i].Contains(r.Version) {
			return &backendTable[i], true
		}
	}
	return nil, false
}

// KnownBackendEver finds a backend in any release.
func KnownBackendEver(name string) (*Backend, bool) {
	for i := range backendTable {
		if backendTable[i].Name == name {
			return &backendTable[i], true
		}
	}
	return nil, false
}

// FallsBack reports whether vLLM accepts the name in r but silently uses
// allgather_reducescatter instead.
func (b *Backend) FallsBack(r Release) bool {
	return !b.FallsBackSince.IsZero() && r.Version.AtLeast(b.FallsBackSince)
}

// Mechanism is how a release selects the all-to-all backend.
type Mechanism int

// Mechanisms.
const (
	// ViaEnv: VLLM_ALL2ALL_BACKEND (0.9.0 - 0.11.0).
	ViaEnv Mechanism = iota + 1
	// ViaFlag: --all2all-backend (0.11.1 and later).
	ViaFlag
)

// String names the mechanism.
func (m Mechanism) String() string {
	if m == ViaFlag {
		return "--all2all-backend"
	}
	return "VLLM_ALL2ALL_BACKEND"
}

// All2AllVia says how to select the backend in this release: the flag
// from 0.11.1 (PR #26732), the environment variable before.
func (r Release) All2AllVia() Mechanism {
	if _, ok := r.Flag("all2all-backend"); ok {
		return ViaFlag
	}
	return ViaEnv
}
