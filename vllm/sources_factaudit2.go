package vllm

// Release files read in the third fact audit (issue #23, factaudit2). Each
// is a whole tree at a release commit, read with git in a fork snapshot
// that carries upstream's history, or one file of a third-party checkout:
//
//   - v0.9.0: the tag commit 587387724 (srcTag090), in github.com/Yuran-7/vllm-0.11.
//   - v0.11.0: the tag commit b8b302cde434 (srcTag0110), same snapshot.
//   - v0.16.0: the release branch in github.com/jinhuang12/vllm (branch
//     v0.16.0, head 2d5be1dd5: khluu's "release script" commit, CI files
//     only, over upstream's release branch, whose newest commit is #34385,
//     2026-02-11; branched from main at 22b64948f, 2026-02-09).
//   - v0.19.0: upstream commit 2a69949bd (2026-04-02), which the same fork's
//     merge "Merge upstream vllm v0.19.0 (2a69949bd)" names as the release.
//   - v0.21.0: github.com/miznchimaki/domesticated_vllm-v0.21.0, a
//     third-party checkout of 0.21.0 (vllm/envs.py at 535947a1: "Enabled by
//     default as of v0.21.0"; vllm/v1/sample/ops/topk_topp_sampler.py at
//     ae9bec9f). Its own changes add MLU files; the files cited are
//     upstream's text as far as they were compared with 0.19.0's.
//
// Merge dates of the pull requests come from upstream's main history in the
// github.com/local-inference-lab/vllm snapshot (to 2026-05-19).
const (
	srcFA090  = "v0.9.0 tag 587387724 (Yuran-7/vllm-0.11 snapshot)"
	srcFA0110 = "v0.11.0 tag b8b302cde434 (Yuran-7/vllm-0.11 snapshot)"
	srcFA016  = "v0.16.0 release branch 2d5be1dd5 (jinhuang12/vllm branch v0.16.0; upstream release branch to #34385)"
	srcFA019  = "v0.19.0 commit 2a69949bd (jinhuang12/vllm: \"Merge upstream vllm v0.19.0 (2a69949bd)\")"
	srcFA021  = "v0.21.0 third-party checkout miznchimaki/domesticated_vllm-v0.21.0 (vllm/envs.py 535947a1, vllm/v1/sample/ops/topk_topp_sampler.py ae9bec9f)"
)

// Env and flag evidence of the third audit, one constant per fact.
const (
	srcFAMoEDPChunk = "vllm/envs.py: absent at " + srcFA090 + "; added by PR #19506 (merged 2025-06-12); present at " + srcFA0110 + ", " + srcFA016 + ", " + srcFA019 +
		"; removed by PR #39107 ([MoE Refactor] Remove MoE DP chunking, merged 2026-04-14); present at the v0.19.1 tag, absent at the v0.19.2rc0 and v0.20.0 tags (kzwrime/vllm) and at " + srcFA021 + "; 0.9.1-0.10.x unverified"
	srcFARandomizeDP  = "vllm/envs.py: absent at " + srcFA090 + "; added by PR #19298 (merged 2025-06-09); present at " + srcFA0110 + ", " + srcFA016 + ", " + srcFA021 + "; 0.9.1-0.10.x unverified"
	srcFADeepEPBuffer = "vllm/envs.py: added by PR #24845 (DBO DeepEP high throughput, merged 2025-09-23, with VLLM_DBO_COMM_SMS); present at " + srcFA0110 + ", " + srcFA016 + ", " + srcFA021 +
		"; 0.10.2 (released before the merge) not read"
	srcFAMoEDeepGEMM = "vllm/envs.py: absent at " + srcFA0110 + "; added by PR #28422 (merged 2025-11-10); present at " + srcFA016 + ", " + srcFA021 + "; 0.11.1-0.15.x unverified"
	srcFARayPack     = "vllm/envs.py: absent at " + srcFA0110 + "; added by PR #23849 (merged 2025-10-09); present at " + srcFA016 + " and " + srcFA021 +
		" as a plain os.getenv (no validation; the TYPE_CHECKING Literal names strict, fill, span); 0.11.1-0.15.x unverified"
	srcFADeepGEMMWarmup = "vllm/envs.py: absent at " + srcFA0110 + " (PR #25619 merged 2025-10-13, after the tag); present at " + srcFA016 + ", " + srcFA021
	srcFARayExtra       = "vllm/envs.py and vllm/ray/ray_env.py: absent at " + srcFA016 + "; PR #34383 merged 2026-02-17 on main (after the 0.16.0 branch); present at " +
		srcFA019 + " (ray_env.py prefixes VLLM_, LMCACHE_, ..., PYTHONHASHSEED) and " + srcFA021 + "; 0.17.x-0.18.x unverified"
	srcFAGraphMemEnv = "vllm/envs.py: absent at " + srcFA0110 + " and " + srcFA016 + "; PR #30515 merged 2026-03-07; present at " + srcFA019 + " (default \"0\") and " +
		srcFA021 + " (default \"1\": \"Enabled by default as of v0.21.0\"); 0.17.x-0.18.x unverified"
	srcFATritonFlashAttn = "vllm/envs.py: present at " + srcFA090 + " and " + srcFA0110 + "; removed by PR #27611 (V0 variable deprecation, merged 2025-11-11); absent at " + srcFA016 + "; absent at the v0.11.1 tag (flagspans45)"
	srcFAProfilerDir     = "vllm/envs.py: present at " + srcFA090 + " and " + srcFA0110 + "; removed by PR #33722 ([Deprecation] Deprecate profiling envs, merged 2026-02-04; the v0.16.0 tree reads it nowhere); absent at " +
		srcFA016 + "; 0.11.1-0.15.x unverified"
	srcFAForceTensorCores = "vllm/envs.py: present at " + srcFA090 + "; removed by PR #23214 (Always use tensor cores for FlashInfer decode, merged 2025-08-21); absent at " + srcFA0110 + "; 0.10.1-0.10.2 unverified"
)

