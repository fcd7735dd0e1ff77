package logs

import "fmt"

// loggedMemoryTokens is the "GPU KV cache size" vLLM prints for the
// logged available memory, as vlaunch's memory model computes it: for a
// packed layout (a hybrid's attention and state layers sharing one page,
// Prediction.LoggedKVTokens) the blocks of every group divided among the
// groups times the block, as check reproduces them; otherwise the
// per-token pool (loggedPoolTokens) times the DCP size the log multiplies
// it by. packed says which. qa44c F5: Kimi-Linear's 2.30 GiB was divided
// by the MLA bytes per token alone (306,240 tokens) against the logged
// 75,840, which check's own estimate reproduces from the same memory,
// and the row blamed vlaunch's bytes per token.
func (c comparer) loggedMemoryTokens() (tokens int64, packed, ok bool) {
	if c.p.LoggedKVTokens != nil && c.e.AvailableKVGiB != nil && *c.e.AvailableKVGiB > 0 {
		if t, ok := c.p.LoggedKVTokens(*c.e.AvailableKVGiB * gib); ok {
			return t, true, true
		}
	}
	pool, ok := c.loggedPoolTokens()
	return pool * int64(c.p.dcp()), false, ok
}

// packedWords explains a packed layout's tokens from the logged memory.
const packedWords = "predicted: the logged available memory in blocks of every KV group (a hybrid's attention and state pages, DeepSeek-V4's compressed caches, together), divided among the groups × the block, as vLLM counts a packed layout's tokens and check predicts them"

// weightsAloneExceed names the weights as the term that differs when
// vlaunch's predicted weights alone leave nothing of the usable memory
// while the log states a positive KV memory: the engine loaded far fewer
// bytes than the spec describes (a quantized checkpoint — AWQ, GPTQ —
// that model.weights does not name). "" otherwise. qa44c F10: Kimi-Linear
// AWQ on 2 × RTX 3090 with the catalog's bf16 weights, 45.78 GiB per GPU
// on a 23.58 GiB card, was told "cannot say which one differs".
func (c comparer) weightsAloneExceed() string {
	usable := c.p.DeviceGiB * c.p.Utilization
	if c.e.AvailableKVGiB == nil || *c.e.AvailableKVGiB <= 0 || usable <= 0 || c.p.WeightsGiB < usable {
		return ""
	}
	return fmt.Sprintf("the weights differ: vlaunch's predicted weights alone (%.2f GiB per GPU) exceed the usable memory (%.2f × %.2f = %.2f GiB), yet the engine logged %.2f GiB for the KV cache, so it loaded far fewer weight bytes than the spec describes "+
		"(a quantized checkpoint, e.g. AWQ or GPTQ, that model.weights does not name: set model.weights to the checkpoint's dtype)",
		c.p.WeightsGiB, c.p.DeviceGiB, c.p.Utilization, usable, *c.e.AvailableKVGiB)
}

// packedPerTokenWords says why a packed layout's implied bytes per token
// are not compared with the predicted ones.
const packedPerTokenWords = "logged: the available memory over the logged tokens; a packed layout's log counts each block once among its KV groups, so this quotient carries every group's pages (a hybrid's state pages) and is not compared with the bytes per token (kv_cache_tokens_from_logged_memory compares the count)"
