package vllm

import (
	"fmt"
	"strings"
)

// Prefill/decode (P/D) facts of the NIXL connector that lint (VL22x) and
// validate (the disaggregation rules) both ask, so that each lives here once.
// Sources: the research note pdResearch (§1.5 side channel, §1.6 timeline,
// §1.8 compatibility), which cites vLLM's pull requests; vLLM's
// docs/features/nixl_connector_usage.md (vllm@026c83f9).

// NIXL side-channel variables: the address a prefill engine advertises to
// decoders in kv_transfer_params (vLLM's default "localhost"), and the
// handshake base port.
const (
	NixlSideChannelHostEnv = "VLLM_NIXL_SIDE_CHANNEL_HOST"
	NixlSideChannelPortEnv = "VLLM_NIXL_SIDE_CHANNEL_PORT"
)

// The kv_role values KVTransferConfig accepts
// (vllm@9dc49464:vllm/config/kv_transfer.py, KVRole): a prefill engine
// produces KV, a decode engine consumes it, kv_both does either (NIXL's
// proxies decide per request, so its role is "effectively a placeholder",
// docs/features/nixl_connector_usage.md @026c83f9).
const (
	KVRoleProducer = "kv_producer"
	KVRoleConsumer = "kv_consumer"
	KVRoleBoth     = "kv_both"
)

// KVRoles lists the kv_role values in the order vLLM's KVRole names them.
var KVRoles = []string{KVRoleProducer, KVRoleConsumer, KVRoleBoth}

// NixlConnectorName is the NIXL connector's registry name.
const NixlConnectorName = "NixlConnector"

// IsNixl reports a NIXL connector name (NixlConnector and its pull/push
// successors all start so).
func IsNixl(name string) bool { return strings.HasPrefix(name, "Nixl") }

// nixlPortMoved is the first release with the side-channel base port 5600:
// #25056 moved it from 5557 (which kv-events' ZMQ publisher also defaults
// to), first in v0.11.1 per llm-d/llm-d#668.
var nixlPortMoved = v0111

// NixlSideChannelDefaultPort is the release's default side-channel base port.
func NixlSideChannelDefaultPort(v Version) int {
	if v.Less(nixlPortMoved) {
		return 5557
	}
	return 5600
}

// nixlPortPerDP is the first release whose handshake listener is one per DP
// engine (port = base + global DP rank, #26338, merged 2025-11-01); before
// it, one per worker (base + dp_rank·TP + tp_rank, #19008).
var nixlPortPerDP = v0120

// NixlSidePorts are the side-channel ports the NIXL engines of one host
// listen on: the host runs dpLocal DP engines starting at global DP rank
// dpStart, each of tp workers, with base port base.
func NixlSidePorts(v Version, base, dpStart, dpLocal, tp int) []int {
	var ports []int
	perDP := !v.Less(nixlPortPerDP)
	for i := 0; i < dpLocal; i++ {
		r := dpStart + i
		if perDP {
			ports = append(ports, base+r)
			continue
		}
		for t := 0; t < tp; t++ {
			ports = append(ports, base+r*tp+t)
		}
	}
	return ports
}

// nixlTPPairing is the first release where NIXL pairs a prefill TP larger
// than the decode TP: #27274 (merged 2025-12-18). Read at the tags
// (kzwrime/vllm snapshot of vllm-project/vllm): v0.13.0's
// vllm/distributed/kv_transfer/kv_connector/utils.py TpKVTopology.tp_ratio
// asserts "Local tensor parallel size … is not divisible by remote tensor
// parallel size" whenever the decode (local) TP is below the prefill's, and
// nixl_connector.py asserts "Decode TP cannot be smaller than prefill TP";
// v0.14.0's tp_ratio returns a negative ratio for "P TP > D TP" and
// nixl_connector.py keeps src_xfer_handles_by_tp_ratio. So the first release
// is 0.14.0, certain (no 0.13.x patch tag exists). Before it
// `p_remote_rank = self.tp_rank // tp_ratio` divided by zero (vLLM #21576).
var (
	nixlTPPairing        = v0140
	nixlTPPairingCertain = v0140
)

