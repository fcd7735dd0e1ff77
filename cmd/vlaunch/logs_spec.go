package main

import (
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/logs"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// compareWithSpec fills the report's logged-vs-predicted comparison with
// the estimate for the spec (validated and with its layout settled as
// check does). This is the one place `vlaunch logs` reads the estimator.
// A prefill/decode-disaggregated spec predicts each pool as the colocated
// deployment it is (resolve.Role.Deployment, as check's estimate.CheckPD
// does); each engine is assigned to its pool (logs.AssignPools: its logged
// kv_role, else its file, pod or host) and compared with that pool's
// prediction — or with neither when its pool cannot be told.
func compareWithSpec(s *streams, rep *logs.Report, path, format string) error {
	st, err := settleSpec(s, path, false, "", diagFormat(format), simPerf)
	if err != nil {
		return err
	}
	r := st.r
	if r.PD == nil {
		logs.Compare(rep, prediction(r))
		return nil
	}
	var pools []logs.Pool
	preds := map[string]logs.Prediction{}
	for _, role := range r.PD.Roles {
		p := logs.Pool{Name: role.Name, KVRole: role.KVRole}
		for _, n := range role.Deployment.Nodes {
			p.Nodes = append(p.Nodes, n.Name, n.Address)
		}
		pools = append(pools, p)
		preds[role.Name] = prediction(role.Deployment)
	}
	logs.AssignPools(rep, pools)
	logs.ComparePools(rep, preds)
	return nil
}

// prediction is the estimate for one colocated deployment (the spec, or
// one pool of a disaggregated one), as the comparison reads it.
func prediction(r *resolve.Deployment) logs.Prediction {
	in := estimate.FromResolved(r)
	pred := predictionOf(&in, estimate.Memory(&in))
	pred.ModelNames = r.Model.Names(r.Spec.Model.Path, r.Spec.Model.ServedName)
	// An engine that logged "FlashInfer is not available" ran the profile
	// with the PyTorch sort: VLLM_USE_FLASHINFER_SAMPLER=0 stands in for the
	// missing package, as in the calibration replay (calBuild).
	sorting := in
	sorting.Env = map[string]string{}
	for k, v := range in.Env {
		sorting.Env[k] = v
	}
	sorting.Env[vllm.FlashInferSamplerVariable] = "0"
	sp := predictionOf(&sorting, estimate.Memory(&sorting))
	pred.SortingSampler = &sp
	budget, items, _ := memory.EncoderProfile(&in)
	pred.EncoderBudgetTokens, pred.EncoderItems = int64(budget), items
	return pred
}

// predictionOf reads the figures of the first pipeline stage (rank 0, whose
// lines vLLM's driver prints) and the settings the estimate assumed.
func predictionOf(in *estimate.Input, m memory.Report) logs.Prediction {
	s := m.Stages[0]
	tokens := m.KVTokensPerRank
	if m.KV.DCP > 1 && m.KVTokensLogged > 0 {
		tokens = m.KVTokensLogged // the rank's tokens × DCP, as the log prints them
	}
	return logs.Prediction{
		Version: in.VLLMVersion, TP: in.Layout.TP, PP: in.Layout.PP, DP: in.Layout.DP,
		DeviceGiB: m.PerGPU.DeviceGiB, Utilization: in.GPUMemoryUtilization,
		MaxModelLen: in.MaxModelLen, MaxNumBatchedTokens: in.MaxNumBatchedTokens, BlockSize: in.BlockSize,
		KVCacheDType: in.KVCacheDType,
		WeightsGiB:   s.WeightsGiB, ActivationGiB: s.Activation.PeakGiB, NonTorchGiB: s.NonTorchGiB,
		AvailableKVGiB: s.AvailableKVGiB, KVTokens: tokens, MaxConcurrency: m.MaxConcurrencyAtMaxModelLen, DCP: in.DCPSize(),
		KVBytesPerToken: s.KV.BytesPerToken,
		SequenceBytes:   func(n int) int64 { return s.KV.SequenceBytes(n, in.BlockSize) },
		OneSequenceFits: m.Capacity.OneSequenceFits,
		// the memory model's count of the logged quantity (qa44c F5)
		LoggedKVTokens: func(avail float64) (int64, bool) {
			asConc, _ := in.Release().KVTokensAsConcurrency()
			return s.KV.ReportedTokens(avail, in.MaxModelLen, asConc == vllm.Present)
		},
	}
}
