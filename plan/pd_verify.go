package plan

import (
	"fmt"
	"sync"
)

// UsePairVerify: before any P/D candidate is bounded, plan runs what
// `vlaunch generate` runs (Verify: validation of the spec the candidate
// writes, then the generator's plan) on every one that fits, and skips
// those refused (pdVerified). The rules that judge a pair rather than a
// pool (the connector's bundle with the prefill pool's DP ranks, SPEC127;
// the pools' tensor sizes, block sizes and DCP, SPEC128; the node a pair
// shares and its ports, SPEC126/SPEC129) stay validate's: plan asks them.
// false verifies only the listed candidates (mergeAlike), as before: a
// refused pair was bounded, simulated and ranked until the list reached it.
var UsePairVerify = true

// pdVerifyKey is what validation's verdict on a P/D pair depends on
// beyond its pools' own (each pool choice is judged alone first:
// poolRefused, deepEPLLRefused): the pools' nodes and layouts. Their
// all-to-all backends, scheduler limits and formats, which both pools
// share or which only pool rules read, are left out, so the pairs of one
// split and shape are verified once (a verdict that did depend on them is
// still caught when the candidate is listed: mergeAlike verifies it).
func pdVerifyKey(e *evaluated) string {
	p := *e.Settings.PD
	for _, q := range []*PoolSettings{&p.Prefill, &p.Decode} {
		q.All2All, q.MaxNumSeqs, q.MaxNumBatchedTokens = "", 0, 0
	}
	return fmt.Sprintf("%+v|%+v", p.Prefill, p.Decode)
}

// pdVerified marks the P/D candidates that fit and that validation or the
// generator refuses (verify) as refused, counting them by reason in sum,
// and returns how many were refused. The spec's own pools are kept (they
// are reported, as the colocated search keeps the spec's own settings).
// Each distinct candidate (pdVerifyKey) is verified once, on
// verifyWorkers goroutines.
func pdVerified(cands []*evaluated, verify func(*evaluated) error, sum *PDSummary) int {
	if !UsePairVerify || verify == nil {
		return 0
	}
	first := map[string]*evaluated{}
	var keys []string
	for _, e := range cands {
		if !e.Fits || e.Own {
			continue
		}
		k := pdVerifyKey(e)
		if _, ok := first[k]; !ok {
			first[k] = e
			keys = append(keys, k)
		}
	}
	errs := make([]error, len(keys))
	var wg sync.WaitGroup
	for w := range min(verifyWorkers, len(keys)) {
		wg.Go(func() {
			for i := w; i < len(keys); i += verifyWorkers {
				errs[i] = verify(first[keys[i]])
			}
		})
	}
	wg.Wait()
	verdict := map[string]error{}
	for i, k := range keys {
		verdict[k] = errs[i]
	}
	var st Stats
	for _, e := range cands {
		if !e.Fits || e.Own {
			continue
		}
		if err := verdict[pdVerifyKey(e)]; err != nil {
			e.refused = true
			st.refuse(err.Error())
		}
	}
	sum.RefusedPairs, sum.RefusedPairsBecause = st.Refused, st.Reasons
	sum.Candidates -= st.Refused // bounded: those left
	return st.Refused
}

// verifyWorkers is how many P/D candidates pdVerified verifies at once
// (each parses, validates and plans a spec of its own), beside the
// colocated search, which runs meanwhile.
const verifyWorkers = 2
