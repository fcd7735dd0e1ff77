package perf

import "testing"

// One API-server process of vLLM V1 delivered 55.99 requests/s of
// 250-token prompts and 200-token outputs (sonnet dataset) within 3% of
// the offline engine (vllm-project/vllm PR #11636, 2024-12-30, main before
// 0.7: "Current main API server is within 3% of the LLM performance"), so
// ingesting one request and streaming its 200 tokens took at most
// 1/55.99 s of that process. The fitted front-end costs must allow it:
// the constants fitted before issue #28 (6.4 ms + 91 µs per token) capped
// one server at 41 such requests/s.
func TestFrontendAllowsPublishedAPIServerRate(t *testing.T) {
	const reqPerS, outTokens = 55.99, 200
	e := DefaultEfficiency
	per := e.FrontendRequestS + outTokens*e.FrontendTokenS
	if per > 1/reqPerS {
		t.Errorf("front end costs %.1f ms per request of %d output tokens: one API server would cap at %.1f requests/s, below the published %.2f",
			per*1e3, outTokens, 1/per, reqPerS)
	}
}
