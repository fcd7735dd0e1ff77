package resolve

import (
	"errors"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// example loads and defaults an example spec.
func example(t *testing.T, name string) *spec.Deployment {
	t.Helper()
	d, ds := spec.Load("../examples/" + name)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	spec.ApplyDefaults(d)
	return d
}

func mustResolve(t *testing.T, d *spec.Deployment) *Deployment {
	t.Helper()
	r, err := FromSpec(d)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestAll2AllByRelease: which backend runs, who chose it and what the
// bundle writes, for the spec's setting and a VLLM_ALL2ALL_BACKEND in
// vllm.env, across the releases that read only the variable (0.11.0), take
// the flag over the variable (0.11.1) and no longer read it (0.16.0).
func TestAll2AllByRelease(t *testing.T) {
	const ll, ar = vllm.BackendDeepEPLowLatency, vllm.BackendAllgatherReducescatter
	tests := []struct {
		version, asked, env string
		run                 string
		from                Source
		written             string
		explicit            bool
	}{
		{"0.11.0", "auto", "", ll, SourceAuto, ll, false},
		{"0.11.0", "auto", "naive", "naive", SourceEnv, "", true},
		{"0.11.0", ar, "naive", "naive", SourceEnv, "", true}, // the user's export comes last
		{"0.11.0", ar, "", ar, SourceSpec, ar, true},
		{"0.11.1", "auto", "naive", "naive", SourceEnv, "", true}, // generate must not contradict it
		{"0.11.1", ar, "naive", ar, SourceSpec, ar, true},         // the flag overrides the variable
		{"0.11.1", "auto", "", ll, SourceAuto, ll, false},
		{"0.16.0", "auto", "naive", ll, SourceAuto, ll, false}, // the variable is no longer read
	}
	for _, tt := range tests {
		d := example(t, "deepseek-v3-32xh20.yaml")
		d.VLLM.Version, d.VLLM.All2AllBackend = tt.version, tt.asked
		if tt.env != "" {
			d.VLLM.Env = map[string]string{vllm.All2AllEnv: tt.env}
		}
		e := mustResolve(t, d).Engine
		if e.All2All.Value != tt.run || e.All2All.From != tt.from || e.All2AllWritten != tt.written || e.All2AllExplicit() != tt.explicit {
			t.Errorf("%s asked %s env %q: runs %q (%s, %s), writes %q, explicit %v; want %q (%s), writes %q, explicit %v",
				tt.version, tt.asked, tt.env, e.All2All.Value, e.All2All.From, e.All2All.Why, e.All2AllWritten, e.All2AllExplicit(),
				tt.run, tt.from, tt.written, tt.explicit)
		}
	}
}

// TestCustomGPUKeepsItsLink: the spec's intra_node.kind is the GPU's link,
// for custom figures and catalog parts alike.
func TestCustomGPUKeepsItsLink(t *testing.T) {
	d := example(t, "llama-3.1-70b-8xa100.yaml")
	d.Hardware.GPU = spec.GPURef{Custom: &spec.GPUFigures{Name: "RTX 6000 Ada", MemoryMiB: 48000, HBMBandwidthGBytesPerS: 960, BF16TFLOPS: 364}}
	d.Hardware.Network.IntraNode = spec.IntraNode{Kind: "pcie", BandwidthGBytesPerS: 32}
	r := mustResolve(t, d)
	if r.GPU.IntraNodeKind != "pcie" || r.Network.IntraGBytesPerS != 32 {
		t.Errorf("custom GPU link %s at %g GB/s, want pcie at 32", r.GPU.IntraNodeKind, r.Network.IntraGBytesPerS)
	}
	d.Hardware.Network.IntraNode.Kind = ""
	if r := mustResolve(t, d); r.GPU.IntraNodeKind != customIntraKind {
		t.Errorf("custom GPU without a kind: %s, want %s", r.GPU.IntraNodeKind, customIntraKind)
	}
}

// TestProvenance: each effective value says where it came from.
func TestProvenance(t *testing.T) {
	d := example(t, "deepseek-v3-32xh20.yaml")
	r := mustResolve(t, d)
	e := r.Engine
	for name, got := range map[string]Source{
		"util": e.GPUMemoryUtilization.From, "max_model_len": e.MaxModelLen.From, "weights": e.WeightsDType.From,
		"kv": e.KVCacheDType.From, "block": e.BlockSize.From, "seqs": e.MaxNumSeqs.From,
	} {
		want := map[string]Source{"util": SourceRelease, "max_model_len": SourceSpec, "weights": SourceSpec,
			"kv": SourceDerived, "block": SourceDerived, "seqs": SourceRelease}[name]
		if got != want {
			t.Errorf("%s from %s, want %s", name, got, want)
		}
	}
	d.VLLM.Version = ""
	if r := mustResolve(t, d); r.Version.From != SourceAssumed || r.Version.Value != vllm.Newest().String() || r.Settings()[0].From != SourceAssumed {
		t.Errorf("no version: %+v, settings %v", r.Version, r.Settings())
	}
}

// TestWithLayout: `auto` pending, then the chosen layout with its backend.
func TestWithLayout(t *testing.T) {
	d := example(t, "deepseek-v3-32xh20.yaml")
	d.Parallelism = spec.Parallelism{Auto: true}
	r := mustResolve(t, d)
	if !r.Layout.Auto || r.Engine.All2All.Value != "" {
		t.Fatalf("auto pending: layout %+v, backend %q", r.Layout, r.Engine.All2All.Value)
	}
	c := r.WithLayout(Layout{TP: 1, PP: 1, DP: 32, EP: true})
	if c.Layout.Auto || c.Layout.Nodes != 4 || c.Engine.All2All.Value != vllm.BackendDeepEPLowLatency {
		t.Errorf("chosen: layout %+v, backend %q", c.Layout, c.Engine.All2All.Value)
	}
	if !r.Layout.Auto {
		t.Error("WithLayout changed its receiver")
	}
}

func TestPlace(t *testing.T) {
	four := []int{8, 8, 8, 8}
	tests := []struct {
		name     string
		l        Layout
		hosts    []int
		path     string // "" = placeable
		used     int
		spanning bool
	}{
		{"DP over nodes", Layout{TP: 1, PP: 1, DP: 32}, four, "", 4, false},
		{"TP within a node", Layout{TP: 8, PP: 1, DP: 4}, four, "", 4, false},
		{"one node", Layout{TP: 4, PP: 1, DP: 2}, four, "", 1, false},
		{"spanning, DP 1", Layout{TP: 8, PP: 4, DP: 1}, four, "", 4, true},
		{"spanning, fewer nodes", Layout{TP: 8, PP: 2, DP: 1}, four, "", 2, true},
		{"spanning with DP 2", Layout{TP: 8, PP: 2, DP: 2}, four, "", 4, true},
		{"spanning with DP 3, too few nodes", Layout{TP: 8, PP: 2, DP: 3}, four, "parallelism.data", 0, false},
		{"spanning, unequal nodes", Layout{TP: 16, PP: 1, DP: 1}, []int{8, 4, 4}, "hardware.nodes[1].gpus", 0, false},
		{"spanning, not whole nodes", Layout{TP: 12, PP: 1, DP: 1}, four, "parallelism", 0, false},
		{"too many ranks", Layout{TP: 1, PP: 1, DP: 33}, four, "parallelism.data", 0, false},
		{"no nodes", Layout{TP: 1, PP: 1, DP: 1}, nil, "hardware.nodes", 0, false},
		{"zero sizes", Layout{}, four, "parallelism", 0, false},
	}
	for _, tt := range tests {
		p, err := Place(tt.l, tt.hosts, vllm.Newest())
		var fe *FieldError
		switch {
		case tt.path == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.path != "" && (!errors.As(err, &fe) || fe.Path != tt.path):
			t.Errorf("%s: error %v, want one at %s", tt.name, err, tt.path)
		case tt.path == "" && (p.UsedNodes() != tt.used || p.Spanning != tt.spanning):
			t.Errorf("%s: %d nodes used, spanning %v; want %d, %v", tt.name, p.UsedNodes(), p.Spanning, tt.used, tt.spanning)
		}
	}
}

func TestQuickErrorsNameTheFlag(t *testing.T) {
	for _, tt := range []struct {
		o    QuickOptions
		flag string
	}{
		{QuickOptions{Model: "deepseek-v4", GPU: "h20"}, "--model"},
		{QuickOptions{Model: "deepseek-v3", GPU: "h21"}, "--gpu"},
		{QuickOptions{Model: "llama-3.1-8b", GPU: "h100", Weights: "mxfp4"}, "--weights"},
		{QuickOptions{Model: "llama-3.1-8b", GPU: "h100", GPUMemoryUtilization: 1.5}, "--gpu-memory-utilization"},
		{QuickOptions{Model: "llama-3.1-8b", GPU: "h100", VLLMVersion: "latest"}, "--vllm-version"},
	} {
		_, err := Quick(tt.o)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tt.flag {
			t.Errorf("%+v: %v, want an error naming %s", tt.o, err, tt.flag)
		}
	}
	r, err := Quick(QuickOptions{Model: "deepseek-v3", GPU: "h20", DP: 32, EP: true})
	if err != nil || r.Layout.Nodes != 4 || r.Engine.All2All.From != SourceAuto {
		t.Errorf("quick DP 32 EP: %v %+v %+v", err, r.Layout, r.Engine.All2All)
	}
}

// TestPlaceSpanningDPByRelease: DP ranks whose engine spans nodes are
// placed rank after rank (rank k on nodes 2k, 2k+1 for TP 8 × PP 2 on
// 8-GPU nodes) where vlaunch writes --nnodes, and refused as a release
// limit (Unsupported, at parallelism.data) where it would write a Ray
// engine: there vLLM ran such an engine with DP = 1 only.
func TestPlaceSpanningDPByRelease(t *testing.T) {
	l, hosts := Layout{TP: 8, PP: 2, DP: 2}, []int{8, 8, 8, 8}
	for _, c := range []struct {
		version string
		refused bool
	}{{"0.11.0", true}, {"0.12.0", false}, {"0.24.0", false}} {
		rel, _, err := vllm.ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		p, err := Place(l, hosts, rel)
		var fe *FieldError
		switch {
		case c.refused && (!errors.As(err, &fe) || !fe.Unsupported || fe.Path != "parallelism.data"):
			t.Errorf("%s: %v, want an Unsupported refusal at parallelism.data", c.version, err)
		case !c.refused && err != nil:
			t.Errorf("%s: %v", c.version, err)
		case !c.refused && (p.Kind != KindNNodes || p.ReplicaNodes != 4 || p.Nodes[2].DPStart != 1 || p.Nodes[1].DPStart != 0):
			t.Errorf("%s: kind %s over %d nodes, DP ranks %d %d %d %d; want nnodes over 4, ranks 0 0 1 1",
				c.version, p.Kind, p.ReplicaNodes, p.Nodes[0].DPStart, p.Nodes[1].DPStart, p.Nodes[2].DPStart, p.Nodes[3].DPStart)
		}
	}
}
