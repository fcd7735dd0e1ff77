package pd

import (
	"math"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
)

// PrefillResident is how many requests hold KV on the prefill pool at once:
// a request's blocks stay from its prefill until the decode pool has pulled
// them (prefill, the router's hops, the wait for a decode slot, the
// transfer), so by Little's law the simulated request rate times that time,
// the largest over the scenarios, at most the sessions and at least one.
// The workload's sessions spend the rest of their time decoding on the
// other pool, and a request waiting in the prefill queue holds no block
// yet; counting every session against the prefill pool's KV refused pools
// that serve it (256 sessions of the gpt-oss P/D example, EST103).
func PrefillResident(rep *Report, sessions int) int {
	n := 0.0
	for _, s := range rep.Scenarios {
		p := s.TTFTParts
		n = max(n, s.RequestsPerS*(p.PrefillS+p.RouterS+p.DecodeAdmitS+p.TransferS))
	}
	if n <= 0 || sessions <= 0 {
		return sessions
	}
	return max(1, min(sessions, int(math.Ceil(n))))
}

// PrefillMemoryFindings are the prefill pool's memory verdicts as check
// gives them: the requests resident there (PrefillResident of the
// evaluated report).
func PrefillMemoryFindings(pre *input.Input, rep *Report) diag.Diagnostics {
	return PrefillMemoryFindingsAt(pre, PrefillResident(rep, pre.Workload.Concurrency))
}

// PrefillMemoryFindingsAt are the prefill pool's memory verdicts with
// resident requests held at once, each answered with one token (plan's
// pre-filter asks for one: a bound never refuses what check accepts).
func PrefillMemoryFindingsAt(pre *input.Input, resident int) diag.Diagnostics {
	in := *pre
	in.Workload.OutputTokens = 1
	in.Workload.Concurrency = resident
	m := memory.Estimate(&in)
	return memory.Findings(&in, &m)
}