// TPPairing is what a release does with a prefill TP and a decode TP.
type TPPairing struct {
	// Pairs: Present the release pairs them; Absent it fails for certain;
	// Maybe it fails unless the release has a change whose first release
	// is inferred.
	Pairs Presence
	// NotDivisible: neither size divides the other (NIXL asserts it: "is
	// not divisible by remote tensor parallel size").
	NotDivisible bool
	// PrefillLarger: prefill TP above decode TP before #27274.
	PrefillLarger bool
}

// NixlTPPairing says whether NIXL in release v pairs prefill TP p with
// decode TP d (research §1.8: D TP > P TP since #18833, v0.9.1; P TP > D
// TP since #27274).
func NixlTPPairing(v Version, p, d int) TPPairing {
	if p <= 0 || d <= 0 || p == d {
		return TPPairing{Pairs: Present}
	}
	if max(p, d)%min(p, d) != 0 {
		return TPPairing{Pairs: Absent, NotDivisible: true}
	}
	if p > d && v.Less(nixlTPPairing) {
		if v.Less(nixlTPPairingCertain) {
			return TPPairing{Pairs: Absent, PrefillLarger: true}
		}
		return TPPairing{Pairs: Maybe, PrefillLarger: true}
	}
	return TPPairing{Pairs: Present}
}

// nixlTPRatioAsserts is the first release whose NIXL checks the TP ratio
// before dividing by it: v0.11.1's nixl_connector.py TpKVTopology.tp_ratio
// asserts "Local tensor parallel size … is not divisible by remote tensor
// parallel size"; v0.11.0's computes `tp_ratio = self._tp_size[...] //
// remote_tp_size` and divides by it (read at the tags, kzwrime/vllm).
var nixlTPRatioAsserts = v0111

// NixlPrefillLargerFailure says how release v's NIXL fails when the prefill
// TP p is above the decode TP d (before #27274): a ZeroDivisionError at the
// handshake up to 0.11.0, an assertion from 0.11.1.
func NixlPrefillLargerFailure(v Version, p, d int) string {
	if v.Less(nixlTPRatioAsserts) {
		return "divides by zero at the handshake (p_remote_rank = tp_rank // tp_ratio, vLLM #21576)"
	}
	return fmt.Sprintf("fails its assertion at the handshake (\"Local tensor parallel size %d is not divisible by remote tensor parallel size %d\", TpKVTopology.tp_ratio)", d, p)
}

// NixlTPPairingFix names the change that lifts PrefillLarger, for hints.
const NixlTPPairingFix = "#27274 (0.14.0)"

// nixlBlockHetero is the first release whose NIXL transfers between
// different block sizes (#26759, merged 2025-11-14): a prefill block smaller
// than the decode block, which it divides. Read at the tags: v0.11.1's
// vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py has it
// (register_local_xfer_handler registers the local cache a second time in
// remote-block-sized descriptors, _read_blocks maps each local block to
// block_size_ratio remote ones with get_mapped_blocks, and get_finished
// re-lays the received blocks with blocksize_post_process); v0.11.0's file
// has none of it and asserts "Remote P worker with different page/block
// size is not supported". So the first release is 0.11.1, certain.
var (
	nixlBlockHetero        = v0111
	nixlBlockHeteroCertain = v0111
)

// NixlBlockSizes says whether NIXL in release v transfers between prefill
// block size p and decode block size d: equal sizes always; otherwise p
// below d and dividing it, from #26759 (research §1.8).
func NixlBlockSizes(v Version, p, d int) Presence {
	switch {
	case p == d || p <= 0 || d <= 0:
		return Present
	case p > d || d%p != 0:
		return Absent
	case v.Less(nixlBlockHetero):
		return Absent
	case v.Less(nixlBlockHeteroCertain):
		return Maybe
	}
	return Present
}

// NixlBlockHeteroFrom is the first release whose NIXL transfers between
// different block sizes (nixlBlockHetero), for messages.
func NixlBlockHeteroFrom() string { return nixlBlockHetero.String() }

// KVConnectorNamed finds a connector by its registry name or a short form
// a spec may use: case-insensitive, with or without the "Connector" suffix
// ("nixl" is NixlConnector).
func KVConnectorNamed(name string) (Connector, bool) {
	if c, ok := KVConnector(name); ok {
		return c, true
	}
	want := strings.TrimSuffix(strings.ToLower(name), "connector")
	for _, c := range connectorTable {
		if strings.TrimSuffix(strings.ToLower(c.Name), "connector") == want {
			return c, true
		}
	}
	return Connector{}, false
}

