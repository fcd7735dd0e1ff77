package perf

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// derivedKernels is the part of tools/aicdata/derived.json the table of
// kernels.go is read from.
type derivedKernels struct {
	Systems map[string]struct {
		GEMM map[string]struct {
			FracPeakByM []float64 `json:"frac_peak_by_m"`
			M1FracHBM   float64   `json:"m1_fit_frac_hbm"`
			MinUs       float64   `json:"min_latency_us"`
		} `json:"gemm"`
		Attention struct {
			DecodeMinUs float64 `json:"decode_min_latency_us"`
			DecodeFit   struct {
				PerSeqUs float64 `json:"per_seq_us"`
			} `json:"decode_fit_kv_ge_128MiB"`
			Prefill []float64 `json:"prefill_b1_frac_peak_by_isl"`
		} `json:"attention"`
		CustomAR []struct {
			GPUs      int     `json:"gpus"`
			MinUs     float64 `json:"min_us"`
			BusBWFrac float64 `json:"busbw_frac_intra_node_bw"`
		} `json:"vllm_custom_all_reduce"`
		NCCL map[string][]struct {
			GPUs    int     `json:"gpus"`
			MinUs   float64 `json:"min_us"`
			At16K   float64 `json:"us_16KiB"`
			At1M    float64 `json:"us_1MiB"`
			At16M   float64 `json:"us_16MiB"`
			BusGBps float64 `json:"busbw_GBps_largest"`
		} `json:"nccl"`
	} `json:"systems"`
}

// Every figure of measuredKernels is the one tools/aicdata derived from
// the pinned aiconfigurator tables (rounded as its README prints them):
// the table is copied by hand, and this keeps the copy honest.
func TestMeasuredKernelsAreTheDerivedFigures(t *testing.T) {
	data, err := os.ReadFile("../../tools/aicdata/derived.json")
	if err != nil {
		t.Fatal(err)
	}
	var d derivedKernels
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	near := func(what, id string, got, want, tol float64) {
		if math.Abs(got-want) > tol {
			t.Errorf("%s %s: table %.4g, derived %.4g", id, what, got, want)
		}
	}
	const m2048, isl1k = 5, 2 // indices of M = 2048 and of 1 Ki tokens on the derived axes
	for id, k := range measuredKernels {
		s, ok := d.Systems[k.System]
		if !ok {
			t.Errorf("%s: no system %q in derived.json", id, k.System)
			continue
		}
		bf := s.GEMM["bfloat16"]
		near("GEMM bf16", id, k.GEMMBF16, bf.FracPeakByM[m2048], 0.006)
		near("HBM", id, k.HBM, bf.M1FracHBM, 0.006)
		near("kernel floor", id, k.KernelS*1e6, bf.MinUs, 0.006)
		if fp, ok := s.GEMM["fp8"]; ok && k.GEMMFP8 > 0 {
			near("GEMM fp8", id, k.GEMMFP8, fp.FracPeakByM[m2048], 0.006)
		}
		near("decode attention floor", id, k.AttnDecodeS*1e6, s.Attention.DecodeMinUs, 0.006)
		near("decode attention per sequence", id, k.AttnPerSeqS*1e6, s.Attention.DecodeFit.PerSeqUs, 0.0006)
		for i, v := range k.PrefillAttn {
			near("prefill attention", id, v, s.Attention.Prefill[isl1k+i], 0.006)
		}
		if k.NCCL != nil {
			for op, pts := range map[string][]NCCLPoint{"all_reduce": k.NCCL.AllReduce, "all_gather": k.NCCL.AllGather, "reduce_scatter": k.NCCL.ReduceScatter} {
				rows := s.NCCL[op]
				if len(rows) != len(pts) {
					t.Errorf("%s NCCL %s: %d rows in the table, %d derived", id, op, len(pts), len(rows))
					continue
				}
				for i, p := range pts {
					r := rows[i]
					if p.GPUs != r.GPUs || p.MinUs != r.MinUs || p.At16KUs != r.At16K || p.At1MUs != r.At1M || p.At16MUs != r.At16M || p.BusGBps != r.BusGBps {
						t.Errorf("%s NCCL %s: table %+v, derived %+v", id, op, p, r)
					}
				}
			}
		}
		if k.AllReduceS > 0 {
			ar := s.CustomAR[len(s.CustomAR)-1] // the most GPUs measured
			near("all-reduce floor", id, k.AllReduceS*1e6, ar.MinUs, 0.006)
			near("all-reduce link share", id, k.AllReduceLink, min(1, ar.BusBWFrac), 0.006)
		}
	}
}
