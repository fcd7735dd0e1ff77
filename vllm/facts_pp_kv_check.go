package vllm

// The start-up KV check under pipeline parallelism. From PR #29431
// ("--max-model-len auto", commit 8ee90c8) vllm/v1/core/kv_cache_utils.py
// get_kv_cache_configs merged every worker's KV-cache spec, formed the
// groups of the whole model and called _check_enough_kv_cache_memory with
// min(available_memory) over the workers against
// _max_memory_usage_bytes_from_groups(vllm_config, global_kv_cache_groups):
// one max_model_len sequence's KV with every layer of the model, as if each
// pipeline stage held all of them ("Check if the available memory is
// enough (using min across all workers). We use the global groups to
// correctly account for padding."; a copy of that code is in the search
// index). A PP deployment whose stages each hold their own share was
// refused at start-up with the whole model's figure: vllm-project/vllm#32105
// (0.15.0rc1 banner, GLM-4.7-FP8 at PP 8: "71.16 GiB KV cache is needed
// ... (28.57 GiB)", the whole model's KV at 202752 tokens) and #34076
// (wheel 0.15.2rc1.dev93+g11a4c9d30, 2026-02-08, Qwen3-Coder-30B-A3B at PP
// 2: 24.0 GiB = 48 layers × 2 × 4 heads × 128 × 2 B × 262144 tokens, the
// whole model). PR #33698 ("[Core][BugFix] Fix PP KV cache sharding memory
// validation", junuxyz, opened 2026-02-03, review still revised 2026-02-06,
// merged; "Fixes #32105 ... Regression introduced by #29431 (commit
// 8ee90c8)"; its description reads the v0.14.0 documentation of
// get_kv_cache_configs: "since v0.14.0 ... 3. Check memory using the
// unified spec") checks each worker against its projected groups
// (_project_kv_cache_groups_to_worker; "Check if the available memory is
// enough per worker.", search-index copy at commit 001cabc1).
//
// The first report of #32105 (zhcn000000, 2026-01-11: banner "vLLM API
// server version 0.14.0rc2+cu130", Qwen3-VL-30B-A3B-Thinking-FP8 at PP 3)
// shows the buggy call in its traceback: kv_cache_utils.py line 1514,
// get_kv_cache_configs → "_check_enough_kv_cache_memory(
// min(available_memory), ..." (0.14.0rc2 compares as 0.14.0).
//
// Span: releases before 0.14.0 are taken as unaffected (the PR dates the
// merged-spec check from v0.14.0); 0.14.0 to 0.15.2 are confirmed by the
// three logs above (0.15.2rc1.dev93 compares as 0.15.2). PR #33698 reached
// main in the week a "Weekly Summary for vllm-project/vllm (2026-02-13)"
// lists it (a third-party digest), after the 0.15.2rc1.dev93 build; its
// first release was NOT established, so every release after 0.15.2 stays
// unverified ("unknown", never guessed).
//
// What was tried for the first release (session relfacts): the v0.16.0 tag
// is commit 89a77b10846fd96273cce78d86d2556ea582d26e (builds report
// 0.16.1.dev0+g89a77b108, i.e. zero commits past the tag, in several logs,
// and pin files record "version 0.16.0, revision 89a77b10846f..."); the
// search index holds vllm/v1/core/kv_cache_utils.py of vllm-project/vllm
// only at other commits (001cabc1 with the fix, bbf906a8), not at
// 89a77b10 (read_file: "stored, but not at that commit"; the same for the
// forks ROCm/vllm, EmbeddedLLM/vllm, IBM/vllm), and the repository snapshot
// is too large to fetch (1.12 GB), so ancestry of the #33698 merge in the
// tag could not be checked. No v0.16.0 release-note text naming #33698 was
// found either. v0.16.0 therefore stays Maybe.
//
// Re-checked 2026-12-07 (branch m23logs), still unknown: find_files lists
// kv_cache_utils.py of vllm-project/vllm at bbf906a8 only; fetch refuses
// the 1.12 GB snapshot; the docs corpus holds no docs.vllm.ai v0.16/v0.17
// API page for kv_cache_utils; find_string "KV cache sharding memory
// validation" finds only the weekly digest (2026-02-13) and two issue
// digests, no release notes; the per-worker check's comment ("Check if the
// available memory is enough per worker.") occurs in copies without a
// release. A merge date alone would not settle it (release branches are
// cut before the tag), so no release is recorded.
const srcPPKVCheck = "vllm/v1/core/kv_cache_utils.py get_kv_cache_configs (_check_enough_kv_cache_memory with min(available_memory) " +
	"against the whole model's global_kv_cache_groups; per worker after the fix, search-index copy at commit 001cabc1); " +
	"regression PR #29431 (commit 8ee90c8, per PR #33698), fix PR #33698 (merged after 2026-02-06; first release unknown: " + srcTag0160KV + "); " +
	"logs: vllm-project/vllm#32105 (0.14.0rc2 traceback with min(available_memory), PP 3; 0.15.0rc1, GLM-4.7-FP8 PP 8) and #34076 (0.15.2rc1.dev93+g11a4c9d30, PP 2)"

