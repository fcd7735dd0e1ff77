package report

import "fmt"

// kvRowLabel labels the budget's last row: the KV cache, or, when the
// terms above it leave none, how far short the GPU is — its value is then
// printed as the (positive) shortfall, never as a negative KV cache
// (qa44b F13: "= KV cache -171.22" for Llama-405B BF16 on 4 × L4).
func kvRowLabel(kvGiB float64) string {
	if kvGiB < 0 {
		return "= no KV cache: short by"
	}
	return "= KV cache"
}

// kvGiBText is a KV cache size in format f, or "none (short by X GiB)"
// when the weights and the rest leave none (qa44b F13: "KV -62.80 GiB").
func kvGiBText(kvGiB float64, f string) string {
	if kvGiB < 0 {
		return fmt.Sprintf("none (short by %.2f GiB)", -kvGiB)
	}
	return fmt.Sprintf(f, kvGiB)
}
