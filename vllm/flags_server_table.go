package vllm

// Sources for the frontend (OpenAI server) flags.
const (
	// srcNS085 is the `args: Namespace(...)` line vLLM 0.8.5.dev84 printed in
	// the test log of PR #17452: every field in it existed before 0.9.0.
	srcNS085 = "args Namespace of vLLM 0.8.5.dev84 (PR #17452 log)"
	// srcFrontMain is FrontendArgs in a stored main-branch copy of
	// vllm/entrypoints/openai/cli_args.py (newer than 0.22.1).
	srcFrontMain = "vllm/entrypoints/openai/cli_args.py FrontendArgs (main, after 0.22)"
	srcServe012  = "docs.vllm.ai/en/v0.12.0/cli/serve"
	srcFront014  = "docs.vllm.ai/en/v0.14.0/api/vllm/entrypoints/openai/cli_args (FrontendArgs)"
	// srcBoth: present before 0.9.0 and still present on main, so present in
	// every release of the table (removal and re-adding in between is not
	// ruled out, only unlikely).
	srcBoth = srcNS085 + " + " + srcFrontMain
	// srcBoth061 and srcBoth085: srcBoth for flags first read in the 0.6.1
	// or the 0.8.5 Namespace; the tag reads (flagspans45) pin their first
	// releases (span061, or each entry's own span).
	srcBoth061 = srcBoth + "; 0.6.1 Namespace is the earliest read; read at tag v0.5.3, the table's first release, to v0.24.0 (present) (kzwrime/vllm snapshot of vllm-project/vllm): vllm/entrypoints/openai/cli_args.py"
	srcBoth085 = srcBoth + "; 0.8.5 Namespace is the earliest read"
)

// span061: present in every release of the table. It was confirmed only
// from the 0.6.1 Namespace; flagspans45 read every tag v0.5.3-v0.24.0
// (tag_flags_table.go: cli_args.py registers each of these flags at all of
// them), so the first release is pinned before the table.
var span061 = Span{Since: vPre}

// uvicornLogLevels is FrontendArgs.uvicorn_log_level's Literal.
var uvicornLogLevels = []string{"critical", "error", "warning", "info", "debug", "trace"}

