package plan

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
)

// noPay's reason follows the TTFT parts it is given: a decode pool whose
// slots are full is queueing, not a hand-off cost (qa43: "the hand-off
// adds 98 s"), and a run that measured nothing has no parts to compare
// (qa43: "KV transfer takes 0 s ... against 0 s of prefill", called slow
// NICs). Short prompts and slow NICs keep their lines.
func TestNoPayReasons(t *testing.T) {
	c := &evaluated{Candidate: Candidate{Settings: Settings{TP: 8, PP: 1, DP: 1}, PerGPU: 100}}
	mk := func(parts pd.TTFTParts, decodeUtil float64) *evaluated {
		sc := pd.Scenario{InputTokens: 2000, TTFTParts: parts, DecodeUtilization: decodeUtil, PrefillUtilization: 0.6, Binding: pd.BindSessions,
			Transfer: pd.Transfer{WireBytes: 1e8, LinkGBytesPerS: 50}}
		return &evaluated{Candidate: Candidate{Settings: Settings{PD: &PDSettings{}}, PerGPU: 90}, pd: &pdEval{report: &pd.Report{Scenarios: []pd.Scenario{sc}}}}
	}
	f := formats{"fp8", "fp8"}
	for _, tc := range []struct {
		name  string
		parts pd.TTFTParts
		util  float64
		want  string
	}{
		{"unmeasured", pd.TTFTParts{}, 0.97, "P/D does not pay here — the best P/D's simulation measured no request"},
		{"decode queue", pd.TTFTParts{PrefillS: 0.2, RouterS: 0.001, TransferS: 0.004, DecodeAdmitS: 98, FirstDecodeS: 0.03}, 0.97, "P/D does not pay — the decode pool queues: after a 200 ms prefill a request waits 98 s"},
		{"short prompts", pd.TTFTParts{PrefillS: 0.02, RouterS: 0.01, TransferS: 0.004, DecodeAdmitS: 0.005, FirstDecodeS: 0.03}, 0.97, "P/D does not pay — short prompts: a 2000-token prompt prefills in 20 ms, and the hand-off adds 49 ms"},
		// An idle decode pool's admission is its step boundary and the
		// read's notice: part of the hand-off.
		{"idle decode admission", pd.TTFTParts{PrefillS: 0.036, RouterS: 0.001, TransferS: 0.001, DecodeAdmitS: 0.061, FirstDecodeS: 0.01}, 0.21, "P/D does not pay — short prompts"},
		{"slow NICs", pd.TTFTParts{PrefillS: 0.2, TransferS: 0.3}, 0.5, "P/D does not pay — slow NICs"},
	} {
		got := noPay(mk(tc.parts, tc.util), c, f, nil)
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want it to start %q", tc.name, got, tc.want)
		}
	}
}
