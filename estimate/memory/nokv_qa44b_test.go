package memory

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/resolve"
)

// qa44b F13: Llama-3.1-405B in BF16 on 4 × L4 (TP 4) is 171 GiB short per
// GPU. EST101 offered "kv_cache_dtype fp8 … or a higher
// gpu_memory_utilization", neither of which frees weight memory, printed
// the shortfall as a negative KV cache, and named no GPU count. It now
// names the shortfall, keeps only levers that can close it, and
// AddMinLayout gives the smallest layout the same memory model fits —
// which does fit, while one GPU fewer in its TP does not.
func TestNoKVMemoryNamesTheShortfallAndTheGPUsNeeded(t *testing.T) {
	in := testinput.Quick(t, resolve.QuickOptions{Model: "llama-3.1-405b", GPU: "l4", Weights: "bf16", TP: 4, GPUsPerNode: 4, MaxModelLen: 131072, Concurrency: 8})
	m := Estimate(in)
	if m.PerGPU.KVCacheGiB > -100 {
		t.Fatalf("KV %.2f GiB: the case needs a replica far short of memory", m.PerGPU.KVCacheGiB)
	}
	ds := Findings(in, &m)
	AddMinLayout(in, ds)
	var msg, hint string
	for _, d := range ds {
		if d.Code == CodeNoKVMemory {
			msg, hint = d.Message, d.Hint
		}
	}
	if !strings.Contains(msg, "short by 1") || strings.Contains(msg, "= -") {
		t.Errorf("EST101 %q: want the shortfall named, not a negative size", msg)
	}
	for _, no := range []string{"kv_cache_dtype fp8", "gpu_memory_utilization", "FP8 weights"} {
		if strings.Contains(hint, no) {
			t.Errorf("hint %q offers %q, which cannot close a %.0f GiB gap", hint, no, -m.PerGPU.KVCacheGiB)
		}
	}
	tp, pp, ok := MinLayout(in)
	if !ok || !strings.Contains(hint, "at least ") || tp*pp < 40 {
		t.Fatalf("hint %q, min layout TP %d × PP %d (%v): want at least 40 GPUs (811 GB of weights at ~20 GiB usable each)", hint, tp, pp, ok)
	}
	if !fitsWith(in, tp, pp) || fitsWith(in, tp, pp-1) {
		t.Errorf("TP %d × PP %d: fits %v, PP %d fits %v; want the smallest PP that fits", tp, pp, fitsWith(in, tp, pp), pp-1, fitsWith(in, tp, pp-1))
	}
	if got := kvLeftText(-171.22); !strings.Contains(got, "171.22 GiB short") {
		t.Errorf("budget note %q", got)
	}
}
