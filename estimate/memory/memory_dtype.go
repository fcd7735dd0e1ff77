package memory

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// bytesBF16 is a 16-bit parameter (input.BytesBF16).
const bytesBF16 = input.BytesBF16

// DTypeRule says how one component is stored (input.DTypeRule).
type DTypeRule = input.DTypeRule

// StorageRule returns how component is stored for the resolved weights
// dtype. The rule lives in package input (input.StorageRule) so that the
// step model, which may not import memory, streams the weights at the
// bytes memory sizes them by.
func StorageRule(in *input.Input, component string) DTypeRule {
	return input.StorageRule(in, component)
}

// mxfp4Padding returns the hidden and per-rank intermediate multiples vLLM's
// MXFP4 MoE pads to: 256/128 for the Marlin path used on Hopper and older,
// 256/256 for the FlashInfer path on Blackwell (vllm mxfp4.py create_weights).
func mxfp4Padding(g *catalog.GPU) (hidden, inter int) {
	if g.Blackwell() {
		return 256, 256
	}
	return 256, 128
}
