package codes

import "github.com/vlaunch/vlaunch/diag"

// Estimate codes (ESTxxx): EST0xx resolving the input, EST1xx memory
// verdicts, EST2xx performance advice, EST3xx the layout search.
const (
	EstInput          diag.Code = "EST001"
	EstUnknownGPU     diag.Code = "EST002"
	EstBadLayout      diag.Code = "EST003"
	EstBadDType       diag.Code = "EST004"
	EstBadSetting     diag.Code = "EST005"
	EstVersionApprox  diag.Code = "EST006"
	EstNoKVMemory     diag.Code = "EST101"
	EstSeqTooLong     diag.Code = "EST102"
	EstShareNoFit     diag.Code = "EST103"
	EstGraphHeadroom  diag.Code = "EST104"
	EstAboveMaxSeqs   diag.Code = "EST105"
	EstUpcastWeights  diag.Code = "EST106"
	EstLenAboveConfig diag.Code = "EST107"
	EstKnownGap       diag.Code = "EST108"
	EstPPKVCheck      diag.Code = "EST109"
	// EstPDHandoffRefused: a P/D hand-off vLLM cannot make for this model
	// in this release (pd.Transfer.Refused): the engines stop at start-up.
	EstPDHandoffRefused diag.Code = "EST110"
	EstFasterAll2All    diag.Code = "EST201"
	EstTPAcrossNodes    diag.Code = "EST202"
	// EstAPIServersThin: an explicit vllm.api_server_count that puts
	// fewer API-server processes in front of a replica's DP engines than
	// vLLM's default for its command (or one in front of several), said
	// by check with the simulated cost to the workload (check's, not
	// validate's: a validate rule that ran the simulator would reverse the
	// spec -> validate -> estimate flow).
	EstAPIServersThin diag.Code = "EST203"
	EstLayoutChosen   diag.Code = "EST301"
)

// estimateEntries are the EST codes in code order.
var estimateEntries = []Entry{
	{EstInput, "unresolvable-input", diag.Error, "The estimator cannot resolve the deployment"},
	{EstUnknownGPU, "est-unknown-gpu", diag.Error, "The estimator cannot resolve the GPU"},
	{EstBadLayout, "est-bad-layout", diag.Error, "Tensor, pipeline or data parallel size not positive"},
	{EstBadDType, "est-bad-dtype", diag.Error, "Weights or KV-cache dtype the estimator does not know for this model"},
	{EstBadSetting, "est-bad-setting", diag.Error, "An engine setting outside its range"},
	{EstVersionApprox, "est-version-approx", diag.Info, "The vLLM version is estimated with a neighbouring release"},
	{EstNoKVMemory, "no-kv-memory", diag.Error, "No GPU memory left for the KV cache"},
	{EstSeqTooLong, "sequence-too-long", diag.Error, "One max_model_len sequence does not fit in the KV cache"},
	{EstShareNoFit, "concurrency-no-fit", diag.Warning, "The fullest DP rank's share of the concurrency does not fit at once: vLLM queues the excess and preempts"},
	{EstGraphHeadroom, "cuda-graph-headroom", diag.Warning, "CUDA graphs may not fit in the memory outside vLLM's budget"},
	{EstAboveMaxSeqs, "above-max-num-seqs", diag.Warning, "The fullest rank gets more sequences than max_num_seqs"},
	{EstUpcastWeights, "converted-weights", diag.Info, "Weights differ from what the checkpoint ships"},
	{EstLenAboveConfig, "max-model-len-above-config", diag.Error, "max_model_len above the model's max_position_embeddings"},
	{EstKnownGap, "memory-known-gap", diag.Warning, "Fits as predicted, but not at the low end of a known memory gap"},
	{EstPPKVCheck, "pp-kv-check-false-refusal", diag.Error, "vLLM's start-up KV check counts every layer on every pipeline stage and refuses a deployment whose stages fit"},
	{EstPDHandoffRefused, "pd-handoff-refused", diag.Error, "A state model's P/D hand-off vLLM cannot make in this release: a pool's engine stops at start-up"},
	{EstFasterAll2All, "faster-all2all", diag.Warning, "Another all-to-all backend is predicted to be materially faster"},
	{EstTPAcrossNodes, "tp-across-nodes", diag.Warning, "Tensor parallelism spans nodes and its all-reduces take a large share of the step"},
	{EstAPIServersThin, "api-servers-thin", diag.Warning, "An api_server_count below vLLM's default for the command puts few API-server processes in front of many DP engines"},
	{EstLayoutChosen, "auto-layout", diag.Info, "The layout `parallelism: auto` chose"},
}
