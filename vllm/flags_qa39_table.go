package vllm

// Flags real launch configurations of the QA pass realin39 use that the
// tables lacked (lint said VL005 "not in vlaunch's flag table for any
// release"), each read in vllm/engine/arg_utils.py at vLLM's release tags.
// The tags were read in the snapshot github.com/kzwrime/vllm, a fork that
// carries upstream's tags v0.1.0-v0.24.0; its tag commits are the ones
// sources_tags.go pins independently (v0.6.4.post1 a6221a144, v0.9.0
// 587387724, v0.11.0 b8b302cde434), so the tags are upstream's.
const srcKzTags = "vllm/engine/arg_utils.py at vLLM's release tags (read in the fork snapshot github.com/kzwrime/vllm, which carries upstream tags v0.1.0-v0.24.0; its v0.6.4.post1/v0.9.0/v0.11.0 tag commits equal sources_tags.go's pins)"

const (
	// srcDeviceFlag: `--device` (DeviceConfig) is in arg_utils.py from
	// the v0.3.1 tag (absent at v0.3.0), before the table's first
	// release; v0.9.0 (5873877241) adds deprecated=True; PR #21349
	// ([Misc] Remove deprecated args in v0.10, bc8a8ce5e, 2025-07-22)
	// deletes it: present at v0.9.2 (a5dd03c1eb), absent at v0.10.0
	// (6d8d0a24c0).
	srcDeviceFlag = srcKzTags + ": --device present from v0.3.1 (absent at v0.3.0) to v0.9.2 a5dd03c1eb; deprecated=True from v0.9.0 5873877241; " +
		"removed by PR #21349 ([Misc] Remove deprecated args in v0.10, commit bc8a8ce5e), absent at v0.10.0 6d8d0a24c0"
	// srcMambaDTypes: CacheConfig.mamba_cache_dtype / mamba_ssm_cache_dtype
	// and their flags appear at v0.10.1 (aab549870d; absent at v0.10.0
	// 6d8d0a24c0) and are still at v0.24.0 (ee0da84ab9). MambaDType is
	// Literal["auto", "float32"] at v0.10.1 and adds "float16", "bfloat16"
	// by v0.24.0, so the values are not checked.
	srcMambaDTypes = srcKzTags + ": cache_group.add_argument(\"--mamba-cache-dtype\"/\"--mamba-ssm-cache-dtype\") present at v0.10.1 aab549870d, absent at v0.10.0 6d8d0a24c0, present at v0.24.0 ee0da84ab9; " +
		"vllm/config/cache.py MambaDType = Literal[auto, float32] at v0.10.1, [auto, float32, float16, bfloat16] at v0.24.0"
	// srcMambaBlockSize: --mamba-block-size (CacheConfig.mamba_block_size,
	// int > 0 or None) appears at v0.11.1 (439368496d; absent at v0.11.0
	// b8b302cde4), still at v0.24.0.
	srcMambaBlockSize = srcKzTags + ": cache_group.add_argument(\"--mamba-block-size\") present at v0.11.1 439368496d (vllm/config/cache.py mamba_block_size: int | None = Field(default=None, gt=0)), absent at v0.11.0 b8b302cde4, present at v0.24.0 ee0da84ab9"
	// srcEngineUseRay: AsyncEngineArgs' --engine-use-ray (store_true).
	// PR #7424 (merged 2024-08-14 as 70b746efc) makes AsyncLLMEngine
	// raise ValueError("`--engine-use-ray` is deprecated. Set
	// `VLLM_ALLOW_ENGINE_USE_RAY=1` to force use it") unless the variable
	// is set: in the v0.5.5 tag (09c7792610), not in v0.5.4 (4db5176d97).
	// PR #8126 ([misc] remove engine_use_ray, f842a7aff, 2024-09-11)
	// deletes the flag: present at v0.6.1 (3fd2b0d21c), absent at
	// v0.6.1.post1 (acda0b35d0), v0.6.1.post2 and v0.6.2 (7193774b1f).
	// Removed is v0.6.1.post1, the first release without it (versions
	// order post releases, version.go).
	srcEngineUseRay = srcKzTags + ": --engine-use-ray present at v0.6.1 3fd2b0d21c, absent at v0.6.1.post1 acda0b35d0 and v0.6.2 7193774b1f (PR #8126, [misc] remove engine_use_ray, commit f842a7aff); " +
		"PR #7424 (commit 70b746efc, in the v0.5.5 tag 09c7792610, not in v0.5.4) makes vllm/engine/async_llm_engine.py raise ValueError unless VLLM_ALLOW_ENGINE_USE_RAY=1"
)

var v061post1 = mustVersion("0.6.1.post1")

// v064post1 is where --lora-dtype lost float32 (flags_model_table.go).
var v064post1 = mustVersion("0.6.4.post1")

// qa39Flags are the flags of realin39's VL005 list.
var qa39Flags = []Flag{
	{Name: "device", Kind: String, Span: Span{Since: vPre, Removed: v0100}, Deprecated: v090, Verified: true,
		Doc: "device type (auto, cuda, cpu, ...); deprecated in 0.9.x and removed in 0.10.0: the platform is detected, drop the flag", Source: srcDeviceFlag},
	{Name: "mamba-cache-dtype", Kind: String, Default: "auto", Span: Span{Since: v0101}, Verified: true,
		Doc: "dtype of the Mamba (conv and SSM) state cache (auto, float32, ...; values not checked)", Source: srcMambaDTypes},
	{Name: "mamba-ssm-cache-dtype", Kind: String, Default: "auto", Span: Span{Since: v0101}, Verified: true,
		Doc: "dtype of the Mamba SSM state cache alone (auto follows --mamba-cache-dtype; values not checked)", Source: srcMambaDTypes},
	{Name: "mamba-block-size", Kind: Int, Span: Span{Since: v0111}, Verified: true,
		Doc: "tokens per Mamba state block for prefix caching of hybrid models (unset: derived)", Source: srcMambaBlockSize},
}

func init() { flagTable = append(flagTable, qa39Flags...) }
