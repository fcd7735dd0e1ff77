package vllm

import "fmt"

// MooncakeConnector's heterogeneous tensor parallelism (a prefill TP other
// than the decode TP), read at the tags of the vLLM mirror:
//
//   - v0.13.0-v0.15.1 (v1/mooncake_connector.py, l.857 at v0.13.0, l.850
//     at v0.14.0 and v0.15.x): a decode worker connects to the prefill
//     engine's side-channel port + its own tp_rank, so it pairs only equal
//     sizes (a decode rank beyond the prefill TP finds no listener, and one
//     below it reads another rank's heads).
//   - v0.16.0-v0.18.1 (v1/mooncake/mooncake_connector.py,
//     resolve_need_send and receive_kv, l.821-828 and l.1151-1159 at
//     v0.16.0): both sides raise NotImplementedError("Mooncake:
//     Heterogeneous TP is not supported yet.") as soon as one rank pairs
//     with more than one rank of the other pool.
//   - from v0.19.0 (#36869, "Add heterogeneous TP support for disaggregated
//     P/D in MooncakeConnector"; absent at v0.18.1, present at v0.19.0):
//     the prefill side checks each transfer with
//     _validate_asymmetric_region_lengths (l.207-258 at v0.24.0, l.183 at
//     v0.19.0). _get_tp_ratio asserts that one size divides the other. When
//     the producer's cache is replicated (utils.py
//     local_replicates_kv_cache: MLA, or prefill TP above the KV heads) the
//     check passes; otherwise, with tp_ratio = -(decode TP / prefill TP),
//     it requires the prefill region to be |tp_ratio| decode regions. A
//     decode TP above the KV heads holds one (replicated) head per rank, so
//     that fails for every transfer: MooncakeXferResponseStatus.ERROR
//     "Mooncake source KV region length does not match the consumer TP
//     ratio".
var (
	mooncakeTPSeparate = v0160 // the first release that says so (NotImplementedError)
	mooncakeTPHetero   = v0190 // #36869
)

// The citations of each rule, for messages.
const (
	mooncakeDir          = "vllm/distributed/kv_transfer/kv_connector/v1/"
	srcMooncakeTPPort    = "vLLM v0.13.0 " + mooncakeDir + "mooncake_connector.py l.857 (remote_port + self.tp_rank)"
	srcMooncakeTPNotImpl = "vLLM v0.16.0 " + mooncakeDir + "mooncake/mooncake_connector.py resolve_need_send l.821-828, receive_kv l.1151-1159"
	srcMooncakeTPRatio   = "vLLM v0.24.0 " + mooncakeDir + "mooncake/mooncake_connector.py _get_tp_ratio l.90-108"
	srcMooncakeTPRegion  = "vLLM v0.24.0 " + mooncakeDir + "mooncake/mooncake_connector.py _validate_asymmetric_region_lengths l.207-258; " +
		"kv_connector/utils.py local_replicates_kv_cache l.566"
)

// MooncakeConnectorName is MooncakeConnector's registry name.
const MooncakeConnectorName = "MooncakeConnector"

// MooncakeTP is what MooncakeConnector in a release does with a prefill TP
// and a decode TP.
type MooncakeTP struct {
	// Pairs: Present the transfers work, Absent they fail.
	Pairs Presence
	// Why says how they fail ("" when they work).
	Why string
	// Source cites the connector's code.
	Source string
	// Hetero: the release pairs different tensor sizes at all (#36869).
	Hetero bool
}

// MooncakeTPPairing says whether MooncakeConnector in release v moves the
// KV cache from prefill TP p to decode TP d for a model with kvHeads KV
// heads (mla: one latent cache, which every rank holds whole).
func MooncakeTPPairing(v Version, p, d, kvHeads int, mla bool) MooncakeTP {
	out := MooncakeTP{Pairs: Absent, Hetero: !v.Less(mooncakeTPHetero)}
	switch {
	case p <= 0 || d <= 0 || p == d:
		return MooncakeTP{Pairs: Present, Hetero: out.Hetero}
	case v.Less(mooncakeTPSeparate):
		out.Why = fmt.Sprintf("vLLM %s's MooncakeConnector pairs only equal tensor sizes: a decode worker connects to the prefill side channel at port + its own TP rank", v)
		out.Source = srcMooncakeTPPort
	case v.Less(mooncakeTPHetero):
		out.Why = fmt.Sprintf("vLLM %s's MooncakeConnector raises NotImplementedError(\"Mooncake: Heterogeneous TP is not supported yet.\"); heterogeneous TP came with #36869 in 0.19.0", v)
		out.Source = srcMooncakeTPNotImpl
	case max(p, d)%min(p, d) != 0:
		out.Why = "neither size divides the other, and MooncakeConnector asserts it (_get_tp_ratio: \"is not divisible by remote tensor parallel size\")"
		out.Source = srcMooncakeTPRatio
	case !mla && kvHeads > 0 && d > kvHeads && p <= kvHeads:
		out.Why = fmt.Sprintf("decode TP %d is above the model's %d KV heads, so each decode rank holds one replicated head while a prefill rank holds %d; "+
			"_validate_asymmetric_region_lengths wants the prefill region to be %d decode regions and answers every transfer with "+
			"\"Mooncake source KV region length does not match the consumer TP ratio\"", d, kvHeads, kvHeads/p, d/p)
		out.Source = srcMooncakeTPRegion
	default:
		return MooncakeTP{Pairs: Present, Hetero: true}
	}
	return out
}

// MooncakeHeteroTPFrom is the first release whose MooncakeConnector pairs
// different tensor sizes (#36869), for hints.
func MooncakeHeteroTPFrom() string { return mooncakeTPHetero.String() }
