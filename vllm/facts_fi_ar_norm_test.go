package vllm

import "testing"

// The FlashInfer all-reduce + RMSNorm workspace of MiniMax-M3's eager
// layers. Base case: the MiniMax-M3 start-up log (B200, SM 10.0, TP 2,
// hidden 6,144, read with 0.24.0's rules). By hand: 64 MiB / (6,144 × 2 B) =
// 5,461 tokens (the log's compile_ranges_endpoints [5461, 32768]); buffer 2 ×
// 5,461 × 6,144 × 2 = 134,209,536 B → 128 MiB in 2 MiB granules, flags 2 ×
// 256 × 4 B → 2 MiB, Lamport 3 × 134,209,536 = 402,628,608 B → 384 MiB:
// 514 MiB.
func TestEagerFIARNormWorkspace(t *testing.T) {
	m3 := FIARNormQuery{Model: "minimax_m3", TP: 2, OneNode: true, NVIDIA: true, SMMajor: 10, NVLink: true, Hidden: 6144}
	with := func(f func(*FIARNormQuery)) FIARNormQuery { q := m3; f(&q); return q }
	const mib = 1 << 20
	for _, tc := range []struct {
		name    string
		version string
		q       FIARNormQuery
		in      Presence
		tokens  int
		bytes   float64
	}{
		{"MiniMax-M3 on 2 × B200", "0.24.0", m3, Present, 5461, 514 * mib},
		{"H100 TP 2: the same 64 MiB", "0.24.0", with(func(q *FIARNormQuery) { q.SMMajor = 9 }), Present, 5461, 514 * mib},
		// H100 TP 4: 2 MiB → 170 tokens; buffer 4 × 170 × 6,144 × 2 =
		// 8,355,840 B → 8 MiB, flags → 2 MiB, Lamport 25,067,520 B → 24 MiB.
		{"H100 TP 4: 2 MiB", "0.24.0", with(func(q *FIARNormQuery) { q.SMMajor, q.TP = 9, 4 }), Present, 170, 34 * mib},
		{"B200/B300 TP 4: 10.0 and 10.3 differ", "0.24.0", with(func(q *FIARNormQuery) { q.TP = 4 }), Absent, 0, 0},
		{"SM 12 (RTX PRO 6000): no table entry", "0.24.0", with(func(q *FIARNormQuery) { q.SMMajor = 12 }), Absent, 0, 0},
		{"TP 1", "0.24.0", with(func(q *FIARNormQuery) { q.TP = 1 }), Absent, 0, 0},
		{"across nodes: mnnvl, not sized", "0.24.0", with(func(q *FIARNormQuery) { q.OneNode = false }), Absent, 0, 0},
		{"PCIe only: not read", "0.24.0", with(func(q *FIARNormQuery) { q.NVLink = false }), Absent, 0, 0},
		{"ROCm", "0.24.0", with(func(q *FIARNormQuery) { q.NVIDIA = false }), Absent, 0, 0},
		{"another model", "0.24.0", with(func(q *FIARNormQuery) { q.Model = "minimax_m2" }), Absent, 0, 0},
		{"before MiniMax-M3's first release", "0.23.0", m3, Absent, 0, 0},
	} {
		r, _, err := ResolveString(tc.version)
		if err != nil {
			t.Fatal(err)
		}
		w := r.EagerFIARNormWorkspace(tc.q)
		if w.In != tc.in || w.MaxTokens != tc.tokens || w.Bytes != tc.bytes {
			t.Errorf("%s: %v, %d tokens, %.0f B (%s); want %v, %d, %.0f", tc.name, w.In, w.MaxTokens, w.Bytes, w.Why, tc.in, tc.tokens, tc.bytes)
		}
		if w.In == Absent && w.Why == "" {
			t.Errorf("%s: absent without a reason", tc.name)
		}
	}
}