// NixlSidePortRule words the release's side-channel port formula for
// comments and READMEs (see NixlSidePorts).
func NixlSidePortRule(v Version) string {
	if v.Less(nixlPortPerDP) {
		return "base + DP rank × TP + TP rank, one port per worker"
	}
	return "base + DP rank, one port per DP engine"
}

// hybridKVKept is the first release whose KV connectors leave the hybrid
// KV cache manager on: #41847 (merged 2026-05-06, ≈0.21/0.22, inferred)
// stopped vLLM from turning it off whenever --kv-transfer-config is set
// ("Turning off hybrid kv cache manager because `--kv-transfer-config` is
// set"); NIXL can transfer hybrid caches since #35758 (2026-03-06). With
// the manager off, sliding-window layers cache the whole context like full
// attention: more KV memory per token (vLLM #41830). Releases before 0.21
// predate the merge for certain. Research note pdResearch §1.6/§1.8.
var (
	hybridKVKept        = v0220
	hybridKVKeptCertain = v0210
)

// HybridKVWithConnector is whether release v keeps the hybrid KV cache
// manager on for an engine with a KV connector: Absent (off for certain),
// Maybe (the release that keeps it is inferred), Present.
func HybridKVWithConnector(v Version) Presence {
	switch {
	case v.Less(hybridKVKeptCertain):
		return Absent
	case v.Less(hybridKVKept):
		return Maybe
	}
	return Present
}

// HybridKVFix names the change that keeps the manager on, for hints.
const HybridKVFix = "#41847 (≈0.22)"

// The message KVTransferConfig raises for a kv_connector given without a
// kv_role. PR #10502 (0590ec3fd, merged 2024-12-01, the first
// KVTransferConfig) wrote it as "Please specify kv_disagg_role when
// kv_connector is set, supported roles are `kv_producer`, `kv_consumer`,
// and `kv_both`" (model_post_init in vllm/config.py), read unchanged at the
// v0.6.6.post1 (2339d59f9), v0.7.2 (0408efc6d), v0.7.3 (ed6e9075d) and
// v0.8.4 (dc1b4a6f1) tags (fork snapshot tensorflowt/vllm-0.8.5) and, with
// the roles as a tuple, at the v0.11.0 tag (b8b302cde434,
// vllm/config/kv_transfer.py __post_init__). PR #27166 ("Fix typo in
// ValueError message: use `kv_role` instead of `kv_disagg_role`", commit
// 8a81d776c, merged 2025-10-19, after v0.11.0) renamed it to "Please specify
// kv_role when kv_connector is set"; its first release, 0.11.1, is inferred
// from the merge date, not read at a tag. 0.6.5 has the older wording if it
// has the flag at all (the flag itself is unverified there).
const (
	kvRoleMissingOld = "Please specify kv_disagg_role when kv_connector is set"
	kvRoleMissingNew = "Please specify kv_role when kv_connector is set"
	srcKVRoleMissing = "vllm PR #10502 (0590ec3fd) KVTransferConfig: \"" + kvRoleMissingOld + "\" at the v0.6.6.post1, v0.7.2, v0.7.3, v0.8.4 and v0.11.0 tags; " +
		"PR #27166 (8a81d776c, merged 2025-10-19): \"" + kvRoleMissingNew + "\", first release 0.11.1 inferred from the merge date"
)

// kvRoleMessageSpan is the span of the renamed message (PR #27166).
var kvRoleMessageSpan = Span{Since: v0111}

// KVRoleMissingMessage is the start-up error release v raises for a
// kv_connector without a kv_role, and whether a tag read confirms that
// wording for v (false for 0.11.1, whose wording follows from the merge
// date of PR #27166 only, and for 0.6.5, where the flag is unverified).
func KVRoleMissingMessage(v Version) (msg string, sure bool) {
	if kvRoleMessageSpan.Contains(v) {
		return kvRoleMissingNew, v.Major != 0 || v.Minor != 11 || v.Patch != 1
	}
	return kvRoleMissingOld, v.AtLeast(v066)
}

// KVRoleMissingSource cites KVRoleMissingMessage.
func KVRoleMissingSource() string { return srcKVRoleMissing }
