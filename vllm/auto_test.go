package vllm

import (
	"strings"
	"testing"
)

func TestAutoAll2All(t *testing.T) {
	r011, _, _ := ResolveString("0.11.0")
	r091, _, _ := ResolveString("0.9.1")
	r090, _, _ := ResolveString("0.9.0")
	tests := []struct {
		name string
		rel  Release
		c    AutoContext
		want string
	}{
		{"no EP", r011, AutoContext{DP: 32, EP: false, MultiNode: true, GPUDirectRDMA: true}, ""},
		{"DP 1", r011, AutoContext{DP: 1, EP: true, MultiNode: true, GPUDirectRDMA: true}, ""},
		{"single node", r011, AutoContext{DP: 8, EP: true}, BackendAllgatherReducescatter},
		{"single node before allgather existed", r091, AutoContext{DP: 8, EP: true}, BackendNaive},
		{"RDMA decode-heavy", r011, AutoContext{DP: 32, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 1024, OutputTokens: 1024}, BackendDeepEPLowLatency},
		{"RDMA prefill-heavy", r011, AutoContext{DP: 32, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 8192, OutputTokens: 1024}, BackendDeepEPHighThroughput},
		// qa41 D1: a P/D pool runs only its role's steps, whatever the
		// workload's ratio (vLLM's EP guide pairs prefill with
		// high-throughput, decode with low-latency).
		{"decode pool, prefill-heavy workload", r011, AutoContext{DP: 16, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 8000, OutputTokens: 1000, Pool: PoolDecode}, BackendDeepEPLowLatency},
		{"prefill pool, decode-heavy workload", r011, AutoContext{DP: 16, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 1000, OutputTokens: 1000, Pool: PoolPrefill}, BackendDeepEPHighThroughput},
		{"decode pool on one node", r011, AutoContext{DP: 8, EP: true, Pool: PoolDecode}, BackendAllgatherReducescatter},
		{"RDMA before DeepEP was confirmed", r090, AutoContext{DP: 32, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 1024, OutputTokens: 1024}, BackendNaive},
		{"ethernet without RDMA", r011, AutoContext{DP: 32, EP: true, MultiNode: true, FabricKind: "ethernet"}, BackendAllgatherReducescatter},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, why := tt.rel.AutoAll2All(tt.c)
			if got != tt.want || why == "" {
				t.Errorf("AutoAll2All = %q (%s), want %q", got, why, tt.want)
			}
		})
	}
}

// TestAutoAll2AllAMD: on AMD GPUs auto never picks an NVSHMEM backend
// (Backend.CUDAOnly), even across nodes with GPU-initiated RDMA, where it
// picks DeepEP on NVIDIA's; it says why.
func TestAutoAll2AllAMD(t *testing.T) {
	r, _, err := ResolveString("0.29.0")
	if err != nil {
		t.Fatal(err)
	}
	c := AutoContext{DP: 16, EP: true, MultiNode: true, GPUDirectRDMA: true, FabricKind: "roce", InputTokens: 4096, OutputTokens: 1024}
	if b, _ := r.AutoAll2All(c); b != BackendDeepEPLowLatency {
		t.Fatalf("NVIDIA: %s, want %s", b, BackendDeepEPLowLatency)
	}
	c.AMD = true
	b, why := r.AutoAll2All(c)
	if k, ok := r.All2AllBackend(b); !ok || k.CUDAOnly() || b != BackendAllgatherReducescatter || !strings.Contains(why, "AMD GPUs") {
		t.Errorf("AMD: %s (%s), want %s", b, why, BackendAllgatherReducescatter)
	}
	for _, name := range []string{BackendDeepEPLowLatency, BackendDeepEPHighThroughput, BackendPPLX} {
		if k, ok := KnownBackendEver(name); !ok || !k.CUDAOnly() {
			t.Errorf("%s: CUDAOnly false", name)
		}
	}
}

// TestAutoAll2AllSaysItIsARule (qa41 D7): the colocated DeepEP choice is
// vLLM's EP-guide rule on the input:output ratio, not a comparison of
// modelled step times (check's alternatives rate allgather_reducescatter
// faster on kimi-k25-gb200-2tray); its reason says so rather than reading
// as "the better fit".
func TestAutoAll2AllSaysItIsARule(t *testing.T) {
	r, _, _ := ResolveString("0.22.1")
	for _, c := range []AutoContext{
		{DP: 8, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 4000, OutputTokens: 1500},
		{DP: 8, EP: true, MultiNode: true, GPUDirectRDMA: true, InputTokens: 16000, OutputTokens: 1000},
	} {
		b, why := r.AutoAll2All(c)
		if b == "" || !strings.Contains(why, "not a modelled speed comparison") || !strings.Contains(why, "EP-guide rule") {
			t.Errorf("%d/%d: %s because %q, want the reason to say it is the EP guide's rule, not a speed comparison", c.InputTokens, c.OutputTokens, b, why)
		}
	}
}
