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
// Span, read at the release tags (branch models41, 2026-12-07) in a fetched
// snapshot of kzwrime/vllm, a fork that carries vllm-project/vllm's history
// and tags (its v0.16.0 is 89a77b10846f, the commit that builds reporting
// 0.16.1.dev0+g89a77b108 name, so the tags are upstream's):
//   - v0.13.0 (72506c98): no whole-model check; PR #29431's commit 8ee90c8
//     is not an ancestor.
//   - v0.14.0 (b17039bc), v0.14.1, v0.15.0 (f1764434), v0.15.1 (1892993b)
//     and v0.16.0 (89a77b10): get_kv_cache_configs carries "# Check if the
//     available memory is enough (using min across all workers)." and
//     _check_enough_kv_cache_memory(min(available_memory), ...) (lines
//     1511-1517).
//   - v0.17.0rc0 (097eb544) and v0.17.0 (b31e9326):
//     _project_kv_cache_groups_to_worker (line 1465) and "# Check if the
//     available memory is enough per worker." (line 1568), each worker
//     against its own projected groups.
//   - PR #33698's merge c5a66d16 ("[Core][BugFix] Fix PP KV cache sharding
//     memory validation (#33698)", committed 2026-02-10) is an ancestor of
//     v0.16.1rc0, v0.17.0rc0 and v0.17.0, not of v0.16.0 (git merge-base
//     --is-ancestor). No 0.16.1 was released (the tags hold v0.16.1rc0
//     only; the release table goes 0.16.0 → 0.17.0), so 0.17.0 is the
//     first release with the fix.
//
// So 0.14.0 to 0.16.0 are Present (their code read; #32105 and #34076 log
// the refusal at 0.14.0rc2, 0.15.0rc1 and 0.15.2rc1.dev93); builds between
// 0.16.0 and 0.17.0 (main's dev and rc builds, with or without the merge)
// are Maybe; 0.17.0 and later are Absent.
//
// Before (sessions relfacts, m23logs) the tag could not be read: the search
// index holds kv_cache_utils.py of vllm-project/vllm only at other commits
// and its snapshot is too large to fetch; the fork's snapshot was fetched.
const srcPPKVCheck = "vllm/v1/core/kv_cache_utils.py get_kv_cache_configs (_check_enough_kv_cache_memory with min(available_memory) " +
	"against the whole model's global_kv_cache_groups; per worker after the fix); " +
	"regression PR #29431 (commit 8ee90c8, per PR #33698; first in v0.14.0), fix PR #33698 (merge c5a66d16, 2026-02-10; first release 0.17.0: " + srcTagsPPKV + "); " +
	"logs: vllm-project/vllm#32105 (0.14.0rc2 traceback with min(available_memory), PP 3; 0.15.0rc1, GLM-4.7-FP8 PP 8) and #34076 (0.15.2rc1.dev93+g11a4c9d30, PP 2)"

// srcTagsPPKV: the tags whose kv_cache_utils.py was read.
const srcTagsPPKV = "kv_cache_utils.py read at upstream's tags in kzwrime/vllm's snapshot: v0.16.0 (89a77b10846f) min(available_memory), lines 1513-1517; " +
	"v0.17.0 (b31e9326a7d9) per worker, line 1568; c5a66d16 an ancestor of v0.17.0rc0 and v0.17.0, not of v0.16.0"

var (
	ppKVCheckSince         = v0140                 // PR #33698: "since v0.14.0"
	ppKVCheckFirstSeen     = v0140                 // vllm#32105 turn 0: 0.14.0rc2 banner and traceback
	ppKVCheckLastSeen      = mustVersion("0.16.0") // the v0.16.0 tag's kv_cache_utils.py (89a77b10)
	ppKVCheckFixRelease    = "0.17.0"              // the first release tag containing c5a66d16 (PR #33698)
	ppKVCheckFixPR         = "#33698"
	ppKVCheckRegressionPR  = "#29431"
	ppKVCheckConfirmedSpan = "0.14.0–0.16.0"
)

// PPKVCheckBug describes vLLM's false start-up refusal under pipeline
// parallelism for one release.
type PPKVCheckBug struct {
	// Presence: Present where the release's code has the whole-model
	// check (0.14.0–0.16.0, read at the tags), Maybe for builds between
	// 0.16.0 and 0.17.0 (main's dev and rc builds, with or without the
	// fix), Absent before 0.14.0 and from 0.17.0.
	Presence Presence
	// Since is the first release that may have the bug; ConfirmedSpan the
	// releases whose code has it; FixRelease the first release with the fix
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
