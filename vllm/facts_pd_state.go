package vllm

import "fmt"

// What a prefill/decode KV connector does with a hybrid model's per-request
// state: the Mamba-2, Gated DeltaNet or KDA layers vLLM caches in MambaSpec
// KV-cache groups (a fixed conv + recurrent state per request, not tokens).
// validate (SPEC127), the generator (the variable below) and lint (VL233)
// all ask these functions; the releases are pinned here once.

// StateLayer is a kind of layer whose per-request state a connector must
// move beside the attention KV.
type StateLayer string

// The state layers vlaunch's catalog models.
const (
	StateMamba2 StateLayer = "Mamba-2"
	StateGDN    StateLayer = "Gated DeltaNet"
	StateKDA    StateLayer = "Kimi Delta Attention"
)

// SSMConvLayoutEnv selects the conv state's layout in memory: "SD"
// (state_len, dim), vLLM's default, or "DS" (dim, state_len), which
// NixlConnector's 3-read conv transfer needs (srcSSMConvLayout).
const (
	SSMConvLayoutEnv = "VLLM_SSM_CONV_STATE_LAYOUT"
	SSMConvLayoutDS  = "DS"
)

// srcSSMConvLayout: the variable and NixlConnector's assertion.
//
//   - #37416 ("[Kernel] Mamba support different layout for Conv state",
//     commit 66e86f1db, 2026-04-03) adds VLLM_SSM_CONV_STATE_LAYOUT
//     (env_with_choices(..., None, ["SD", "DS"]) in vllm/envs.py; unset
//     is SD: mamba_utils.get_conv_state_layout).
//   - #37635 ("[NIXL][Mamba][3/N] Heterogeneous TP: 3-read conv state
//     transfer", commit bfdc0a3a9, 2026-04-06) makes NixlConnector's worker
//     assert it whenever a KV-cache group is a MambaSpec:
//     vllm/distributed/kv_transfer/kv_connector/v1/nixl_connector.py@bfdc0a3a9
//     lines 1079-1083, `assert is_conv_state_dim_first(), ("3-read Mamba
//     conv transfer requires DS conv state layout. Set
//     VLLM_SSM_CONV_STATE_LAYOUT=DS")`; on main on 2026-05-19 in
//     nixl/worker.py line 257 (github.com/local-inference-lab/vllm, a
//     snapshot of upstream main to that day).
//   - Not in 0.19.0: the v0.19.0 commit 2a69949bd (srcFA019) has neither
//     the variable in vllm/envs.py nor the assertion; both commits are
//     after it (git merge-base, github.com/jinhuang12/vllm snapshot).
//   - In 0.20.0: v0.20.0's release notes (github.com/vllm-project/vllm
//     releases/tag/v0.20.0, 2026-04-23) list "different Conv state
//     layouts (#37416)" and "Heterogeneous TP 3-read conv-state transfer
//     for NIXL + Mamba (#37635)". The 0.21.0 checkout (srcFA021) reads the
//     variable: vllm/envs.py@535947a1 (VLLM_SSM_CONV_STATE_LAYOUT:
//     Literal["SD", "DS"] | None = None), and the third-party 0.21.0 copy
//     DoraAiDreamer/vllm-0.21.0-chinese-tutorial@256a5786
//     vllm/model_executor/layers/mamba/mamba_utils.py get_conv_state_layout.
//   - 0.19.1, a patch release of 0.19.0, lacks both (read at the tag by
//     choices45: no VLLM_SSM_CONV_STATE_LAYOUT in vllm/envs.py, no
//     is_conv_state_dim_first assertion under vllm/distributed/kv_transfer);
//     the v0.20.0 tag has both (nixl/worker.py L154).
//   - Still required on 2026-08-31 (0.28.0 was out 2026-08-26): PR #54489
//     "docs: document hybrid NIXL requirements" documents
//     VLLM_SSM_CONV_STATE_LAYOUT=DS for hybrid SSM/Mamba transfers with
//     NixlConnector. No release is known to drop the assertion or to pick
//     DS itself on GPUs (issue #42882, "Make DS layout used by default",
//     closed unmerged; PR #53300 picks DS automatically on CPU only, open).
const srcSSMConvLayout = "#37416 (commit 66e86f1db, 2026-04-03: vllm/envs.py VLLM_SSM_CONV_STATE_LAYOUT, SD default) and #37635 " +
	"(commit bfdc0a3a9, 2026-04-06: nixl_connector.py asserts is_conv_state_dim_first() when a KV-cache group is a MambaSpec, " +
	"\"3-read Mamba conv transfer requires DS conv state layout. Set VLLM_SSM_CONV_STATE_LAYOUT=DS\"); absent at the v0.19.0 commit " +
	"2a69949bd (both merged after it); listed in v0.20.0's release notes (2026-04-23); read in the 0.21.0 checkout (vllm/envs.py@535947a1); " +
	"read at tag v0.19.1 (absent) and v0.20.0 (present) (kzwrime/vllm snapshot of vllm-project/vllm): vllm/envs.py, vllm/distributed/kv_transfer/kv_connector/v1/nixl/worker.py; still required per PR #54489 (2026-08-31)"

