package input

import (
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

func loadExample(t testing.TB, name string) Input {
	t.Helper()
	d, ds := spec.Load("../../examples/" + name)
	if ds.HasErrors() {
		t.Fatalf("load %s: %v", name, ds)
	}
	spec.ApplyDefaults(d)
	in, ds := FromSpec(d)
	if ds.HasErrors() {
		t.Fatalf("FromSpec %s: %v", name, ds)
	}
	return in
}

func TestFromSpecReferenceScenario(t *testing.T) {
	in := loadExample(t, "deepseek-v3-32xh20.yaml")
	l := in.Layout
	if l.TP != 1 || l.PP != 1 || l.DP != 32 || !l.EP || l.Nodes != 4 || l.GPUsPerNode != 8 {
		t.Errorf("layout = %+v", l)
	}
	if in.WeightsDType != "bf16" || in.WeightsFromCheckpoint {
		t.Errorf("weights = %s (from checkpoint %v), want an up-cast bf16", in.WeightsDType, in.WeightsFromCheckpoint)
	}
	if in.KVCacheDType != "bf16" || in.BlockSize != 64 { // FlashMLA, vLLM 0.11.0 on Hopper
		t.Errorf("kv = %s block %d", in.KVCacheDType, in.BlockSize)
	}
	if in.GPUMemoryUtilization != 0.9 {
		t.Errorf("util = %v, want 0.9 (vLLM 0.11.0 default)", in.GPUMemoryUtilization)
	}
	if in.MaxNumSeqs != 1024 || in.MaxNumBatchedTokens != 8192 {
		t.Errorf("batch defaults = %d / %d, want 1024 / 8192 on a 95 GiB H20", in.MaxNumSeqs, in.MaxNumBatchedTokens)
	}
	// all2all_backend auto across RoCE nodes with 1K in / 1K out: the shared
	// rule picks DeepEP low-latency, as the generated bundle does.
	if in.All2AllBackend != "deepep_low_latency" || !in.CUDAGraphs {
		t.Errorf("all2all = %q graphs %v", in.All2AllBackend, in.CUDAGraphs)
	}
	if in.Network.InterGbitPerSPerNIC != 25 || in.Network.InterKind != "roce" {
		t.Errorf("network = %+v", in.Network)
	}
}

func TestQuickInputDefaults(t *testing.T) {
	in, ds := Quick(resolve.QuickOptions{Model: "deepseek-v3", GPU: "h20", DP: 32, EP: true, MaxModelLen: 32768})
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	if in.WeightsDType != "fp8" || !in.WeightsFromCheckpoint {
		t.Errorf("auto weights = %s, want the checkpoint's fp8", in.WeightsDType)
	}
	if in.Layout.Nodes != 4 || in.Layout.GPUsPerNode != 8 {
		t.Errorf("nodes = %d x %d", in.Layout.Nodes, in.Layout.GPUsPerNode)
	}
	if in.GPUMemoryUtilization != 0.92 {
		t.Errorf("newest release default util = %v, want 0.92", in.GPUMemoryUtilization)
	}
	if _, ds := Quick(resolve.QuickOptions{Model: "deepseek-v4", GPU: "h20"}); !ds.HasErrors() {
		t.Error("unknown model accepted")
	}
	if _, ds := Quick(resolve.QuickOptions{Model: "llama-3.1-8b", GPU: "h20", Weights: "mxfp4"}); !ds.HasErrors() {
		t.Error("mxfp4 accepted for a bf16 checkpoint")
	}
}
