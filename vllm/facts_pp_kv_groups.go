package vllm

// How a hybrid model's KV-cache groups are formed under pipeline
// parallelism. vllm/v1/core/kv_cache_utils.py get_kv_cache_configs (the
// copy in the search index, commit 001cabc1, release not shown) merges the
// KV-cache specs of every worker, forms the groups from the whole model's
// layer counts ("Generate the KV cache groups based on the layer ratio of
// the whole model"; _get_kv_cache_groups_uniform_page_size: group size the
// fewest layers of a kind, a kind's layers dealt round-robin, layers[i::
// num_groups], so every stage gets its share of each group), then projects
// the groups onto each worker (_project_kv_cache_groups_to_worker, which
// keeps a group even where it has no layer on that worker). Each worker's
// num_blocks is its KV memory // page // the layers of its busiest
// projected group (get_kv_cache_config_from_groups), the smallest is taken
// for all, and the log's token count and concurrency count every group.
// The rule came with PR #23974 ("[Hybrid Allocator] Support Pipeline
// Parallel", opened 2025-08-30, still revised 2025-09-10, merged: "generating
// the kv cache groups based on the full:sw ratio of the full model", fixing
// issue #23883 where stage-local ratios differed); its first release was not
// read. A public start-up log of Step-3.5-Flash at PP 5 follows it
// (vllm-project/vllm#33685, turn 1: a main-branch nightly of 2026-02-04,
// image nightly-d88a1df6; the same thread's other main build that day
// reports 0.16.0rc1.dev136): "Add 3 padding layers, may waste at most
// 9.09% KV cache memory" is 3 / 33, the whole model's 33 sliding-window
// layers padded to groups of its 12 full-attention ones, where no stage of
// its 13,8,8,8,8 partition holds more than 9 sliding layers.
const srcPPKVGroups = "vllm/v1/core/kv_cache_utils.py get_kv_cache_configs, _project_kv_cache_groups_to_worker, " +
	"get_kv_cache_config_from_groups (search-index copy at commit 001cabc1, release not shown); PR #23974 (merged, release not read); " +
	"vllm-project/vllm#33685 turn 1 (Step-3.5-Flash PP 5, a 2026-02-04 main nightly: 3 padding layers, 9.09% = 3/33 whole-model sliding layers)"

// ppKVGroupsWholeModel: releases whose KV-cache groups come from the whole
// model's layers rather than each pipeline stage's. Confirmed from 0.16.0
// (the main branch that became it, per the log above); earlier releases are
// not ruled out (the first release with PR #23974 was not read).
var ppKVGroupsWholeModel = Span{Since: vPre, Confirmed: v0160}

// KVGroupsFromWholeModel reports whether release r forms a hybrid model's
// KV-cache groups from the whole model's layer counts under pipeline
// parallelism and projects them onto each stage (Present from 0.16.0, Maybe
// before: no earlier release was read, and before PR #23974 stages whose
// ratios differed failed to start), with the source.
func (r Release) KVGroupsFromWholeModel() (Presence, string) {
	return ppKVGroupsWholeModel.In(r.Version), srcPPKVGroups
}
