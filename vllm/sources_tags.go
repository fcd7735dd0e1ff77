package vllm

// Release tags of vLLM read in upstream main's history for the flags old
// real configurations use (issue #23: false VL102s on 0.5.3 and 0.8.5).
//
// How a tag is pinned: vLLM takes its version from setuptools_scm, so a
// build N commits past tag vX.Y.Z reports "X.Y.(Z+1).devN+g<hash>" (past
// vX.Y.Z.postK: "X.Y.Z.post(K+1).devN+g<hash>"), and the tag is the commit N
// first-parent steps before <hash>. Each tag below is the one commit every
// such version string in vLLM issue logs lands on (three or more builds that
// agree), found in a fork snapshot carrying upstream main: github.com/
// tensorflowt/vllm-0.8.5 (upstream main to 2025-05-07, one merge commit) and
// github.com/Yuran-7/vllm-0.11 (to the v0.11.0 tag b8b302cde434). Whether a
// flag's commit is in a tag is `git merge-base --is-ancestor`; the flag's
// add_argument line is then read in vllm/engine/arg_utils.py (or
// vllm/entrypoints/openai/cli_args.py) at the tag. Releases tagged on a
// release branch (0.8.0-0.8.3, 0.8.5, 0.10.1, 0.10.2) leave no such trace on
// main: their flags stay unverified. Before 0.6.2 vLLM wrote its version
// into vllm/version.py; the "Bump version to vX" commit is the release's
// source.
const (
	// srcTag053: the 0.5.3 release commit.
	srcTag053 = "vllm/version.py \"Bump version to v0.5.3\" (#6674) commit bb2fc0807 (2024-07-23), the 0.5.3 source"
	// srcTag0641: v0.6.4.post1, from builds 0.6.4.post2.dev{309,358,378}
	// (issue #11189: 0.6.4.post2.dev358+g0d8451c3).
	srcTag0641 = "v0.6.4.post1 tag a6221a144 (2024-11-15; builds 0.6.4.post2.dev{309,358,378}, issue #11189: 0.6.4.post2.dev358+g0d8451c3)"
	// srcTag0661: v0.6.6.post1, from builds 0.6.6.post2.dev{5,73,189,274,384}
	// (issue #11986: 0.6.6.post2.dev189+g619ae268).
	srcTag0661 = "v0.6.6.post1 tag 2339d59f9 (2024-12-27; builds 0.6.6.post2.dev{5,73,189,274,384}, issue #11986: 0.6.6.post2.dev189+g619ae268)"
	// srcTag072: v0.7.2, from builds 0.7.3.dev{2,94,133,328} (issue #12823:
	// 0.7.3.dev2+gcefd56ee).
	srcTag072 = "v0.7.2 tag 0408efc6d (2025-02-06; builds 0.7.3.dev{2,94,133,328}, issue #12823: 0.7.3.dev2+gcefd56ee)"
	// srcTag073: v0.7.3, from builds 0.7.4.dev{181,360,390,439,442,474,1067}
	// (issue #12529: 0.7.4.dev390+gdebd6bbf). 0.7.4.dev builds run to April
	// 2025: 0.8.0-0.8.3 were tagged off main.
	srcTag073 = "v0.7.3 tag ed6e9075d (2025-02-20; builds 0.7.4.dev{181,360,390,439,442,474,1067}, issue #12529: 0.7.4.dev390+gdebd6bbf)"
	// srcTag084: v0.8.4, from builds 0.8.5.dev{32,137,331} (issue #17526:
	// 0.8.5.dev331+g88ad9ec6b).
	srcTag084 = "v0.8.4 tag dc1b4a6f1 (2025-04-13; builds 0.8.5.dev{32,137,331}, issue #17526: 0.8.5.dev331+g88ad9ec6b)"
	// srcTag090: v0.9.0, from builds 0.9.1.dev{70,180,205} (issue #19219:
	// 0.9.1.dev70+g8f8900cee).
	srcTag090 = "v0.9.0 tag 587387724 (2025-05-27; builds 0.9.1.dev{70,180,205}, issue #19219: 0.9.1.dev70+g8f8900cee)"
	// srcTag0110: the v0.11.0 tag the tables already read (facts_dp_dummy.go).
	srcTag0110 = "v0.11.0 tag b8b302cde434 (fork snapshot github.com/Yuran-7/vllm-0.11)"
)

