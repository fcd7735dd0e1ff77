package vllm

import "testing"

// TestKernelTableCoversTheRegistry: every backend any release accepts has
// a kernel entry (so the estimator never costs a real backend by the
// unknown-name fallback), and every kernel entry is either in the registry
// or marked Unreleased.
func TestKernelTableCoversTheRegistry(t *testing.T) {
	for _, b := range backendTable {
		if _, ok := BackendKernels(b.Name); !ok {
			t.Errorf("backend %s has no kernel entry", b.Name)
		}
	}
	for _, k := range kernelTable {
		_, released := KnownBackendEver(k.Name)
		if released == k.Unreleased {
			t.Errorf("%s: in the release registry = %v but Unreleased = %v", k.Name, released, k.Unreleased)
		}
		if k.Traffic == TrafficNone || k.Source == "" {
			t.Errorf("%s: no traffic pattern or no source", k.Name)
		}
		if k.Buffers == BuffersLowLatency && !k.ChunkedDispatch {
			t.Errorf("%s: low-latency buffers are sized by the DP chunk, so dispatch must be chunked", k.Name)
		}
	}
}

func TestTrafficOf(t *testing.T) {
	for name, want := range map[string]Traffic{
		BackendDeepEPHighThroughput: TrafficPerNode, BackendDeepEPLowLatency: TrafficPerExpert, BackendPPLX: TrafficPerExpert,
		BackendAllgatherReducescatter: TrafficGather, BackendNaive: TrafficGather, "": TrafficGather, "no-such-backend": TrafficGather,
		"nixl_ep": TrafficPerExpert, "deepep_v2": TrafficPerNode,
	} {
		if got := TrafficOf(name); got != want {
			t.Errorf("TrafficOf(%q) = %v, want %v", name, got, want)
		}
	}
	if TrafficNone.String() != "none" || TrafficGather.String() != BackendAllgatherReducescatter || TrafficNone.PointToPoint() || !TrafficPerExpert.PointToPoint() {
		t.Error("Traffic names")
	}
}

// TestCUDAGraphs pins the rule the estimator applies everywhere (resolution,
// layout search, what-if variants): DeepEP's normal kernels run eagerly with
// DP > 1 in every release; enforce_eager always does.
func TestCUDAGraphs(t *testing.T) {
	for _, v := range []string{"0.9.0", "0.10.1", "0.11.0", "0.22.1", "0.30.0"} {
		r := rel(t, v)
		tests := []struct {
			backend string
			dp      int
			eager   bool
			want    bool
		}{
			{BackendDeepEPHighThroughput, 2, false, false},
			{BackendDeepEPHighThroughput, 1, false, true},
			{BackendDeepEPLowLatency, 16, false, true},
			{BackendAllgatherReducescatter, 16, false, true},
			{"", 16, false, true},
			{BackendDeepEPLowLatency, 16, true, false},
		}
		for _, tt := range tests {
			if got := r.CUDAGraphs(tt.backend, tt.dp, tt.eager); got != tt.want {
				t.Errorf("%s CUDAGraphs(%q, dp %d, eager %v) = %v", v, tt.backend, tt.dp, tt.eager, got)
			}
		}
	}
}

func TestBackendNames(t *testing.T) {
	names := BackendNames()
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("%s listed twice", n)
		}
		seen[n] = true
	}
	for _, want := range []string{BackendNaive, BackendPPLX, "deepep_v2", "mori_low_latency", "nixl_ep"} {
		if !seen[want] {
			t.Errorf("BackendNames lacks %s", want)
		}
	}
}

// TestFactTablesAreCited holds this package's fact tables to the citation
// rule of the flag and env tables (citation_test.go): a verified entry
// cites a primary source, an unverified one says what is not pinned.
func TestFactTablesAreCited(t *testing.T) {
	check := func(kind, name string, verified bool, src string) {
		switch {
		case verified && !citesPrimary(src):
			t.Errorf("%s %s: verified but cites no primary source: %s", kind, name, src)
		case !verified && !explainsUnverified(src):
			t.Errorf("%s %s: unverified but the source does not say what is unpinned: %s", kind, name, src)
		}
	}
	for _, k := range kernelTable {
		check("kernels", k.Name, k.Verified, k.Source)
	}
	for _, r := range rangeTable {
		check("range", r.Flag, r.Verified, r.Source)
	}
	for _, d := range envDefaultTable {
		check("env default", d.Name, d.Verified, d.Source)
	}
}

// TestNewestBackends pins what the sources say about the backends main
// added after 0.22.1: deepep_v2 from 0.24.0 and the MoRI split from 0.23.0,
// both pinned by the release tags' --all2all-backend choices (choices45:
// tag_choices_table.go; a third-party patch confirms deepep_v2 at 0.28.0,
// issue #23's audit the split at 0.26.0 and 0.29.0); none of them
// turns CUDA graphs off (the disable block names deepep_high_throughput).
func TestNewestBackends(t *testing.T) {
	b, ok := KnownBackendEver("deepep_v2")
	if !ok {
		t.Fatal("deepep_v2 is not in the release registry")
	}
	for v, want := range map[string]Presence{"0.22.1": Absent, "0.23.0": Absent, "0.24.0": Present, "0.27.0": Present, "0.28.0": Present, "0.30.0": Present} {
		if got := b.In(rel(t, v).Version); got != want {
			t.Errorf("deepep_v2 in %s: %s, want %s", v, got, want)
		}
	}
	if b.DeepEP {
		t.Error("deepep_v2 runs over NCCL, not NVSHMEM: no DeepEP (NVSHMEM/IBGDA) prerequisites")
	}
	// The MoRI split: both names from the v0.23.0 tag (mori itself gone
	// there); issue #23 saw them at 0.26.0 and 0.29.0.
	for _, name := range []string{"mori_high_throughput", "mori_low_latency"} {
		b, ok := KnownBackendEver(name)
		if !ok {
			t.Fatalf("%s is not in the release registry", name)
		}
		for v, want := range map[string]Presence{"0.22.1": Absent, "0.23.0": Present, "0.25.1": Present, "0.26.0": Present, "0.29.0": Present, "0.31.0": Present} {
			if got := b.In(rel(t, v).Version); got != want {
				t.Errorf("%s in %s: %s, want %s", name, v, got, want)
			}
		}
	}
	r := rel(t, "0.30.0")
	for _, name := range []string{"deepep_v2", "mori_high_throughput", "mori_low_latency"} {
		if !r.CUDAGraphs(name, 16, false) {
			t.Errorf("%s turns CUDA graphs off with DP", name)
		}
	}
}
