package perf

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// UseQKNormAllHeadsAllReduce prices MiniMax-M2's q/k RMSNorm over all
// heads at once (catalog.Model.QKNormAllHeads, vLLM's
// MiniMaxText01RMSNormTP) at TP > 1, which the kernel census (eager.go)
// and the TP all-reduce count (tpReducesPerStage) leave out: each rank
// holds its heads' share of the normalised width, so the mean of squares
// is summed over the TP group by an all-reduce of its own before q and k
// are scaled — one more all-reduce per attention layer, latency-bound
// (a few float32 per token), and the kernels around it.
//
// What vLLM runs, read at the release tags (vllm-project/vllm):
//   - v0.14.0 to v0.22.0 (v0.16.0 read line by line):
//     vllm/model_executor/models/minimax_m2.py MiniMaxM2Attention.forward
//     calls MiniMaxText01RMSNormTP.forward_qk (vllm/model_executor/layers/
//     mamba/linear_attn.py): q_var and k_var (x.pow(2).mean over the rank's
//     width, float32), torch.cat of the two, tensor_model_parallel_all_reduce
//     of that [tokens, 2] tensor divided by tp_world, then q and k scaled by
//     rsqrt(var + eps) and the weight. The reduction cannot fuse with the
//     scaling across the all-reduce, so Inductor (custom_ops "none", the V1
//     default, as qknorm.go reads it) emits, counted as written, a
//     statistics kernel per norm, the all-reduce, and a scaling kernel per
//     norm: 5 kernels, 1 all-reduce of tokens × 2 × 4 B.
//   - v0.12.0 and v0.13.0: q_norm(q) and k_norm(k) separately
//     (MiniMaxText01RMSNormTP._forward, one all-reduce of tokens × 4 B each):
//     6 kernels, 2 all-reduces.
//   - v0.23.0 and v0.24.0: MiniMaxText01RMSNormTP.forward_qkv calls
//     torch.ops.vllm.minimax_qk_norm_fusion at TP > 1 (vllm/model_executor/
//     layers/minimax_rms_norm/rms_norm_tp.py): one kernel that exchanges
//     the statistics through its own workspace; priced as one kernel and
//     one all-reduce of the statistics' size (the exchange is still a
//     cross-GPU round trip), its own kernel's speed not measured.
//
// The opt-in pass fuse_minimax_qk_norm (vllm/config/compilation.py from
// v0.20.0, default None, not set by the optimization levels in
// vllm/config/vllm.py at v0.20.0) is not modelled. At TP 1 forward_qk runs
// two ordinary RMSNorms, the per-head case UseQKNormKernels prices (off),
// so nothing is added here. OLMo 2/3 (also QKNormAllHeads) all-gather q and
// k instead (olmo2.py Olmo2Attention._apply_qk_norm): not this mechanism,
// not priced here.
var UseQKNormAllHeadsAllReduce = true

// qkNormTP is the all-heads q/k norm's cost per attention layer at TP > 1:
// the kernels it adds (its all-reduce's included, as the census counts
// the others'), the all-reduces, and each all-reduce's message per token.
type qkNormTP struct {
	kernels, reduces, bytesPerToken float64
}

// qkNormTPFusedSince is the first release read that runs the fused
// minimax_qk_norm_fusion op; qkNormTPJointSince the first that reduces
// q's and k's statistics in one all-reduce (forward_qk).
var (
	qkNormTPFusedSince = vllm.Version{Major: 0, Minor: 23}
	qkNormTPJointSince = vllm.Version{Major: 0, Minor: 14}
)

// qkNormTPCost is the all-heads q/k norm's TP cost for m under s (zero
// when it does not apply). A release not known to the step (TPAR unknown)
// is priced as forward_qk, the form of the releases from v0.14.0 to
// v0.22.0.
func qkNormTPCost(m *catalog.Model, s *StepSetup) qkNormTP {
	if !UseQKNormAllHeadsAllReduce || s.SGLang || s.TP <= 1 || !m.QKNormAllHeads || olmoTypes(m) {
		return qkNormTP{}
	}
	if s.TPAR.Known {
		v := s.TPAR.Release.Version
		switch {
		case v.AtLeast(qkNormTPFusedSince):
			return qkNormTP{kernels: 1, reduces: 1, bytesPerToken: 2 * 4}
		case v.Less(qkNormTPJointSince):
			return qkNormTP{kernels: 6, reduces: 2, bytesPerToken: 4}
		}
	}
	return qkNormTP{kernels: 5, reduces: 1, bytesPerToken: 2 * 4}
}

// olmoTypes reports whether m is an OLMo 2/3 model, whose all-heads norm
// gathers q and k rather than reducing statistics (above).
func olmoTypes(m *catalog.Model) bool {
	return m.ModelType == "olmo2" || m.ModelType == "olmo3"
}

// qkNormTPTime is the all-reduces' time of one step's all-heads q/k norms
// over the stage's attention layers, at maxRank tokens on the busiest
// rank; the message is never fused with an RMSNorm.
func (sm *StepModel) qkNormTPTime(maxRank float64) float64 {
	c := sm.qkNormTP
	if c.reduces == 0 || maxRank <= 0 {
		return 0
	}
	t, _ := sm.tpAllReduceK(maxRank*c.bytesPerToken, false)
	return sm.attnLayers * c.reduces * t
}
