package vllm

// Multi-node NVLink (MNNVL: the compute trays of a GB200/GB300 NVL72 rack
// sharing one NVLink fabric): what vLLM, NCCL and DeepEP do on it, and the
// environment a bundle sets for it.

const (
	// srcPR27328: vLLM PR #27328 "[Distributed] Basic set of configuration
	// for large EP deployment on GB200" (opened 2025-10-22, merged as
	// d95d0f4b, 2025-10-24; listed in the vllm-project/vllm weekly summary of
	// 2025-10-31): VLLM_DEEPEP_LOW_LATENCY_ALLOW_NVLINK,
	// VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL and
	// VLLM_DEEPEP_HIGH_THROUGHPUT_FORCE_INTRA_NODE in vllm/envs.py, read in
	// vllm/distributed/device_communicators/all2all.py. Its description:
	// FORCE_INTRA_NODE "requires a special DeepEP fork that supports MNNVL
	// for intra-node kernel". v0.11.0 (2025-10-02) predates it, so 0.11.1
	// is the first release that can have the variables; no release-pinned
	// copy of envs.py was read (unknown before 0.11.1).
	srcPR27328 = "vllm PR #27328 (merged 2025-10-24, after v0.11.0): vllm/envs.py + device_communicators/all2all.py; first release 0.11.1 inferred, not read from a tag"
	// srcPR27750: PR #27750 "[Refactor] Remove
	// VLLM_DEEPEP_LOW_LATENCY_ALLOW_NVLINK" merged in the same week
	// (weekly summary of 2025-10-31; PR #27677 had first flipped its default
	// back to DeepEP's own, NVLink allowed): the variable most likely never
	// reached a release, so vlaunch never writes it.
	srcPR27750 = "vllm PRs #27677 and #27750 (week of 2025-10-31): ALLOW_NVLINK defaulted back to DeepEP's (NVLink allowed), then removed"
	// srcDeepEPNormalMNNVL: DeepEP issue #392 (2025-09-05, maintainer): "the
	// current normal kernels limits the number of GPUs per node to 8, the
	// normal mode doesn't support GB200 yet" — low-latency kernels do;
	// issue #579 (2026-02) still reports normal mode failing on NVL72 with
	// the public code. vLLM's DeepEPHTAll2AllManager (all2all.py) sizes RDMA
	// buffers for an internode group unless FORCE_INTRA_NODE is set.
	srcDeepEPNormalMNNVL = "deepseek-ai/DeepEP issues #392 and #579 (normal kernels: at most 8 NVLink peers; no GB200 NVL72 support in the public code); " +
		"vllm device_communicators/all2all.py DeepEPHTAll2AllManager (internode RDMA buffers unless VLLM_DEEPEP_HIGH_THROUGHPUT_FORCE_INTRA_NODE)"
	// srcNCCLMNNVL: NVIDIA/nccl src/init.cc: NCCL_PARAM(MNNVLEnable,
	// "MNNVL_ENABLE", 2) (2: use MNNVL when the fabric supports it) and
	// checkMNNVL: "MNNVL requires cuMem to be enabled" (ncclCuMemEnable,
	// NCCL_CUMEM_ENABLE), then FABRIC handle support (IMEX). NVIDIA's MNNVL
	// tuning guide (docs.nvidia.com/multi-node-nvlink-systems/multi-node-tuning-guide/nccl.html):
	// "GB200 MNNVL is supported in NCCL version 2.25.2 and later".
	srcNCCLMNNVL = "NVIDIA/nccl src/init.cc (NCCL_PARAM(MNNVLEnable, \"MNNVL_ENABLE\", 2); checkMNNVL: \"MNNVL requires cuMem to be enabled\", then FABRIC handles); " +
		"docs.nvidia.com/multi-node-nvlink-systems/multi-node-tuning-guide/nccl.html (GB200 MNNVL from NCCL 2.25.2)"
)

// MNNVLEnv is one variable a bundle sets on a multi-node NVLink domain,
// with why and where that is documented.
type MNNVLEnv struct {
	Name, Value, Why, Source string
}