// nixlConvLayoutSpan is the releases whose NixlConnector asserts the DS
// layout (and whose envs.py reads the variable): from 0.20.0, pinned by the
// v0.19.1 and v0.20.0 tags (srcSSMConvLayout).
var nixlConvLayoutSpan = Span{Since: v0200}

// NixlConvLayoutNeed is whether NixlConnector in release v refuses to start
// on a model with state layers unless SSMConvLayoutEnv is "DS": Absent
// (no such check, and no such variable; up to 0.19.1) or Present (0.20.0 on).
func NixlConvLayoutNeed(v Version) Presence { return nixlConvLayoutSpan.In(v) }

// NixlConvLayoutSource cites NixlConvLayoutNeed.
func NixlConvLayoutSource() string { return srcSSMConvLayout }

// srcNixlGDN: NixlConnector moves Gated DeltaNet state from #41869.
// Before it, derive_mamba_conv_split (vllm/distributed/kv_transfer/
// kv_connector/v1/ssm_conv_transfer_utils.py@bfdc0a3a9 line 106), which
// the worker calls for every model with a MambaSpec group right after the
// DS assertion, raises NotImplementedError("3-read conv transfer only
// supports Mamba2 models, got mamba_type=...") for GDN; issue #41860
// reports Qwen3.5 failing with 0.20.0. #41869 ("PD disagg with NIXL
// Connector: GDN support (Qwen3.5)", commit 24337fb86, 2026-05-14) adds
// gdn_attention ("3-read conv transfer only supports Mamba2 and GDN
// models"); v0.22.0's release notes (2026-05-29) list "GDN support for PD
// with NIXL (#41869)"; 0.21.0 was out by 2026-05-04, before the merge.
// KDA stays outside the 3-read split after #41869 (the same check); no
// later change for it was read.
const srcNixlGDN = "#41869 (commit 24337fb86, 2026-05-14; before it ssm_conv_transfer_utils.derive_mamba_conv_split raised " +
	"NotImplementedError \"3-read conv transfer only supports Mamba2 models\" for gdn_attention, issue #41860 on 0.20.0); " +
	"v0.22.0 release notes (2026-05-29) list \"GDN support for PD with NIXL (#41869)\"; 0.21.0 was out by 2026-05-04"

// srcMooncakeState: MooncakeConnector before #46807 takes one attention
// backend, the first layer's ("Get the attention backend from the first
// layer / NOTE (NickLucche) models with multiple backends are not
// supported yet": mooncake/mooncake_connector.py lines 851-853 on main on
// 2026-05-19, github.com/local-inference-lab/vllm) and builds its transfer
// topology with is_mamba=False: no MambaSpec group is moved, and a model
// whose first layer is a GDN layer (Qwen3.5's layer_types start with
// linear_attention) gets GDNAttentionBackend for its full-attention group
// (issue #43765, 2026-05-28: "causes Mooncake to call get_kv_cache_shape()
// on GDNAttentionBackend"). #46807 ("PD disagg with Mooncake Connector:
// GDN support (Qwen3.5) and MLA support (Deepseek-V4-Flash)", commit
// 0feca7ffa8, 2026-06-29) adds the hybrid path; v0.25.0's release notes
// (2026-07-11) list it, v0.24.0's (2026-06-29) do not. Its tests cover
// GDN; whether other state layers (Mamba-2, KDA) transfer was not read.
// Before it no version of the connector handles state at all: "Mamba"
// appears nowhere in mooncake_connector.py's history on main from its
// introduction (#24718, 2025-12-04) to 2026-05-24 (git log -S), and from
// #31988 (2026-01-12) it takes the first layer's backend.
const srcMooncakeState = "mooncake_connector.py (main 2026-05-19, lines 851-853): one attention backend, the first layer's, and " +
	"is_mamba=False, no MambaSpec handling in its history from #24718 (issue #43765); #46807 (commit 0feca7ffa8, 2026-06-29) adds GDN, listed in v0.25.0's release notes (2026-07-11), " +
	"not v0.24.0's"

