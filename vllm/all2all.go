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

// Backend names the generator picks between.
const (
	BackendAllgatherReducescatter = "allgather_reducescatter"
	BackendDeepEPLowLatency       = "deepep_low_latency"
	BackendDeepEPHighThroughput   = "deepep_high_throughput"
	BackendNaive                  = "naive"
	BackendPPLX                   = "pplx"
)

const (
	srcA2A     = "vllm-facts.md §2.4 (vllm/config/parallel.py, EP docs)"
	srcEnvDocs = "docs.vllm.ai/en/v0.11.0/api/vllm/envs (VLLM_ALL2ALL_BACKEND Literal choices)"
)

var backendTable = []Backend{
	{Name: BackendNaive, Span: Span{Since: v090}, FallsBackSince: v0160, MultiNodeOK: false,
		Doc: "broadcast-based, debugging only; hangs reported multi-node (#23448)", Source: srcA2A + "; fallback release unverified"},
	{Name: BackendPPLX, Span: Span{Since: v090}, FallsBackSince: v0160, MultiNodeOK: false,
		Doc: "pplx-kernels, single node; removed by PR #33724 (Feb 2026)", Source: srcA2A + "; fallback release assumed 0.16.0"},
	{Name: BackendDeepEPHighThroughput, Span: Span{Since: v090}, DeepEP: true, MultiNodeOK: true,
		Doc: "DeepEP normal kernels: multi-node prefill-heavy; not CUDA-graph compatible", Source: srcA2A},
	{Name: BackendDeepEPLowLatency, Span: Span{Since: v090}, DeepEP: true, MultiNodeOK: true,
		Doc: "DeepEP low-latency kernels: multi-node decode-heavy; CUDA-graph friendly", Verified: true, Source: srcEPDocs},
	{Name: BackendAllgatherReducescatter, Span: Span{Since: v0100}, MultiNodeOK: true,
		Doc: "all-gather + reduce-scatter over NCCL; works everywhere (default from 0.10.2, PR #23964)", Source: srcA2A + "; first release unverified"},
	{Name: "flashinfer_all2allv", Span: Span{Since: v0110}, MultiNodeOK: true,
		Doc: "multi-node NVLink (GB200 NVL72)", Verified: true, Source: srcEnvDocs},
	{Name: "flashinfer_nvlink_one_sided", Span: Span{Since: v0220}, MultiNodeOK: true, Doc: "MNNVL one-sided", Source: srcDump},
	{Name: "flashinfer_nvlink_two_sided", Span: Span{Since: v0220}, MultiNodeOK: true, Doc: "MNNVL two-sided", Source: srcDump},
	{Name: "mori", Span: Span{Since: v0220}, MultiNodeOK: true, Doc: "AMD ROCm", Source: srcDump},
	{Name: "nixl_ep", Span: Span{Since: v0220}, MultiNodeOK: true, Doc: "NIXL-based EP", Source: srcDump},
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
