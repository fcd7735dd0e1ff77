package pd

import (
	"strings"
	"testing"
)

// TestTTFTBindsTheLargestSide: a P/D TTFT is bound by the side whose parts
// sum largest, not by its single largest part. qa44c F7's parts are
// `vlaunch check examples/deepseek-v3-pd-32xh20.yaml`'s: the prompt's
// prefill (0.365 s) is the largest part, but the decode pool's admission
// and first step (0.558 s) outweigh the prefill pool's queue and prompt
// (0.453 s); the binding named "prefill" and the advice then took GPUs from
// the decode pool.
func TestTTFTBindsTheLargestSide(t *testing.T) {
	for _, c := range []struct {
		name      string
		p         TTFTParts
		want, top string
	}{
		{"qa44c dsv3 32xH20", TTFTParts{PrefillQueueS: 0.088, PrefillS: 0.365, RouterS: 0.00003, TransferS: 0.012, DecodeAdmitS: 0.326, FirstDecodeS: 0.232, FrontendS: 0.042},
			"decode pool: decode admission", "decode admission"},
		{"prefill side", TTFTParts{PrefillQueueS: 0.3, PrefillS: 0.2, DecodeAdmitS: 0.35, FirstDecodeS: 0.1},
			"prefill pool: prefill queue", "prefill queue"},
		{"hand-off", TTFTParts{PrefillS: 0.1, RouterS: 0.01, TransferS: 0.5, FirstDecodeS: 0.05},
			SideHandoff + ": " + PartTransfer, PartTransfer},
		{"API servers", TTFTParts{PrefillS: 0.01, FrontendS: 0.2}, "API servers", "API servers"},
	} {
		got, top := ttftBinding(c.p)
		if got != c.want || top != c.top {
			t.Errorf("%s: binding %q (part %q), want %q (%q)", c.name, got, top, c.want, c.top)
		}
	}
	x := sidesWords(TTFTParts{PrefillQueueS: 0.088, PrefillS: 0.365, TransferS: 0.012, DecodeAdmitS: 0.326, FirstDecodeS: 0.232, FrontendS: 0.042})
	if !strings.Contains(x, "prefill pool 0.453 s") || !strings.Contains(x, "decode pool 0.558 s") {
		t.Errorf("sides: %s", x)
	}
}