// All-to-all backends, KV connectors and flags read in the third audit.
const (
	srcFAA2A016 = "vllm/config/parallel.py All2AllBackend at " + srcFA016 + ": naive, pplx, deepep_high_throughput, deepep_low_latency, mori, allgather_reducescatter, flashinfer_all2allv; at " +
		srcFA019 + " also nixl_ep (PR #35627, merged 2026-03-13), flashinfer_nvlink_two_sided and flashinfer_nvlink_one_sided (PR #36022, merged 2026-03-15); 0.17.x-0.18.x unverified"
	srcFAConnectors = "vllm/distributed/kv_transfer/kv_connector/factory.py at " + srcFA016 + " (Example, P2pNccl, LMCacheConnectorV1, LMCacheMP, Nixl, Multi, MoRIIO, Offloading, DecodeBench, Mooncake) and " +
		srcFA019 + " (also ExampleHiddenStates, FlexKVConnectorV1, SimpleCPUOffload; no HF3FSKVConnector)"
	srcFAExternalLB = "vllm/engine/arg_utils.py at " + srcFA0110 + " has no --data-parallel-external-lb (external LB is inferred from --data-parallel-rank; ParallelConfig.data_parallel_external_lb is a field, not a flag); " +
		"PR #23691 (merged 2025-11-16) added the flag (-dpe); present at " + srcFA016 + "; 0.11.1-0.15.x unverified"
	srcFARope          = "vllm/engine/arg_utils.py: --rope-scaling/--rope-theta at " + srcFA0110 + "; removed by PR #28006 (Remove deprecated --rope-scaling and --rope-theta, merged 2025-11-04); absent at " + srcFA016 + "; absent at the v0.11.1 tag (flagspans45)"
	srcFALogitsPattern = "vllm/engine/arg_utils.py: --logits-processor-pattern at " + srcFA016 + "; removed by PR #34400 (merged 2026-02-12); absent at " + srcFA019 + " (only protocol.py's message still names it); 0.17.x-0.18.x unverified"
	srcFAPreemption    = "vllm/engine/arg_utils.py: --preemption-mode removed by PR #25334 ([V0 Deprecation] Remove async_output_proc, preemption mode, delay factor, merged 2025-09-21); absent at " + srcFA0110 + "; 0.10.2 unverified"
	srcFAFrontendMP    = "vllm/entrypoints/openai/cli_args.py FrontendArgs.disable_frontend_multiprocessing at " + srcFA016 + "; PR #37612 (merged 2026-03-20) removed it; the " + srcFA019 + " tree names it nowhere"
	srcFAReasoning     = "vllm/engine/arg_utils.py vllm_group.add_argument(\"--reasoning-config\") at " + srcFA019 + " (PR #20859, merged 2026-03-24; main keeps it through 2026-05-19); " +
		"issue #42399 reports \"unrecognized arguments: --reasoning-config\" on the vllm/vllm-openai:v0.20.1 image, which the 0.19.0 source and main's history (no removal) contradict: unresolved, the source is kept; 0.18.x unverified"
	srcFAKVBytes  = "vllm/engine/arg_utils.py cache_group.add_argument(\"--kv-cache-memory-bytes\") at " + srcFA0110 + " (PR #21489, merged 2025-09-11); 0.10.2 unverified"
	srcFANotIn019 = "absent from vllm/engine/arg_utils.py and vllm/entrypoints at " + srcFA019
	srcFAIn016    = "present in vllm/engine/arg_utils.py or FrontendArgs at " + srcFA016
	srcFAIn019    = "present in vllm/engine/arg_utils.py at " + srcFA019
	srcFAIn0110   = "present in vllm/engine/arg_utils.py at " + srcFA0110
)
