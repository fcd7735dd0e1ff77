package pd

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// UseHandoffRefusal: a hand-off vLLM cannot make is said to be so
// (Transfer.Refused, first in its why) rather than priced silently as if
// it happened. Two ways vLLM refuses P/D for a model with state layers
// (Mamba-2, Gated DeltaNet, KDA: resolve.StateLayers):
//
//   - the connector in the release does not move the state
//     (vllm.StateTransfer Absent: NixlConnector before #41869, vLLM 0.22.0,
//     for Gated DeltaNet; MooncakeConnector before #46807, 0.25.0).
//     validate refuses the spec for it too (SPEC127); plan and the
//     published rows' replay reach the estimate without validate.
//   - the engine turns the hybrid KV cache manager off because
//     --kv-transfer-config is set (vllm.HybridKVWithConnector: every
//     release before #41847) and the flag that keeps it on,
//     --no-disable-hybrid-kv-cache-manager, is not passed: with the
//     manager off vLLM must fold every layer's KV spec into one type, which
//     a MambaSpec beside attention cannot be, and the engine stops at
//     start-up ("Hybrid KV cache manager is disabled but failed to convert
//     the KV cache specs to one unified type", raised in
//     vllm/v1/core/kv_cache_utils.py unify_hybrid_kv_cache_specs; seen with
//     a KV connector on vLLM 0.21.0 for Qwen3.5, after "Turning off hybrid
//     kv cache manager because `--kv-transfer-config` is set", vllm/config/
//     vllm.py). NixlConnector takes the manager's groups from #35758
//     ("[Core][KVConnector] Support HMA+NixlConnector", 2026-03-06: "with
//     --no-disable-hybrid-kv-cache-manager"), so the flag is what such a
//     release needs; vlaunch's generator does not write it, a spec passes
//     it in vllm.extra_args or a pool's.
//
// Where a release is not known either way (vllm.StateTransfer Maybe; the
// manager's default inferred, HybridKVWithConnector Maybe) the hand-off is
// priced as if the state moves and the why says what is not known. false:
// every hand-off is priced, as before.
var UseHandoffRefusal = true

// keepHybridKVFlag keeps the hybrid KV cache manager on with a connector
// (vllm's flags table: disable-hybrid-kv-cache-manager, bool | None).
const keepHybridKVFlag = "--no-disable-hybrid-kv-cache-manager"

// handoffRefusal says why vLLM cannot hand dec's model's requests from the
// prefill to the decode engine over the connector conn (a registry name:
// newTransfer judges NixlConnector's, the hand-off it prices; a pool's
// input does not name the spec's connector) (refused), or what is not
// known of it (notes); both empty for a model without state layers or
// with UseHandoffRefusal off.
func handoffRefusal(pre, dec *input.Input, conn string) (refused string, notes []string) {
	kinds := resolve.StateLayers(dec.Model)
	if !UseHandoffRefusal || len(kinds) == 0 {
		return "", nil
	}
	v := dec.Release().Version
	var no []string
	for _, k := range kinds {
		have, src := vllm.StateTransfer(conn, v, k)
		switch have {
		case vllm.Absent:
			no = append(no, fmt.Sprintf("%s in vLLM %s does not move the %s layers' per-request state the decode engine needs (%s)", conn, v, k, src))
		case vllm.Maybe:
			notes = append(notes, fmt.Sprintf("whether %s in vLLM %s moves the %s layers' per-request state is not known (%s): priced as if it does", conn, v, k, src))
		}
	}
	if r, n := hybridKVRefusal(pre, dec, v); r != "" {
		no = append(no, r)
	} else if n != "" {
		notes = append(notes, n)
	}
	return strings.Join(no, "; and "), notes
}

// hybridKVRefusal is the refusal (or, where the release's default is
// inferred, the note) for a pool whose engine runs with the hybrid KV
// cache manager off (UseHandoffRefusal's second case).
func hybridKVRefusal(pre, dec *input.Input, v vllm.Version) (refused, note string) {
	const why = "vLLM %s turns the hybrid KV cache manager off when --kv-transfer-config is set (until #41847) and the %s pool's engine does not pass " + keepHybridKVFlag +
		": with the manager off the state layers' MambaSpec cannot be folded into one KV spec with attention and the engine stops at start-up (\"Hybrid KV cache manager is disabled but failed to convert the KV cache specs to one unified type\")"
	have := vllm.HybridKVWithConnector(v)
	for _, side := range []struct {
		role string
		in   *input.Input
	}{{"prefill", pre}, {"decode", dec}} {
		on := keepsHybridKV(side.in)
		switch {
		case have == vllm.Present && (on == nil || *on):
		case on != nil && !*on:
			return fmt.Sprintf("the %s pool's engine passes --disable-hybrid-kv-cache-manager: vLLM cannot then fold the state layers' MambaSpec into one KV spec with attention and stops at start-up", side.role), ""
		case on == nil && have == vllm.Absent:
			return fmt.Sprintf(why, v, side.role), ""
		case on == nil:
			note = fmt.Sprintf("whether vLLM %s keeps the hybrid KV cache manager on with a KV connector is inferred (%s): without it, and without %s, the engine would not start for a model with state layers", v, vllm.HybridKVFix, keepHybridKVFlag)
		}
	}
	return "", note
}

// keepsHybridKV is what a pool's vllm.extra_args say of the hybrid KV cache
// manager, the last flag winning as in argparse: true for
// --no-disable-hybrid-kv-cache-manager, false for
// --disable-hybrid-kv-cache-manager, nil when nothing is said (or an input
// built by hand).
func keepsHybridKV(in *input.Input) *bool {
	d := in.Resolved()
	if d == nil || d.Spec == nil {
		return nil
	}
	off := vllm.ExtraArgBool(d.Spec.VLLM.ExtraArgs, "--disable-hybrid-kv-cache-manager")
	if off == nil {
		return nil
	}
	on := !*off // --no-disable-hybrid-kv-cache-manager keeps it on
	return &on
}

// HandoffRefused is why vLLM cannot make a P/D hand-off over connector (a
// registry name) between engines pre and dec at all (handoffRefusal: a
// state model whose engines turn the hybrid KV cache manager off under a
// connector, or a connector that does not move the state), "" when it
// can: plan tries no P/D candidate of such a spec, as check refuses it
// (EST110).
func HandoffRefused(pre, dec *input.Input, connector string) string {
	refused, _ := handoffRefusal(pre, dec, connector)
	return refused
}