// MNNVLEnv is the environment an engine spanning the trays of one NVLink
// domain needs, for backend (the all-to-all backend in effect, "" for
// none). NCCL finds MNNVL by itself (NCCL_MNNVL_ENABLE's default, 2, uses
// it where the fabric allows) but only with cuMem buffers; both are set
// to 1 so that a tray whose IMEX channel or fabric is missing fails at
// start-up instead of falling back to the NICs at a fraction of the
// speed. DeepEP's low-latency kernels reach peers on other trays over
// NVLink only with VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL (releases that have
// it). FORCE_INTRA_NODE is never written: it needs a DeepEP fork.
func (r Release) MNNVLEnv(backend string) []MNNVLEnv {
	out := []MNNVLEnv{
		{Name: "NCCL_CUMEM_ENABLE", Value: "1", Why: "NCCL uses multi-node NVLink only with cuMem buffers", Source: srcNCCLMNNVL},
		{Name: "NCCL_MNNVL_ENABLE", Value: "1", Why: "multi-node NVLink, or fail at start-up (default 2 falls back to the NICs silently)", Source: srcNCCLMNNVL},
	}
	if backend == BackendDeepEPLowLatency {
		if e, ok := r.Env(EnvDeepEPLLMNNVL); ok {
			out = append(out, MNNVLEnv{Name: e.Name, Value: "1", Why: "DeepEP low-latency kernels reach the other trays over NVLink", Source: e.Source})
		}
	}
	return out
}

// EnvDeepEPLLMNNVL lets DeepEP's low-latency kernels use multi-node
// NVLink (vllm/envs.py: "Allow DeepEP to use MNNVL (multi-node nvlink) for
// internode_ll kernel, turn this for better latency on GB200 like system").
const EnvDeepEPLLMNNVL = "VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL"

// A2AOverMNNVL reports whether the all-to-all of backend crosses the trays
// of one NVLink domain over NVLink, and why. NCCL-based gathers ride
// NCCL's MNNVL; DeepEP low-latency kernels do with
// VLLM_DEEPEP_LOW_LATENCY_USE_MNNVL (MNNVLEnv sets it); FlashInfer's
// all2allv and NVLink one/two-sided kernels are built for MNNVL
// (vllm-facts.md: "Multi-node NVLink (MNNVL) systems such as GB200
// NVL72"). DeepEP's normal (high-throughput) kernels do not: their public
// code reaches at most 8 NVLink peers, so between trays they copy over
// RDMA (the NICs).
func A2AOverMNNVL(backend string) (bool, string) {
	switch backend {
	case BackendDeepEPHighThroughput:
		return false, srcDeepEPNormalMNNVL
	case BackendDeepEPLowLatency:
		return true, srcPR27328
	}
	return true, srcNCCLMNNVL
}

// srcCuMemOverride: vLLM set NCCL_CUMEM_ENABLE=0 itself at import
// (vllm/env_override.py, vllm/__init__.py in older trees; "see
// https://github.com/NVIDIA/nccl/issues/1234", cuMem buffers cost memory
// with CUDA graphs), which NCCL reads before it looks for multi-node
// NVLink. PR #16992 "[misc] tune some env vars for GB200" (2025-04-22,
// merged before v0.9.0 was cut): "When NCCL_CUMEM_ENABLE=0 is set, NCCL
// will use TCP or IB for cross-node communication, and multi-node NVLink
// will be disabled", so env_override.py skips the override where
// /dev/nvidia-caps-imex-channels exists; PR #19105 (2025-06) keeps any
// value set explicitly ("NCCL_CUMEM_ENABLE is set to %s, skipping
// override"); PR #24141 removed the override (per NovaSky-AI/SkyRL PR
// #1600). Whether 0.8.5 (released days after #16992 merged) carries it was
// not read.
const srcCuMemOverride = "vllm PR #16992 (vllm/env_override.py: keep cuMem where /dev/nvidia-caps-imex-channels exists; merged 2025-04, before 0.9.0), " +
	"PR #19105 (2025-06: an explicit NCCL_CUMEM_ENABLE is kept), PR #24141 (override removed, per NovaSky-AI/SkyRL #1600); " +
	"before: env_override.py sets NCCL_CUMEM_ENABLE=0 unconditionally (NVIDIA/nccl#1234); 0.8.5 not read"

// CuMemForcedOff reports whether release r turns NCCL's cuMem buffers off
// itself (NCCL_CUMEM_ENABLE=0) whatever the bundle exports, which switches
// NCCL's multi-node NVLink off (srcNCCLMNNVL: "MNNVL requires cuMem"):
// Present before 0.8.5, Maybe at 0.8.5, Absent from 0.9.0 on a node whose
// IMEX channels are visible to vLLM (the bundle's claim or its own channel
// 0; from PR #19105 an explicit 1 is kept in any case).
func (r Release) CuMemForcedOff() (Presence, string) {
	switch {
	case r.Version.Less(v085):
		return Present, srcCuMemOverride
	case r.Version.Less(v090):
		return Maybe, srcCuMemOverride
	}
	return Absent, srcCuMemOverride
}
