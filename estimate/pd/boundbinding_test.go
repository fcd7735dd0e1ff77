package pd

import "testing"

// TestBoundTTFTBinding: the bound's TTFT floor is bound by check's rule
// (ttftBinding) on its own parts — the prompt alone, the router's hops,
// the lone transfer and the first decode step — not always by "prefill"
// as plan named it before; a length with no floor has no binding.
func TestBoundTTFTBinding(t *testing.T) {
	b := Bound{ttftParts: map[int]TTFTParts{
		1000: {PrefillS: 0.30, RouterS: 0.001, TransferS: 0.02, FirstDecodeS: 0.03},
		2000: {PrefillS: 0.05, RouterS: 0.001, TransferS: 0.40, FirstDecodeS: 0.03},
		3000: {PrefillS: 0.05, RouterS: 0.001, TransferS: 0.02, FirstDecodeS: 0.09},
		4000: {PrefillS: 0.05, RouterS: 0.03, TransferS: 0.03, FirstDecodeS: 0.055},
	}}
	for _, c := range []struct {
		m    int
		want string
	}{
		{1000, BindPrefill + ": prefill"},
		{2000, SideHandoff + ": " + PartTransfer},
		{3000, BindDecode + ": first decode step"},
		{4000, SideHandoff + ": router"}, // 0.06 s of hand-off over 0.055 s and 0.05 s
		{5000, ""},
	} {
		if got := b.TTFTBinding(c.m); got != c.want {
			t.Errorf("%d tokens: binding %q, want %q", c.m, got, c.want)
		}
	}
}
