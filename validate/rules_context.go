package validate

import (
	"fmt"

	"github.com/vlaunch/vlaunch/spec"
)

// allowLongEnv is the vLLM variable that lets max_model_len exceed the
// model's max_position_embeddings (at the user's risk).
const allowLongEnv = "VLLM_ALLOW_LONG_MAX_MODEL_LEN"

// maxLen is the context limit requests must fit: max_model_len, or the
// model's own maximum when max_model_len is not set.
func (c *checker) maxLen() int {
	if l := c.d.Workload.MaxModelLen; l > 0 {
		return l
	}
	if c.model != nil {
		return c.model.MaxModelLen()
	}
	return 0
}

// checkContext: max_model_len within the longest context vLLM derives from
// the model's config (max_position_embeddings and rope_scaling), and the
// typical request (input + output) within max_model_len.
func checkContext(c *checker) {
	w := c.d.Workload
	if c.model != nil && c.model.MaxModelLen() > 0 && w.MaxModelLen > c.model.MaxModelLen() {
		limit, from := c.model.MaxModelLen(), c.model.MaxModelLenSource()
		msg := "max_model_len %d exceeds %s's maximum %d (%s); vLLM refuses it unless %s=1 is set"
		hint := fmt.Sprintf("lower max_model_len to %d, or set vllm.env %s: \"1\" if the model's RoPE scaling really supports it",
			limit, allowLongEnv)
		if c.d.VLLM.Env[allowLongEnv] == "1" {
			c.warnf(CodeContext, p("workload", "max_model_len"), "outputs past the trained length may degrade",
				msg+" (it is)", w.MaxModelLen, modelLabel(c), limit, from, allowLongEnv)
		} else {
			c.errorf(CodeContext, p("workload", "max_model_len"), hint, msg, w.MaxModelLen, modelLabel(c), limit, from, allowLongEnv)
		}
	}
	limit := c.maxLen()
	c.checkSessionTokens(limit)
	c.checkLengths()
	c.checkArrivals()
	c.checkClientCap()
	if limit <= 0 || !c.ok(p("workload")) || w.InputTokens+w.OutputTokens <= limit {
		return
	}
	c.errorf(CodeContext, p("workload", "input_tokens"), "input_tokens and output_tokens default to 1024 and 512 when not given",
		"input_tokens + output_tokens = %d + %d = %d exceeds max_model_len %d", w.InputTokens, w.OutputTokens, w.InputTokens+w.OutputTokens, limit)
}

// checkSessionTokens: a session's context is at least one request and at
// most max_model_len (each turn resends the history as one request, which
// vLLM refuses beyond max_model_len).
func (c *checker) checkSessionTokens(limit int) {
	w := c.d.Workload
	if w.SessionTokens <= 0 || !c.ok(p("workload", "session_tokens")) {
		return
	}
	if limit > 0 && w.SessionTokens > limit {
		c.errorf(CodeContext, p("workload", "session_tokens"), "lower session_tokens or raise workload.max_model_len",
			"session_tokens %d exceeds max_model_len %d: the turn that resends that history is refused", w.SessionTokens, limit)
		return
	}
	if one := w.InputTokens + w.OutputTokens; one > 0 && w.SessionTokens < one {
		c.errorf(CodeContext, p("workload", "session_tokens"), "a session holds at least one request: drop session_tokens or raise it",
			"session_tokens %d is less than one request's input + output tokens (%d)", w.SessionTokens, one)
	}
}

// checkLengths: a length distribution is a dataset, or a shape with its
// spread — one of the two, whole.
func (c *checker) checkLengths() {
	l := c.d.Workload.Lengths
	if l == nil || !c.ok(p("workload", "lengths")) {
		return
	}
	path := p("workload", "lengths")
	switch {
	case l.Dataset != "" && (l.Distribution != "" || l.CV != 0):
		c.errorf(CodeValue, path, "keep dataset, or distribution with cv",
			"workload.lengths names a dataset (%s) and a distribution: a dataset has its own spread", l.Dataset)
	case l.Dataset == "" && (l.Distribution == "" || l.CV <= 0):
		c.errorf(CodeValue, path, "e.g. lengths: {distribution: lognormal, cv: 1}, or lengths: {dataset: sharegpt}",
			"workload.lengths needs a dataset, or a distribution with its cv")
	}
}

// checkArrivals: arrival_burstiness shapes the gaps between open-loop
// arrivals (spec.Workload.ArrivalBurstiness), so it needs an arrival
// rate: a closed loop's sessions send when their last request ends, and a
// burst without a rate is sent at t=0. (B ≤ 0 is the schema's range.)
func (c *checker) checkArrivals() {
	w := c.d.Workload
	if w.ArrivalBurstiness == 0 || w.ArrivalRatePerS > 0 || !c.ok(p("workload", "arrival_burstiness")) {
		return
	}
	c.errorf(CodeValue, p("workload", "arrival_burstiness"), "give workload.arrival_rate_per_s (the open loop it shapes), or drop arrival_burstiness",
		"arrival_burstiness %g without arrival_rate_per_s: it shapes the gaps between open-loop arrivals, and this workload has none", w.ArrivalBurstiness)
}

// checkTTFT: percentiles in order (p50 <= p95 <= p99) and each prompt
// length within max_model_len.
func checkTTFT(c *checker) {
	limit := c.maxLen()
	for i, t := range c.d.SLO.TTFT {
		if limit > 0 && t.InputTokens > limit {
			c.errorf(CodeContext, p("slo", "ttft", i, "input_tokens"), "lower input_tokens or raise workload.max_model_len",
				"TTFT target for %d input tokens exceeds max_model_len %d", t.InputTokens, limit)
		}
		checkPercentiles(c, i, []pct{{"p50_s", t.P50S}, {"p95_s", t.P95S}, {"p99_s", t.P99S}})
	}
	checkBurstReplays(c)
}

// checkBurstReplays bounds a finite run's cost: check simulates its
// burst_requests whole at every scenario input length.
func checkBurstReplays(c *checker) {
	w := c.d.Workload
	n := len(spec.ScenarioInputLengths(w, c.d.SLO))
	if w.BurstRequests <= 0 || w.BurstRequests*n <= spec.MaxBurstReplays || !c.ok(p("workload", "burst_requests")) {
		return
	}
	c.errorf(CodeSLO, p("workload", "burst_requests"),
		fmt.Sprintf("send at most %d requests in the run, or name fewer TTFT input lengths", spec.MaxBurstReplays/n),
		"a finite run of %d requests is simulated whole at each of the %d input lengths the workload and its TTFT targets name: %d requests, above vlaunch's limit of %d for one check",
		w.BurstRequests, n, w.BurstRequests*n, spec.MaxBurstReplays)
}

type pct struct {
	key string
	v   *float64
}

func checkPercentiles(c *checker, i int, ps []pct) {
	var prev *pct
	for j := range ps {
		cur := &ps[j]
		if cur.v == nil {
			continue
		}
		if prev != nil && *cur.v < *prev.v {
			c.errorf(CodeSLO, p("slo", "ttft", i, cur.key), "a higher percentile cannot be faster than a lower one",
				"%s %gs is below %s %gs", cur.key, *cur.v, prev.key, *prev.v)
		}
		prev = cur
	}
}
