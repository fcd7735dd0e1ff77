package pd

import (
	"fmt"

	"github.com/vlaunch/vlaunch/spec"
)

// RouterPath is the network path a router kind gives a request before the
// decode engine has it: the one-way network hops from the request's
// receipt (at the router, or llm-d's Gateway) to the decode engine, each
// costed at the inter-node latency, the prefill response included. The
// router's, gateway's and sidecar's own processing is not modelled (no
// published figure for any of them), nor is the return of the first token
// past the decode pool (TTFT ends as it leaves the pool, for either kind).
type RouterPath struct {
	// Kind is the router kind (spec.RouterKinds).
	Kind string `json:"kind"`
	// Hops is the count of one-way network hops.
	Hops int `json:"hops"`
	// Legs names them, in order, for the report's notes.
	Legs string `json:"legs"`
}

// PathOf is the path of router kind kind ("" is the default, the vLLM
// router).
//
// vLLM router (spec.RouterKindVLLM): the router sends the prompt to a
// prefill engine, the one-token answer comes back, and the router sends
// the request with the KV transfer parameters to a decode engine: 3 hops
// (vllm-project/router@a07dacb3:docs/model-routing/pd-disaggregation.md).
//
// llm-d (spec.RouterKindLLMD, llm-d-router v0.10.0 at 71f4f099): the
// Gateway asks the endpoint picker, an Envoy ext-proc server, for the
// endpoints of each request and gets them back (gateway-api-inference-
// extension@v1.5.0:docs/proposals/004-endpoint-picker-protocol/README.md:
// 2 hops); it sends the request to the picked decode pod, whose routing
// sidecar reads the prefill endpoint from the EPP's header
// (pkg/sidecar/proxy/chat_completions.go, disaggregatedPrefillHandler: 1
// hop); the sidecar sends the prompt to the prefill pod with max_tokens 1,
// stream false and do_remote_decode, and waits for the whole (buffered,
// not streamed) response (connector_nixlv2.go, handleNIXLV2: 2 hops); it
// then sends the request with the returned kv_transfer_params to its own
// engine over localhost (options.go: DecoderURL is
// http://localhost:<model-server-port>; loopback, no network hop). 5 hops.
// Where the Gateway and the EPP run is the cluster's choice: each of their
// hops is assumed one inter-node latency, as the vLLM router's are.
func PathOf(kind string) RouterPath {
	if kind == spec.RouterKindLLMD {
		return RouterPath{Kind: kind, Hops: 5, Legs: "Gateway → endpoint picker → Gateway (ext-proc) → decode pod's sidecar → prefill pod → sidecar, then the sidecar's engine over localhost"}
	}
	if kind == "" {
		kind = spec.RouterKindVLLM
	}
	return RouterPath{Kind: kind, Hops: 3, Legs: "router → prefill engine → router → decode engine"}
}

// note is the path's line in the report's notes.
func (p RouterPath) note() string {
	return fmt.Sprintf("router path (%s): %s: %d hops × the inter-node latency in TTFT; the router's own processing is not modelled", p.Kind, p.Legs, p.Hops)
}
