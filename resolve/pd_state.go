package resolve

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// StateLayers are the kinds of layer of m whose per-request state vLLM
// keeps in MambaSpec KV-cache groups (none for a model without them): what
// a prefill/decode connector must move beside the attention KV
// (vllm.StateTransfer, vllm.PDStateEnv). validate, the generator and lint
// all take a model's kinds from here.
func StateLayers(m *catalog.Model) []vllm.StateLayer {
	if m == nil {
		return nil
	}
	var out []vllm.StateLayer
	if m.LinearLayerCount() > 0 {
		if m.KimiLinear != nil {
			out = append(out, vllm.StateKDA)
		} else {
			out = append(out, vllm.StateGDN)
		}
	}
	if m.MambaLayerCount() > 0 {
		out = append(out, vllm.StateMamba2)
	}
	return out
}
