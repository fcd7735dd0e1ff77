package input

// Conversation is a session of workload.session_tokens as a multi-turn
// chat that keeps its history: each turn sends the whole conversation so
// far (the history) plus a new input, and its answer joins the history.
// One rule (History) says what a turn's history is; the simulator
// (estimate/sim, Config.SessionTokens) applies it turn by turn and the
// decode curve's mean context (Input.MeanContext) averages it, so that the
// two agree.
type Conversation struct {
	// Limit is the most tokens a conversation reaches (session_tokens).
	Limit int
}

// History is the history a turn of in + out tokens starts from when the
// conversation so far holds hist tokens: hist while the turn still fits
// within Limit, else 0 (the session starts a new conversation).
func (c Conversation) History(hist, in, out int) int {
	if hist+in+out > c.Limit {
		return 0
	}
	return hist
}

// Turns is how many turns of in + out tokens a conversation holds before
// it starts over: History keeps k × (in + out) tokens for turn k while
// (k + 1) × (in + out) ≤ Limit, so Limit / (in + out) turns (at least 1).
func (c Conversation) Turns(in, out int) int {
	return max(1, c.Limit/max(1, in+out))
}

// MeanContext is the mean context of a decoding sequence over a
// conversation of turns of in + out tokens: turn k decodes over k × (in +
// out) tokens of history plus its prompt and half its answer, and every
// turn decodes as many tokens, so the mean is the mean history, (Turns −
// 1) / 2 × (in + out), plus in + out / 2.
func (c Conversation) MeanContext(in, out int) float64 {
	k := c.Turns(in, out)
	return float64(k-1)/2*float64(in+out) + float64(in) + float64(out)/2
}

// Conversation is the workload's multi-turn rule and whether it applies:
// session_tokens larger than one turn's input + output tokens (otherwise
// every request is a conversation of its own, with no history).
func (in *Input) Conversation() (Conversation, bool) {
	w := in.Workload
	c := Conversation{Limit: w.SessionTokens}
	return c, w.SessionTokens > w.InputTokens+w.OutputTokens
}