// serverFlags are the OpenAI-server flags of `vllm serve`. Bool frontend
// flags were store_true while the frontend parser was hand-written and
// became BooleanOptionalAction when FrontendArgs turned into a config
// dataclass (≈0.10); they are recorded as Bool so a `--no-x` spelling is
// never reported falsely.
var serverFlags = []Flag{
	{Name: "uds", Kind: String, Span: Span{Since: v0101},
		Doc:    "Unix domain socket path; host and port are then ignored",
		Source: srcTagRead("v0.10.0 (absent) and v0.10.1 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcServe012 + "; " + srcFront014 + "; present in 0.12.0; kind not read at the tags (unverified)"},
	{Name: "disable-uvicorn-access-log", Kind: StoreTrue, Default: "False", Span: Span{Since: v082, Removed: v0100},
		Doc: "no uvicorn access log lines", Source: srcTagRead("v0.9.2 (store_true, no --no-disable-uvicorn-access-log) and v0.10.0 (BooleanOptionalAction, --no-disable-uvicorn-access-log)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.8.1 (absent) and v0.8.2 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "disable-uvicorn-access-log", Kind: Bool, Default: "False", Span: Span{Since: v0100},
		Doc: "no uvicorn access log lines", Source: srcTagRead("v0.9.2 (store_true, no --no-disable-uvicorn-access-log) and v0.10.0 (BooleanOptionalAction, --no-disable-uvicorn-access-log)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.8.1 (absent) and v0.8.2 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "allow-credentials", Kind: StoreTrue, Default: "False", Span: Span{Since: vPre, Removed: v0100}, Doc: "CORS: allow credentials", Source: srcTagRead("v0.9.2 (store_true, no --no-allow-credentials) and v0.10.0 (BooleanOptionalAction, --no-allow-credentials)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth061},
	{Name: "allow-credentials", Kind: Bool, Default: "False", Span: Span{Since: v0100}, Doc: "CORS: allow credentials", Source: srcTagRead("v0.9.2 (store_true, no --no-allow-credentials) and v0.10.0 (BooleanOptionalAction, --no-allow-credentials)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth061},
	{Name: "allowed-origins", Kind: JSON, Default: `["*"]`, Span: span061, Doc: "CORS allowed origins (JSON list)", Source: srcBoth061},
	{Name: "allowed-methods", Kind: JSON, Default: `["*"]`, Span: span061, Doc: "CORS allowed methods (JSON list)", Source: srcBoth061},
	{Name: "allowed-headers", Kind: JSON, Default: `["*"]`, Span: span061, Doc: "CORS allowed headers (JSON list)", Source: srcBoth061},
	{Name: "lora-modules", Kind: StringList, Span: span061,
		Doc: "LoRA adapters to serve: name=path or JSON objects", Source: srcBoth061},
	{Name: "chat-template-content-format", Kind: String, Default: "auto", Span: Span{Since: v065},
		Doc: "how message content is rendered for the chat template (auto, string, openai)", Source: srcTagRead("v0.6.4 (absent) and v0.6.5 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "response-role", Kind: String, Default: "assistant", Span: span061,
		Doc: "role name returned when add_generation_prompt is true", Source: srcBoth061},
	{Name: "ssl-keyfile", Kind: String, Span: span061, Doc: "TLS key file", Source: srcBoth061},
	{Name: "ssl-certfile", Kind: String, Span: span061, Doc: "TLS certificate file", Source: srcBoth061},
	{Name: "ssl-ca-certs", Kind: String, Span: span061, Doc: "CA certificates file", Source: srcBoth061},
	{Name: "enable-ssl-refresh", Kind: StoreTrue, Default: "False", Span: Span{Since: v080, Removed: v0100},
		Doc: "reload the TLS context when the certificate files change", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-ssl-refresh) and v0.10.0 (BooleanOptionalAction, --no-enable-ssl-refresh)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "enable-ssl-refresh", Kind: Bool, Default: "False", Span: Span{Since: v0100},
		Doc: "reload the TLS context when the certificate files change", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-ssl-refresh) and v0.10.0 (BooleanOptionalAction, --no-enable-ssl-refresh)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.7.3 (absent) and v0.8.0 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "ssl-cert-reqs", Kind: Int, Default: "0", Span: span061,
		Doc: "whether a client certificate is required (Python ssl.CERT_* value)", Source: srcBoth061},
	{Name: "root-path", Kind: String, Span: span061, Doc: "FastAPI root_path behind a path-routing proxy", Source: srcBoth061},
	{Name: "middleware", Kind: String, Span: span061,
		Doc: "extra ASGI middleware import path; repeat the flag for several", Source: srcBoth061},
	{Name: "return-tokens-as-token-ids", Kind: StoreTrue, Default: "False", Span: Span{Since: v054, Removed: v0100},
		Doc: "logprob tokens as 'token_id:N' strings", Source: srcTagRead("v0.9.2 (store_true, no --no-return-tokens-as-token-ids) and v0.10.0 (BooleanOptionalAction, --no-return-tokens-as-token-ids)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.5.3 (absent) and v0.5.4 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth061},
	{Name: "return-tokens-as-token-ids", Kind: Bool, Default: "False", Span: Span{Since: v0100},
		Doc: "logprob tokens as 'token_id:N' strings", Source: srcTagRead("v0.9.2 (store_true, no --no-return-tokens-as-token-ids) and v0.10.0 (BooleanOptionalAction, --no-return-tokens-as-token-ids)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.5.3 (absent) and v0.5.4 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth061},
	{Name: "enable-request-id-headers", Kind: StoreTrue, Default: "False", Span: Span{Since: v066, Removed: v0100},
		Doc: "add X-Request-Id to responses", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-request-id-headers) and v0.10.0 (BooleanOptionalAction, --no-enable-request-id-headers)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.6.5 (absent) and v0.6.6 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "enable-request-id-headers", Kind: Bool, Default: "False", Span: Span{Since: v0100},
		Doc: "add X-Request-Id to responses", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-request-id-headers) and v0.10.0 (BooleanOptionalAction, --no-enable-request-id-headers)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.6.5 (absent) and v0.6.6 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "tool-parser-plugin", Kind: String, Span: Span{Since: v063},
		Doc: "Python file registering extra tool parsers usable with --tool-call-parser", Source: srcTagRead("v0.6.2 (absent) and v0.6.3 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcBoth085},
	{Name: "disable-frontend-multiprocessing", Kind: StoreTrue, Default: "False", Span: Span{Since: v054, Removed: v0100},
		Doc:    "run the API server in the engine's process; removed by PR #37612 (Mar 2026)",
		Source: srcTagRead("v0.9.2 (store_true, no --no-disable-frontend-multiprocessing) and v0.10.0 (BooleanOptionalAction, --no-disable-frontend-multiprocessing)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS085 + "; absent from " + srcFrontMain + "; PR #37612 merged after 0.17.0 (0.18.x or 0.19.x); 0.20.0 is the safe bound, first release without it unverified" + "; added with the multiprocessing frontend in 0.5.4 (PR #6883 \"add flag to disable mp\"; issue #7653 recommends it on v0.5.4)" + "; " + srcFAFrontendMP},
	{Name: "disable-frontend-multiprocessing", Kind: Bool, Default: "False", Span: Span{Since: v0100, Removed: v0190},
		Doc:    "run the API server in the engine's process; removed by PR #37612 (Mar 2026)",
		Source: srcTagRead("v0.9.2 (store_true, no --no-disable-frontend-multiprocessing) and v0.10.0 (BooleanOptionalAction, --no-disable-frontend-multiprocessing)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcNS085 + "; absent from " + srcFrontMain + "; PR #37612 merged after 0.17.0 (0.18.x or 0.19.x); 0.20.0 is the safe bound, first release without it unverified" + "; added with the multiprocessing frontend in 0.5.4 (PR #6883 \"add flag to disable mp\"; issue #7653 recommends it on v0.5.4)" + "; " + srcFAFrontendMP},
	{Name: "max-log-len", Kind: Int, Span: Span{Since: vPre},
		Doc: "max prompt characters or token ids printed per logged request (unset = unlimited)", Source: srcTagRead("v0.5.3, the table's first release (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcFrontMain + "; first release (before 0.5.3) not read"},
	{Name: "enable-prompt-tokens-details", Kind: StoreTrue, Default: "False", Span: Span{Since: v064, Removed: v0100},
		Doc: "include prompt_tokens_details in usage", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-prompt-tokens-details) and v0.10.0 (BooleanOptionalAction, --no-enable-prompt-tokens-details)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.6.3 (absent) and v0.6.4 (present)", "vllm/entrypoints/openai/cli_args.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFrontMain},
	{Name: "enable-prompt-tokens-details", Kind: Bool, Default: "False", Span: Span{Since: v0100},
		Doc: "include prompt_tokens_details in usage", Source: srcTagRead("v0.9.2 (store_true, no --no-enable-prompt-tokens-details) and v0.10.0 (BooleanOptionalAction, --no-enable-prompt-tokens-details)", "vllm/entrypoints/openai/cli_args.py") + "; " + srcTagRead("v0.6.3 (absent) and v0.6.4 (present)", "vllm/entrypoints/openai/cli_args.py") + "; kind and default not read at the tags (unverified)" + "; " + srcFrontMain},
	{Name: "enable-log-requests", Kind: Bool, Default: "False", Span: Span{Since: v0101},
		Doc:    "log each request; replaces --disable-log-requests (request logging is off by default since PR #21739)",
		Source: srcServe012 + " (Bool, default False); PR #21739 (after 0.10.0's release; issue #24578 uses it on 0.10.1)" + "; presence after 0.12.0 not read"},
	{Name: "disable-log-requests", Kind: StoreTrue, Span: Span{Since: vPre, Removed: v0101}, Deprecated: v0101,
		Doc: "deprecated by PR #21739 (logging is off by default now; use --enable-log-requests to turn it on); the flag was removed later",
		Source: srcTagRead("v0.10.0 (store_true, no --no-disable-log-requests) and v0.10.1 (BooleanOptionalAction, --no-disable-log-requests)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcServe012 + " (still listed, [DEPRECATED]); PR #29402 (Nov 2025) removed the disable_log_requests engine argument (ai-dynamo/dynamo PR #4659), not this flag; " +
			"llm-d/llm-d-benchmark PR #781 (removed in 0.17.0); ai-dynamo/dynamo PR #8693 (0.19 rejects it); HYGON-AI/inference-cookbook-das #132 (a 0.18.1 image rejects it); " +
			"vllm-ascend v0.18.0/v0.23.0 docs use it in lmcache_ascend_deployment.md, written 2026-03-13 for vLLM v0.16.0 (vllm-ascend #6882; v0.18.0's docs pin vllm_version v0.17.0) and not re-run since; removal release unverified"},
	{Name: "disable-log-requests", Kind: Bool, Span: Span{Since: v0101, Removed: v0170}, Deprecated: v0101,
		Doc: "deprecated by PR #21739 (logging is off by default now; use --enable-log-requests to turn it on); the flag was removed later",
		Source: srcTagRead("v0.10.0 (store_true, no --no-disable-log-requests) and v0.10.1 (BooleanOptionalAction, --no-disable-log-requests)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.5.3, the table's first release (present)", "vllm/engine/arg_utils.py") + "; " + srcServe012 + " (still listed, [DEPRECATED]); PR #29402 (Nov 2025) removed the disable_log_requests engine argument (ai-dynamo/dynamo PR #4659), not this flag; " +
			"llm-d/llm-d-benchmark PR #781 (removed in 0.17.0); ai-dynamo/dynamo PR #8693 (0.19 rejects it); HYGON-AI/inference-cookbook-das #132 (a 0.18.1 image rejects it); " +
			"vllm-ascend v0.18.0/v0.23.0 docs use it in lmcache_ascend_deployment.md, written 2026-03-13 for vLLM v0.16.0 (vllm-ascend #6882; v0.18.0's docs pin vllm_version v0.17.0) and not re-run since; removal release unverified"},
	{Name: "enable-reasoning", Kind: StoreTrue, Span: Span{Since: mustVersion("0.7.1"), Removed: v090}, Deprecated: v090,
		Doc:    "deprecated by PR #17452 (Apr 2025): --reasoning-parser alone enables reasoning output; drop the flag",
		Source: srcTagRead("v0.8.5 (store_true, no --no-enable-reasoning) and v0.9.0 (BooleanOptionalAction, --no-enable-reasoning)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.7.0 (absent) and v0.7.1 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + "PR #17452 (deprecation warning in 0.8.5.dev); PR #18404 (deprecated from 0.9.0, there was no 0.8.6); issue #18538 (unrecognized in 0.10.0); 0.9.1/0.9.2 not checked" + "; first release (≈0.7.x) unverified"},
	{Name: "enable-reasoning", Kind: Bool, Span: Span{Since: v090, Removed: v0100}, Deprecated: v090,
		Doc:    "deprecated by PR #17452 (Apr 2025): --reasoning-parser alone enables reasoning output; drop the flag",
		Source: srcTagRead("v0.8.5 (store_true, no --no-enable-reasoning) and v0.9.0 (BooleanOptionalAction, --no-enable-reasoning)", "vllm/engine/arg_utils.py") + "; " + srcTagRead("v0.7.0 (absent) and v0.7.1 (present)", "vllm/entrypoints/openai/cli_args.py") + "; " + "PR #17452 (deprecation warning in 0.8.5.dev); PR #18404 (deprecated from 0.9.0, there was no 0.8.6); issue #18538 (unrecognized in 0.10.0); 0.9.1/0.9.2 not checked" + "; first release (≈0.7.x) unverified"},
}

func init() { flagTable = append(flagTable, serverFlags...) }
