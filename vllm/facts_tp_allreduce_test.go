package vllm

import "testing"

// TestTPAllReduceKernelPerRelease: which kernel one TP all-reduce runs
// with, release by release, at decode sizes. By hand from the tables
// (facts_tp_allreduce.go): on 8 H100s the custom all-reduce takes < 256 KiB
// once symmetric memory is up (v0.11.0), symmetric memory's multimem the
// rest to 64 MiB; at v0.10.2 symmetric memory is off by default, so the
// custom all-reduce takes up to 8 MiB. From v0.17.0 the -O2 fusion takes
// ≤ 0.5 MiB on 8 H100s (1 MiB on 8 B200s) first. B300 (10.3) has no entry
// before v0.19.0 (custom all-reduce to 8 MiB, no fusion).
func TestTPAllReduceKernelPerRelease(t *testing.T) {
	const kib = 1024.0
	h100x8 := TPARQuery{TP: 8, NVIDIA: true, SM: 90, NVSwitch: true, Compiled: true}
	at := func(q TPARQuery, f func(*TPARQuery)) TPARQuery { f(&q); return q }
	bytes := func(b float64) func(*TPARQuery) { return func(q *TPARQuery) { q.Bytes = b } }
	for _, tc := range []struct {
		name, version string
		q             TPARQuery
		want          TPARKernel
		fusedMax      float64
	}{
		{"H100×8 160 KiB, 0.10.2", "0.10.2", at(h100x8, bytes(160*kib)), TPARCustom, 0},
		{"H100×8 1.6 MiB, 0.10.2: symm mem off by default", "0.10.2", at(h100x8, bytes(1600*kib)), TPARCustom, 0},
		{"H100×8 10 MiB, 0.10.2", "0.10.2", at(h100x8, bytes(10*mib)), TPARNCCL, 0},
		{"H100×8 160 KiB, 0.11.0", "0.11.0", at(h100x8, bytes(160*kib)), TPARCustom, 0},
		{"H100×8 256 KiB, 0.11.0: not below the cap", "0.11.0", at(h100x8, bytes(256*kib)), TPARSymmMemMultimem, 0},
		{"H100×8 1.6 MiB, 0.15.0", "0.15.0", at(h100x8, bytes(1600*kib)), TPARSymmMemMultimem, 0},
		{"H100×8 160 KiB, 0.16.0: no fusion yet", "0.16.0", at(h100x8, bytes(160*kib)), TPARCustom, 0},
		{"H100×8 160 KiB, 0.17.0: fused", "0.17.0", at(h100x8, bytes(160*kib)), TPARFlashInferFused, 512 * kib},
		{"H100×8 512 KiB, 0.17.0: fused at the edge", "0.17.0", at(h100x8, bytes(512*kib)), TPARFlashInferFused, 512 * kib},
		{"H100×8 1.6 MiB, 0.17.0: above the fusion", "0.17.0", at(h100x8, bytes(1600*kib)), TPARSymmMemMultimem, 512 * kib},
		{"H100×8 160 KiB, 0.24.0, eager: no fusion", "0.24.0", at(h100x8, func(q *TPARQuery) { q.Bytes, q.Compiled = 160*kib, false }), TPARCustom, 0},
		{"H100×8 64 MiB, 0.24.0", "0.24.0", at(h100x8, bytes(65*mib)), TPARNCCL, 512 * kib},
		{"H100×4 1 MiB, 0.24.0: fusion to 2 MiB", "0.24.0", at(h100x8, func(q *TPARQuery) { q.TP, q.Bytes = 4, mib }), TPARFlashInferFused, 2 * mib},
		{"H100×4 4 MiB, 0.15.0: custom below 32 MiB", "0.15.0", at(h100x8, func(q *TPARQuery) { q.TP, q.Bytes = 4, 4*mib }), TPARCustom, 0},
		{"H100×6 1 MiB, 0.24.0: no fusion at TP 6", "0.24.0", at(h100x8, func(q *TPARQuery) { q.TP, q.Bytes = 6, mib }), TPARSymmMemMultimem, 0},
		{"fusion capped by max_num_batched_tokens", "0.24.0", at(h100x8, func(q *TPARQuery) { q.Bytes, q.MaxBatchedTokens, q.Hidden = 160*kib, 8, 8192 }), TPARCustom, 128 * kib},
		{"B200×8 512 KiB, 0.15.0: custom below 1 MiB", "0.15.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 100, 512*kib }), TPARCustom, 0},
		{"B200×8 1 MiB, 0.15.0: multimem", "0.15.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 100, mib }), TPARSymmMemMultimem, 0},
		{"B200×8 1 MiB, 0.17.0: fused", "0.17.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 100, mib }), TPARFlashInferFused, mib},
		{"B200×4 4 MiB, 0.15.0: two-shot (no multimem at 4)", "0.15.0", at(h100x8, func(q *TPARQuery) { q.SM, q.TP, q.Bytes = 100, 4, 4*mib }), TPARSymmMemTwoShot, 0},
		{"B300×8 2 MiB, 0.18.0: no 10.3 entry", "0.18.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 103, 2*mib }), TPARCustom, 0},
		{"B300×8 4 MiB, 0.19.0: above fusion's 2 MiB, multimem", "0.19.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 103, 4*mib }), TPARSymmMemMultimem, 2 * mib},
		{"B300×8 2 MiB, 0.19.0: fused", "0.19.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 103, 2*mib }), TPARFlashInferFused, 2 * mib},
		{"A100×8 1 MiB, 0.24.0: no tables, custom to 8 MiB", "0.24.0", at(h100x8, func(q *TPARQuery) { q.SM, q.Bytes = 80, mib }), TPARCustom, 0},
		{"PCIe ×4: NCCL", "0.24.0", at(h100x8, func(q *TPARQuery) { q.TP, q.NVSwitch, q.Bytes = 4, false, 64*kib }), TPARNCCL, 0},
		{"PCIe ×2: custom", "0.24.0", at(h100x8, func(q *TPARQuery) { q.TP, q.NVSwitch, q.Bytes = 2, false, 64*kib }), TPARCustom, 0},
		{"ROCm", "0.24.0", at(h100x8, func(q *TPARQuery) { q.NVIDIA = false }), TPARUnknown, 0},
		{"TP 1", "0.24.0", at(h100x8, func(q *TPARQuery) { q.TP = 1 }), TPARNone, 0},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		c := r.TPAllReduce(tc.q)
		if c.Kernel != tc.want || c.FusedMaxBytes != tc.fusedMax {
			t.Errorf("%s: %q (fused max %.0f), want %q (%.0f); %s", tc.name, c.Kernel, c.FusedMaxBytes, tc.want, tc.fusedMax, c.Why)
		}
		if c.Source == "" {
			t.Errorf("%s: no source", tc.name)
		}
	}
}