// srcTag0160KV: the v0.16.0 tag, whose kv_cache_utils.py could not be read.
const srcTag0160KV = "v0.16.0 tag 89a77b10846f (builds 0.16.1.dev0+g89a77b108); kv_cache_utils.py not stored at that commit, so not read"

var (
	ppKVCheckSince         = v0140                 // PR #33698: "since v0.14.0"
	ppKVCheckFirstSeen     = v0140                 // vllm#32105 turn 0: 0.14.0rc2 banner and traceback
	ppKVCheckLastSeen      = mustVersion("0.15.2") // vllm#34076: 0.15.2rc1.dev93 wheel
	ppKVCheckFixRelease    = ""                    // first release with PR #33698: unknown
	ppKVCheckFixPR         = "#33698"
	ppKVCheckRegressionPR  = "#29431"
	ppKVCheckConfirmedSpan = "0.14.0–0.15.2"
)

// PPKVCheckBug describes vLLM's false start-up refusal under pipeline
// parallelism for one release.
type PPKVCheckBug struct {
	// Presence: Present where a log confirms the whole-model check
	// (0.14.0–0.15.2), Maybe where the release may have it (every release
	// after 0.15.2, since the fix's first release is unknown), Absent
	// before 0.14.0.
	Presence Presence
	// Since is the first release that may have the bug; ConfirmedSpan the
	// releases logs show it in; FixRelease the first release with the fix
	// ("unknown" when not established); FixPR and RegressionPR the PRs.
	Since, ConfirmedSpan, FixRelease, FixPR, RegressionPR string
	Source                                                string
}

// PPKVCheckWholeModel reports whether release r's start-up KV check counts
// one max_model_len sequence with every layer of the model against the
// smallest worker's KV memory under pipeline parallelism (a false refusal
// where each stage's own layers fit), with the span and the source.
func (r Release) PPKVCheckWholeModel() PPKVCheckBug {
	b := PPKVCheckBug{Since: ppKVCheckSince.String(), ConfirmedSpan: ppKVCheckConfirmedSpan, FixRelease: ppKVCheckFixRelease,
		FixPR: ppKVCheckFixPR, RegressionPR: ppKVCheckRegressionPR, Source: srcPPKVCheck}
	if b.FixRelease == "" {
		b.FixRelease = "unknown"
	}
	v := r.Version
	switch {
	case v.Less(ppKVCheckSince), ppKVCheckFixRelease != "" && !v.Less(mustVersion(ppKVCheckFixRelease)):
		b.Presence = Absent
	case !v.Less(ppKVCheckFirstSeen) && !ppKVCheckLastSeen.Less(v):
		b.Presence = Present
	default:
		b.Presence = Maybe
	}
	return b
}
