package perf

import "testing"

// NCCL's cost model by hand from tuning.cc at v2.27.5-1 (baseLat, hwLat,
// llMaxBws Intel row, treeCorrectionFactor LL row, getNetOverhead Intel
// 1.0 µs), for the all-reduces issue #28's cross-node TP rows run.
func TestNCCLCrossNodeAllReduceByHand(t *testing.T) {
	const nics = 8 * 400e9 / 8 // 8 × 400 Gb/s per node, byte/s
	cases := []struct {
		name          string
		ranks, nodes  int
		nic, bytes    float64
		linkS         float64
		wantUs        float64
		algo, proto   int
		derivationMsg string
	}{
		{"TP16 on 2 × 8 H100, 16 KiB (Qwen2.5-72B decode, 1 token)", 16, 2, nics, 16384, 0.1e-6,
			// Tree LL: 6.8 + 2 × (7 × 0.6 + log2(2) × 5.0) = 25.2 µs;
			// bandwidth min(400 × 0.92 / 3.8, 39) × 0.5 = 19.5 GB/s × 0.7
			// (log2(16384/64) = 8) = 13.65 GB/s: 16384 B → 1.2003 µs.
			// Ring LL: 6.6 + 28 × max(0.6, 1.0) + 2 × 2.7 = 40.0 µs: not picked.
			25.2 + 16384/13.65e3, ncclTree, ncclLL, "tree LL"},
		{"TP32 on 4 × 8 H100, 16 KiB", 32, 4, nics, 16384, 0.1e-6,
			// Tree LL: 6.8 + 2 × (7 × 0.6 + log2(4) × 5.0) = 35.2 µs;
			// bandwidth min(96.8, 20.4) × 0.5 × 0.7 = 7.14 GB/s → 2.2947 µs.
			35.2 + 16384/7.14e3, ncclTree, ncclLL, "tree LL"},
		{"TP16 on 2 × 8 H100, 4 MiB with a 10 µs link time", 16, 2, nics, 4 << 20, 10e-6,
			// Tree LL: 25.2 + 4 MiB / 13.65 GB/s (log2(65536) = 16 → 0.7) ≈ 332 µs.
			// Tree LL128: 14.0 + 2 × (7 × 1.25 + 8.5) = 48.5 µs + 10 / (120/128).
			// Ring LL128: 14.0 + 28 × 1.9 + 2 × 4.0 = 75.2 µs + 10 / 0.92.
			// Tree Simple: 8.4 + 2 × (7 × 4.0 + 14) = 92.4 µs + 10.
			// Ring Simple: (8.4 + 28 × 3.4 + 2 × 14) × 1.4 = 184.2 µs + 10.
			48.5 + 10/(120.0/128.0), ncclTree, ncclLL128, "tree LL128"},
		{"2 nodes of 1 GPU, one 400G NIC, 8 KiB", 2, 2, 400e9 / 8, 8192, 0.1e-6,
			// One GPU per node: the network latency is the tree's (5.0).
			// Ring LL: 6.6 + 0 × 1.0 + 2 × 5.0 = 16.6 µs; bandwidth
			// min(39, 50 × 0.5) × 2 / 2 = 25 GB/s → 0.3277 µs.
			// Tree LL: 6.8 + 2 × 5.0 = 16.8 µs + 8192 / (min(50 × 0.92 / 3.8, 39)
			// × 0.5 × 0.7 = 4.237 GB/s) = 18.73 µs: not picked.
			16.6 + 8192/25e3, ncclRing, ncclLL, "ring LL"},
	}
	for _, c := range cases {
		got, a, p := ncclXNodeAllReduce(c.ranks, c.nodes, false, c.nic, c.bytes, c.linkS)
		if !perfNear(got, c.wantUs*1e-6, 1e-4) || a != c.algo || p != c.proto {
			t.Errorf("%s: %.3f µs (algorithm %d protocol %d), want %s at %.3f µs", c.name, got*1e6, a, p, c.derivationMsg, c.wantUs)
		}
	}
	// PCI inside the node (no NVLink): Tree LL 6.8 + 2 × (7 × 1.0 + 5.0) = 30.8 µs.
	if got := ncclAllReduceLatUs(ncclTree, ncclLL, 16, 2, true); !perfNear(got, 30.8, 1e-9) {
		t.Errorf("tree LL over PCI, 2 × 8: %.2f µs, want 30.8", got)
	}
}

// The switch routes tpAllReduce across nodes through NCCL's model; off, it
// keeps the link model, and inside a node nothing changes.
func TestNCCLCrossNodeInTPAllReduce(t *testing.T) {
	defer func(v bool) { UseNCCLCrossNodeLatency = v }(UseNCCLCrossNodeLatency)
	eff := DefaultEfficiency
	hw := NewHardware(perfGPU(t, "h100-sxm"), 8, 0, 2, 400, 8, 5)
	s := StepSetup{Model: perfModel(t, "qwen2.5-72b"), HW: hw, TP: 16, PP: 1, DP: 1, WeightDType: "bf16", KVDType: "bf16", CUDAGraphs: true, Eff: eff}
	sm := NewStepModel(s)
	msg := sm.hidden * 2 // one token
	if sm.hidden != 8192 {
		t.Fatalf("qwen2.5-72b hidden %g, want 8192", sm.hidden)
	}
	UseNCCLCrossNodeLatency = false
	off := sm.tpAllReduce(msg)
	UseNCCLCrossNodeLatency = true
	on := sm.tpAllReduce(msg)
	if want := (25.2 + 16384/13.65e3) * 1e-6; !perfNear(on, want, 1e-4) {
		t.Errorf("TP16 16 KiB all-reduce with NCCL's model: %.2f µs, want tree LL %.2f µs", on*1e6, want*1e6)
	}
	ring := RingAllReduceBytes(msg, 16)
	link := max(ring/(hw.InterBytesPerSPerNode*eff.Link), ring/(hw.IntraBytesPerS*eff.Link))
	if want := link + 2*2*hw.InterLatencyS + eff.CollectiveS; !perfNear(off, want, 1e-9) || on <= off {
		t.Errorf("off %.2f µs (want the link model's %.2f), on %.2f µs (want above it)", off*1e6, want*1e6, on*1e6)
	}
	s.TP = 8
	in := NewStepModel(s)
	UseNCCLCrossNodeLatency = false
	a := in.tpAllReduce(msg)
	UseNCCLCrossNodeLatency = true
	if b := in.tpAllReduce(msg); a != b {
		t.Errorf("TP8 inside a node: %.2f µs off, %.2f µs on; want unchanged", a*1e6, b*1e6)
	}
}