// Flag evidence read at the tags above (issue #23).
const (
	// srcHostPort: the OpenAI server's --host/--port predate the table:
	// make_arg_parser in vllm/entrypoints/openai/cli_args.py has both at the
	// 0.5.3 release commit (and FastAPI's first frontend, PR #10, 2023, took
	// them); issue #3296 runs pip's vllm==0.3.3 with --host 0.0.0.0 --port
	// 8080 and reaches a request. Still FrontendArgs.host/port at 0.11.0.
	srcHostPort = "vllm/entrypoints/openai/cli_args.py make_arg_parser (\"--host\", \"--port\" default 8000) at " + srcTag053 + "; " +
		"issue #3296 (pip vllm==0.3.3 api_server --host 0.0.0.0 --port 8080 serving); issue #7196 (0.5.4-era); " + srcNS061 + "; " +
		"FrontendArgs.host/port at " + srcTag0110 + "; " + srcBoth + "; " + srcServe012
	// srcChunkedPrefill: PR #3538 (merged 2024-03-29) added the option;
	// at 0.5.3 it is a StoreBoolean (--enable-chunked-prefill[=False]).
	srcChunkedPrefill = "PR #3538 ([2/N] Chunked prefill data update, merged 2024-03-29, adds --enable-chunked-prefill to vllm/engine/arg_utils.py); " +
		"present at " + srcTag053 + " (action=StoreBoolean, nargs='?'), " + srcTag0661 + ", " + srcTag073 + ", " + srcTag084 + ", " + srcTag0110 + "; " +
		"issue #18888 (vLLM 0.8.5 parses it, fails later in FlashMLA); " + srcFacts
	// srcKVTransferFlag: PR #10502 (merged 2024-12-01) added
	// --kv-transfer-config to EngineArgs. The v0.6.4.post1 tag predates it
	// (0.6.4 cannot have it); the v0.6.6.post1 tag has it (the release table
	// reads 0.6.6.post1 as 0.6.6's CLI); 0.6.5 and the 0.6.6 tag itself were
	// not read.
	srcKVTransferFlag = "PR #10502 ([Core] Implement disagg prefill by StatelessProcessGroup, merged 2024-12-01 as 0590ec3fd: --kv-transfer-config in vllm/engine/arg_utils.py); " +
		"absent at " + srcTag0641 + "; present at " + srcTag0661 + ", " + srcTag073 + ", " + srcTag084 + ", " + srcTag0110 + "; 0.6.5 unverified"
	// srcExpertParallelFlag: PR #14305 (merged 2025-03-06) replaced
	// VLLM_TEST_ENABLE_EP with --enable-expert-parallel. The v0.7.3 tag
	// predates it; the v0.8.4 tag has it; 0.8.0-0.8.3 were tagged off main
	// (not read), but issue #16177 runs the vllm/vllm-openai:v0.8.3 image
	// and its args Namespace carries enable_expert_parallel=False (argparse
	// puts a dest there only for an added option). Issue #18888 starts vLLM
	// 0.8.5 with it (parsed; start-up fails later in FlashMLA's FP8 KV check).
	srcExpertParallelFlag = "PR #14305 ([Distributed] Add enable_expert_parallel arg, merged 2025-03-06 as cc2f9b32c; removes VLLM_TEST_ENABLE_EP); " +
		"absent at " + srcTag073 + "; issue #16177 (vllm/vllm-openai:v0.8.3 image: args Namespace ... data_parallel_size=1, enable_expert_parallel=False); present at " + srcTag084 + ", " + srcTag090 + ", " + srcTag0110 + "; " +
		"issue #18888 (vLLM 0.8.5 with --enable-expert-parallel parsed; fails in FlashMLA FP8 KV); issue #21306 (0.9.2); issue #31480 (0.13.0); " + srcPar0101 + "; 0.8.0-0.8.2 unverified"
)
