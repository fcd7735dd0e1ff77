package vllm

// Primary sources read for the tables, each naming the release it shows.
// docs.vllm.ai API pages render the release's own source files; "usage" is
// the argparse synopsis at the top of a versioned engine-args page; a
// "Namespace" is the `args: Namespace(...)` line vLLM printed in a log quoted
// in an issue. An entry cites the ones that show it.
const (
	// srcUsagePre05 is the argparse synopsis of the stale
	// docs.vllm.ai/en/latest/models/engine_args.html page (a pre-0.5
	// release: "-m vllm.entrypoints.openai.api_server" usage).
	srcUsagePre05 = "docs.vllm.ai/en/latest/models/engine_args.html (stale pre-0.5 usage)"
	srcUsage050   = "docs.vllm.ai/en/v0.5.0/models/engine_args.html usage"
	srcUsage063   = "docs.vllm.ai/en/v0.6.3.post1/models/engine_args.html usage"
	srcUsage066   = "docs.vllm.ai/en/v0.6.6.post1/usage/engine_args.html usage"
	srcUsage081   = "docs.vllm.ai/en/v0.8.1/serving/engine_args.html usage"
	srcUsage084   = "docs.vllm.ai/en/v0.8.4/serving/engine_args.html usage"
	srcUsage085   = "docs.vllm.ai/en/v0.8.5/serving/engine_args.html usage"
	// srcNS061 is the Namespace vLLM 0.6.1.dev238 printed (issue #7514):
	// every frontend field in it existed in 0.6.1.
	srcNS061 = "args Namespace of vLLM 0.6.1.dev238 (issue #7514)"
	// srcDist05 is docs.vllm.ai serving/distributed_serving for 0.5.0.post1
	// and 0.5.1: mp by default on one node, Ray otherwise; multi-node
	// requires Ray.
	srcDist05   = "docs.vllm.ai/en/v{0.5.0.post1,0.5.1}/serving/distributed_serving (\"multi-node inferencing currently requires Ray\")"
	srcServe090 = "docs.vllm.ai/en/v0.9.0/api/vllm/entrypoints/cli/serve (cmd: headless or run_server; no api_server_count)"
	srcServe091 = "docs.vllm.ai/en/v{0.9.1,0.10.0,0.11.0,0.12.0}/api/vllm/entrypoints/cli/serve (api_server_count < 1 means headless)"
	// srcASCUnset150: the unset default and the headless refusal arrive
	// together in v0.15.0 (qa44a F7, read at the tags).
	srcASCUnset150 = "vllm/entrypoints/openai/cli_args.py --api-server-count default=1 at v0.14.1 (d7de043d55), default=None at v0.15.0 (f176443446); " +
		"vllm/entrypoints/cli/serve.py at v0.15.0 lines 53-59 raise ValueError(\"--api-server-count=N cannot be used with --headless\") when headless and the count > 0, " +
		"while v0.14.1's serve.py (line 53) runs headless and ignores the count"
	srcServe016 = "docs.vllm.ai/en/v{0.16.0,0.18.1,0.22.1}/api/vllm/entrypoints/cli/serve (headless forbids --api-server-count > 0; LB mode detection)"
	srcPar0112  = "docs.vllm.ai/en/v0.11.2/api/vllm/config/parallel (no All2AllBackend Literal; EPLBConfig without use_async)"
	srcPar014   = "docs.vllm.ai/en/v0.14.0/api/vllm/config/parallel (All2AllBackend Literal: naive, pplx, deepep_high_throughput, deepep_low_latency, allgather_reducescatter, flashinfer_all2allv)"
	srcA2A092   = "docs.vllm.ai/en/v0.9.2/api/vllm/distributed/device_communicators/all2all (DeepEPAll2AllManagerBase, no AgRsAll2AllManager)"
	srcA2A0901  = "docs.vllm.ai/en/v0.9.0.1/api/vllm/distributed/device_communicators/all2all (first class NaiveAll2AllManager: no AgRs or DeepEP managers, which sort before it)"
	srcA2A0110  = "docs.vllm.ai/en/v0.11.0/api/vllm/distributed/device_communicators/all2all (AgRsAll2AllManager)"
	srcEnv0901  = "docs.vllm.ai/en/v0.9.0.1/api/vllm/envs (VLLM_ALL2ALL_BACKEND: str = 'naive')"
	srcEnv01011 = "docs.vllm.ai/en/v0.10.1.1/api/vllm/envs (VLLM_ALL2ALL_BACKEND: str = 'naive')"
	srcEnv0110  = "docs.vllm.ai/en/v{0.11.0,0.11.1,0.12.0}/api/vllm/envs (VLLM_ALL2ALL_BACKEND Literal incl. allgather_reducescatter, default allgather_reducescatter)"
	// srcPR23964 dates the allgather_reducescatter backend: committed to main
	// on 2025-09-18 (commit report yan97ao/argus issue #251), after the
	// 0.10.2 release, so 0.11.0 is the first release with it.
	srcPR23964  = "PR #23964 committed 2025-09-18 (yan97ao/argus issue #251 commit report), after 0.10.2"
	srcConfig09 = "docs.vllm.ai/en/v{0.9.0,0.9.2}/api/vllm/config (BlockSize Literal[1,8,16,32,64,128]; CacheDType auto/fp8/fp8_e4m3/fp8_e5m2; DistributedExecutorBackend ray/mp/uni/external_launcher; LoRADType; ModelDType)"
	srcCacheLit = "docs.vllm.ai/en/v{0.10.2,0.11.1,0.16.0}/api/vllm/config/cache (BlockSize and CacheDType Literals; gpu_memory_utilization 0.9)"
	srcDP080    = "docs.vllm.ai/en/v0.8.0/getting_started/examples/data_parallel.html (offline DP through VLLM_DP_* variables, VLLM_USE_V1=1)"
	srcDP083    = "docs.vllm.ai/en/v0.8.3/getting_started/examples/data_parallel.html (offline DP; no vllm serve DP flags used)"
	srcSpec064  = "docs.vllm.ai/en/v{0.5.1,0.6.4,0.7.1} spec_decode (speculative_model=..., num_speculative_tokens=...)"
	srcSpec082  = "docs.vllm.ai/en/v0.8.2/_sources/features/spec_decode.md and raw v0.10.0 docs (speculative_config={...})"
	srcSpec011  = "docs.vllm.ai/en/v0.11.0/api/vllm/config/speculative (SpeculativeMethod Literal)"
	srcSpec012  = "docs.vllm.ai/en/v0.12.0/api/vllm/config/speculative (SpeculativeMethod Literal with EagleModelTypes/MTPModelTypes)"
)

// srcNnodes is the evidence for the --nnodes family: PR #23691 opened
// 2025-08-26; the error newer releases raise when TP x PP exceeds a node
// names --nnodes; vllm-facts.md (secondary) saw the flags in 0.12-era docs.
const srcNnodes = "PR #23691 (opened 2025-08-26); 'set --nnodes appropriately' in the executor-selection error of the stored vllm/config/parallel.py; " +
	"present in 0.12-era docs per vllm-facts.md (secondary); read at the v0.11.1 tag: vllm/engine/arg_utils.py add_argument(\"--master-addr\", \"--master-port\", \"--nnodes\"/-n, \"--node-rank\"/-r), absent at v0.11.0"
