package vllm

// What a chat-completions request costs vLLM's API server in Jinja work before
// the engine sees it (issue #28: vLLM 0.11.0's idle TTFT on the chat endpoint).
//
//   - Rendering. apply_hf_chat_template renders the conversation with
//     transformers' tokenizer.apply_chat_template, whose compiled template is
//     cached (transformers' _compile_jinja_template is an lru_cache), so a
//     request pays the render alone: well under a millisecond for a
//     one-message conversation.
//   - Content-format detection. With --chat-template-content-format auto (the
//     default) resolve_chat_template_content_format walks the template's AST
//     (_try_extract_ast: environment.parse of the template text) to choose
//     string or OpenAI-style content. It did so on every chat request from PR
//     #9919 (commit 32e46e00, 2024-11-16) until PR #20065 put an lru_cache on
//     _detect_content_format (commit aa0dc77e, 2025-06-27), whose author
//     measured the work: "1000 requests ... 6-8 seconds delay" on a Llama
//     model. Which releases fall between was not read from a release: those
//     are main's merge dates.
//   - Kwargs filtering. PR #25794 (the fix of GHSA-6fvq-23cw-5628, fixed in
//     0.11.0: main commit 7977e502, 2025-09-27; 04c2b269 on the 0.11.0 release
//     branch) made apply_hf_chat_template call resolve_chat_template_kwargs,
//     which builds a fresh ImmutableSandboxedEnvironment, parses the chat
//     template (env.parse) and walks the tree for its variables
//     (jinja2.meta.find_undeclared_variables) on every call: vllm/entrypoints/
//     chat_utils.py at the v0.11.0 tag (b8b302cd). Its reviewer: "Yea, it's
//     called by each request". PR #26227 ("Cache chat template kwargs
//     resolution", main commit a42d2df7, 2025-10-04, after the 0.11.0 branch
//     was cut) moved the parse into _cached_resolve_chat_template_kwargs =
//     lru_cache(...); 0.11.1, cut from main later, is the first release with
//     it (inferred, not read from its tag), and the renderer of 0.15+
//     (vllm/renderers/hf.py, docs.vllm.ai v0.15.0) keeps the cache.
//
// Both run inside OpenAIServing._preprocess_chat, an async function that calls
// them without awaiting (vllm/entrypoints/openai/serving_engine.py at
// b8b302cd): the API server's event loop does nothing else meanwhile, so the
// other requests' streamed tokens wait behind it as well as this request.
// The completions endpoint renders no template and pays neither, and neither
// does gpt-oss on the chat endpoint: OpenAIServingChat sets use_harmony =
// (model_type == "gpt_oss") and builds its prompt with
// _make_request_with_harmony instead of _preprocess_chat
// (vllm/entrypoints/openai/serving_chat.py at b8b302cd).
const srcChatTemplateParse = "vllm/entrypoints/chat_utils.py at the v0.11.0 tag b8b302cde434 " +
	"(resolve_chat_template_kwargs: ImmutableSandboxedEnvironment(...).parse(chat_template) and " +
	"jinja2.meta.find_undeclared_variables on every call, from apply_hf_chat_template); " +
	"PR #25794 (main 7977e502 2025-09-27, release branch 04c2b269; GHSA-6fvq-23cw-5628 affected < 0.11.0); " +
	"PR #26227 (main a42d2df7 2025-10-04: _cached_resolve_chat_template_kwargs = lru_cache(...); first release 0.11.1 inferred); " +
	"vllm/entrypoints/openai/serving_engine.py at b8b302cd OpenAIServing._preprocess_chat (synchronous on the event loop); " +
	"vllm/entrypoints/openai/serving_chat.py at b8b302cd (use_harmony = model_type == \"gpt_oss\": _make_request_with_harmony, no chat template); " +
	"PR #9919 (32e46e00 2024-11-16: content-format detection from the AST on every request) and " +
	"PR #20065 (aa0dc77e 2025-06-27: @lru_cache on _detect_content_format; \"1000 requests ... 6-8 seconds delay\")"

var (
	// chatKwargsParseSpan: the 0.11.0 release parses the template for its
	// variables on every chat request (read at its tag); 0.11.1 has the
	// cache (inferred from main's history).
	chatKwargsParseSpan = Span{Since: v0110, Removed: v0111}
	// chatContentFormatParseSpan: releases whose content-format detection
	// may parse the template on every chat request. No release in it was
	// read, so it is unverified throughout (Confirmed at its end): from
	// after 0.6.3 (PR #9919 merged 2024-11-16) to before 0.10.0 (PR #20065
	// merged 2025-06-27, 0.9.2 unverified).
	chatContentFormatParseSpan = Span{Since: v064, Confirmed: v0100, Removed: v0100}
)

// ChatTemplateParse is what the release's chat endpoint does with the chat
// template on every request beyond rendering it (the render reuses a
// compiled template): Jinja parses that release lines did not cache.
type ChatTemplateParse struct {
	// Harmony: the model (gpt-oss) is served through harmony, without a
	// chat template, so neither parse runs whatever the release.
	Harmony bool
	// KwargsVars: resolve_chat_template_kwargs parses the template and walks
	// it for its undeclared variables on every request (0.11.0).
	KwargsVars Presence
	// ContentFormat: content-format detection parses the template on every
	// request (with --chat-template-content-format auto, the default).
	ContentFormat Presence
	Source        string
}

// ChatTemplateParse returns the release's per-request parses of the chat
// template on the chat endpoint for a model of type modelType (config.json's
// model_type).
func (r Release) ChatTemplateParse(modelType string) ChatTemplateParse {
	p := ChatTemplateParse{Harmony: modelType == "gpt_oss", Source: srcChatTemplateParse}
	if !p.Harmony {
		p.KwargsVars, p.ContentFormat = chatKwargsParseSpan.In(r.Version), chatContentFormatParseSpan.In(r.Version)
	}
	return p
}

// PerRequest reports whether a source shows the release parsing the chat
// template on every chat request (the cost a simulation may charge); an
// unverified parse is not charged.
func (p ChatTemplateParse) PerRequest() bool {
	return p.KwargsVars == Present || p.ContentFormat == Present
}
