package perf

import (
	"math"
	"testing"
)

// TestPPHandoffDSV3TP8PP4Over25G: DeepSeek-V3 TP 8 · PP 4, one stage per
// node of 8 H20, one 25 Gbit/s NIC per node (10 µs), a prefill chunk of T
// tokens on an idle engine. By hand (pphandoff.go, vLLM v0.11.0):
//
//	one TP rank's IntermediateTensors: hidden_states + residual,
//	  2 × T × 7168 × 2 B = 28,672·T B (T = 512: 14.68 MB; 8192: 234.9 MB)
//	multiprocess executor (--nnodes): each TP rank sends 1/8 of it, the
//	  node's NIC carries 28,672·T B per boundary; then the receiver
//	  all-gathers each of the two tensors over TP 8 on NVLink
//	Ray's compiled graph (vLLM 0.11.0 across nodes): every TP rank sends it
//	  whole, 8 × 28,672·T = 229,376·T B per boundary (512: 117.4 MB;
//	  8192: 1,879 MB)
//	25 Gbit/s = 3.125 GB/s (Link efficiency 1 here); the chunk crosses
//	  PP − 1 = 3 boundaries, in PP micro-batches of T/4 tokens, two tensor
//	  sends (latencies) each: PPS = 3 × bytes / 3.125 GB/s + 4 × 3 × 2 × 10 µs
//	  (+ 4 × 3 × 2 all-gathers of T/4 × 7168 × 2 B, multiprocess only)
//
//	T      executor   NIC bytes/boundary   link time × 3   latencies
//	512    mp            14.68 MB            14.09 ms       0.24 ms
//	512    Ray          117.44 MB           112.74 ms       0.24 ms
//	8192   mp           234.88 MB           225.49 ms       0.24 ms
//	8192   Ray         1879.05 MB          1803.88 ms       0.24 ms
//
// The printed NIC bytes of the step (PPInterBytesPerNode) are what the
// busiest node sends: PP micro-batches of T/4 each, the boundary's bytes.
func TestPPHandoffDSV3TP8PP4Over25G(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	hw := NewHardware(perfGPU(t, "h20-96g"), 8, 450, 2, 25, 1, 10)
	const lat = 10e-6
	for _, c := range []struct {
		tokens   float64
		ray      bool
		nicBytes float64 // per boundary, by hand
		linkS    float64 // 3 boundaries, by hand
	}{
		{512, false, 14.680064e6, 14.09286e-3},
		{512, true, 117.440512e6, 112.74289e-3},
		{8192, false, 234.881024e6, 225.48578e-3},
		{8192, true, 1879.048192e6, 1803.88626e-3},
	} {
		s := StepSetup{Model: m, HW: hw, TP: 8, PP: 4, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff, PPRayDAG: c.ray}
		sm := NewStepModel(s)
		st := sm.StepUniform(RankLoad{PrefillTokens: c.tokens, PrefillPairs: c.tokens * (c.tokens + 1) / 2, PrefillSeqs: 1})
		if got := st.PPInterBytesPerNode; math.Abs(got/c.nicBytes-1) > 1e-9 {
			t.Errorf("T=%v ray=%v: NIC bytes %.6g, want %.6g by hand", c.tokens, c.ray, got, c.nicBytes)
		}
		want := c.linkS + 4*3*2*lat
		if !c.ray {
			ag := LinkTime(7.0/8*c.tokens/4*7168*2, hw.IntraBytesPerS, 1, 1, 2*hw.IntraLatencyS+idealEff.CollectiveS)
			want += 4 * 3 * 2 * ag
		}
		if math.Abs(st.PPS/want-1) > 1e-4 {
			t.Errorf("T=%v ray=%v: PP hand-offs %.4f ms, want %.4f ms by hand", c.tokens, c.ray, st.PPS*1e3, want*1e3)
		}
	}

	// The earlier pricing (UsePPHandoffTensors off): one tensor, whole from
	// every GPU — the Ray bytes halved, whatever the executor.
	UsePPHandoffTensors = false
	defer func() { UsePPHandoffTensors = true }()
	sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 4, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff})
	st := sm.StepUniform(RankLoad{PrefillTokens: 8192, PrefillPairs: 8192 * 8193 / 2, PrefillSeqs: 1})
	if want := 1803.88626e-3/2 + 4*3*lat; math.Abs(st.PPS/want-1) > 1e-4 {
		t.Errorf("switch off: PP hand-offs %.4f ms, want %.4f ms", st.PPS*1e3, want*1e3)
	}
}

// TestPPHandoffBytesInPrefillNICBytes: the NIC bytes an idle prefill
// reports are the pipeline's hand-off bytes, chunk by chunk: 128,000 tokens
// through the busiest node on Ray, 128,000 × 229,376 B = 29.36 GB (one
// boundary's worth; the three boundaries' time is three times its link
// time). Without all-to-all (EP off) they are all of it.
func TestPPHandoffBytesInPrefillNICBytes(t *testing.T) {
	m := perfModel(t, "deepseek-v3")
	hw := NewHardware(perfGPU(t, "h20-96g"), 8, 450, 2, 25, 1, 10)
	for _, ray := range []bool{false, true} {
		sm := NewStepModel(StepSetup{Model: m, HW: hw, TP: 8, PP: 4, DP: 1, WeightDType: "fp8", KVDType: "fp8", CUDAGraphs: true, Eff: idealEff, PPRayDAG: ray})
		pt := sm.PrefillIdle(128000, 8192)
		want := 128000 * 28672.0
		if ray {
			want *= 8
		}
		if math.Abs(pt.InterBytesPerNode/want-1) > 1e-6 {
			t.Errorf("ray=%v: prefill NIC bytes %.4g GB, want %.4g GB", ray, pt.InterBytesPerNode/1e9, want/1e9)
		}
		if floor := 3 * want / 3.125e9; pt.NetworkS < floor {
			t.Errorf("ray=%v: communication %.3f s below the 3 boundaries' link time %.3f s", ray, pt.NetworkS, floor)
		}
	}
}
