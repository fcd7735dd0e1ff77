package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// dynamoSource cites the Dynamo worker's own flags.
const dynamoSource = "ai-dynamo/dynamo components/src/dynamo/vllm/backend_args.py (DynamoVllmArgGroup); " +
	"--namespace/--component/--endpoint/--connector/--headless from Dynamo's vLLM docs (unverified list)"

// wrapperFlags are the flags a wrapper front end adds to vLLM's engine
// arguments, so that they are neither unknown vLLM flags nor swallow the
// next word when they are switches.
var wrapperFlags = map[string][]*vllm.Flag{
	"dynamo.vllm": {
		{Name: "is-prefill-worker", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "is-decode-worker", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "disaggregation-mode", Kind: vllm.String, Source: dynamoSource + "; --disaggregation-mode prefill|decode replaces --is-prefill-worker (pd-disaggregation.md §2.1)"},
		{Name: "use-vllm-tokenizer", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "sleep-mode-level", Kind: vllm.Int, Source: dynamoSource},
		{Name: "route-to-encoder", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "multimodal-encode-worker", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "multimodal-worker", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "multimodal-decode-worker", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "enable-multimodal", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "mm-prompt-template", Kind: vllm.String, Source: dynamoSource},
		{Name: "frontend-decoding", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "omni", Kind: vllm.Bool, Source: dynamoSource},
		{Name: "stage-configs-path", Kind: vllm.String, Source: dynamoSource},
		{Name: "model-express-url", Kind: vllm.String, Source: dynamoSource},
		{Name: "namespace", Kind: vllm.String, Source: dynamoSource},
		{Name: "component", Kind: vllm.String, Source: dynamoSource},
		{Name: "endpoint", Kind: vllm.String, Source: dynamoSource},
		{Name: "connector", Kind: vllm.StringList, Source: dynamoSource},
		{Name: "headless", Kind: vllm.StoreTrue, Source: dynamoSource},
		{Name: "discovery-backend", Kind: vllm.String, Source: dynamoSource},
		{Name: "request-plane", Kind: vllm.String, Source: dynamoSource},
		{Name: "event-plane", Kind: vllm.String, Source: dynamoSource},
	},
}

// wrapperFlag finds a wrapper's own flag by spelling (dashes or
// underscores, --no- for its switches).
func wrapperFlag(frontend, spelling string) (*vllm.Flag, bool) {
	name := normalizeName(spelling)
	for _, f := range wrapperFlags[frontend] {
		if f.Name == name || (f.Kind == vllm.Bool && "no-"+f.Name == name) {
			return f, true
		}
	}
	return nil, false
}

// wrapperRole is the disaggregation role a wrapper's flags give a server
// ("prefill", "decode" or ""): Dynamo's --is-prefill-worker, or its newer
// --disaggregation-mode prefill|decode.
func wrapperRole(s *server) string {
	for _, f := range s.Flags() {
		if f.Wrapper && f.Name == "disaggregation-mode" && f.Value != nil && (f.Value.Text == "prefill" || f.Value.Text == "decode") {
			return f.Value.Text
		}
		if f.Wrapper && !f.Negated && strings.HasPrefix(f.Name, "is-") && strings.HasSuffix(f.Name, "-worker") {
			return strings.TrimSuffix(strings.TrimPrefix(f.Name, "is-"), "-worker")
		}
	}
	return ""
}