var (
	nixlGDNFrom       = v0220
	mooncakeStateFrom = mustVersion("0.25.0")
	// nixlMambaFrom is the first release a source shows NIXL moving
	// Mamba-2 state in (v0.20.0's notes: #37635 on top of #36687's
	// homogeneous-TP support); earlier releases were not read.
	nixlMambaFrom = v0200
)

// StateTransfer is whether connector (a registry name) in release v moves
// the state of layers of kind k from the prefill to the decode engine, and
// what the answer rests on. Connectors this table does not know are Maybe.
func StateTransfer(connector string, v Version, k StateLayer) (Presence, string) {
	switch {
	case IsNixl(connector):
		switch k {
		case StateGDN:
			switch {
			case v.Less(nixlMambaFrom):
				// Before the 3-read split (#37635) NIXL moved whole
				// states (#36687); whether that carried GDN was not read.
				return Maybe, "NIXL's hybrid state transfer before 0.20.0 (#36687) not read for GDN; " + srcNixlGDN
			case v.Less(nixlGDNFrom):
				return Absent, srcNixlGDN
			}
			return Present, srcNixlGDN
		case StateMamba2:
			if v.Less(nixlMambaFrom) {
				return Maybe, "NIXL's Mamba state transfer (#36687, #37635) before 0.20.0 not read"
			}
			return Present, "v0.20.0 release notes: 3-read conv-state transfer for NIXL + Mamba (#37635)"
		}
		return Maybe, srcNixlGDN + "; KDA was not read"
	case connector == "MooncakeConnector":
		if v.Less(mooncakeStateFrom) {
			return Absent, srcMooncakeState
		}
		if k == StateGDN {
			return Present, srcMooncakeState
		}
		return Maybe, srcMooncakeState
	}
	return Maybe, fmt.Sprintf("%s's handling of %s state was not read", connector, k)
}

// StateTransferFix names the change that lets connector move state of kind
// k, for hints ("" when none is known).
func StateTransferFix(connector string, k StateLayer) string {
	switch {
	case IsNixl(connector) && k == StateGDN:
		return "vLLM 0.22.0 or later (#41869)"
	case connector == "MooncakeConnector" && k == StateGDN:
		return "vLLM 0.25.0 or later (#46807)"
	}
	return ""
}

// PDStateEnv are the variables a P/D engine of connector in release v
// needs for a model with state layers (none without them): NixlConnector's
// DS conv layout where the release may assert it (Present or Maybe: an
// unread release ignores a variable it does not read). why says what each
// is for.
func PDStateEnv(connector string, v Version, hasState bool) (env map[string]string, why string) {
	if !hasState || !IsNixl(connector) || NixlConvLayoutNeed(v) == Absent {
		return nil, ""
	}
	why = "NixlConnector reads Mamba/GDN conv state in three parts and asserts this layout at start-up (#37635)"
	if NixlConvLayoutNeed(v) == Maybe {
		why = fmt.Sprintf("%s; whether vLLM %s asserts it was not read, and a release that does not read the variable ignores it", why, v)
	}
	return map[string]string{SSMConvLayoutEnv: SSMConvLayoutDS}, why
}

// PDStateSince is the first release these facts speak for, what lint's
// VL233 holds from: the earlier of vlaunch's MooncakeConnector bundles
// (whose connector moves no state before #46807) and the first release
// that may assert NIXL's DS conv layout.
func PDStateSince() Version {
	since := nixlConvLayoutSpan.Since
	if b, _, _ := PDBundleOf("MooncakeConnector", Version{}); !b.Since.IsZero() && b.Since.Less(since) {
		since = b.Since
	}
	return since
}
