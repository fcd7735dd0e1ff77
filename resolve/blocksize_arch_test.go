package resolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestMiniMaxM3BlockSize: MiniMax-M3's sparse and indexer backends take only
// 128-token kernel blocks (vllm.Release.ArchitectureBlockSize). Unset, the
// block size is 128, derived, and must be written (vLLM's own pick is the
// dense first layer's 16, which stops with "No common block size for 16.");
// a multiple of 128 is the spec's and runs on 128-token kernel blocks;
// anything else is refused at vllm.block_size. The wrapper checkpoint
// (minimax_m3_vl, read as minimax_m3) is held to the same rule, and a model
// without the rule keeps vLLM's 16.
func TestMiniMaxM3BlockSize(t *testing.T) {
	rel, _, err := vllm.ResolveString("0.24.0")
	if err != nil {
		t.Fatal(err)
	}
	gpu, err := catalog.LookupGPU("b200")
	if err != nil {
		t.Fatal(err)
	}
	load := func(path string) *catalog.Model {
		m, err := catalog.LoadHFConfig(path)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m3 := load("../catalog/testdata/hf/minimax-m3.verbatim.json")
	nv := load("../catalog/testdata/hf/minimax-m3-nvfp4.reconstructed.json")
	ip := func(i int) *int { return &i }
	for _, tt := range []struct {
		name   string
		model  *catalog.Model
		block  *int
		want   int
		from   Source
		flag   int
		refuse bool
	}{
		{"unset", m3, nil, 128, SourceDerived, 128, false},
		{"wrapper unset", nv, nil, 128, SourceDerived, 128, false},
		{"128", m3, ip(128), 128, SourceSpec, 0, false},
		{"256", m3, ip(256), 256, SourceSpec, 0, false},
		{"16", m3, ip(16), 0, "", 0, true},
		{"64", nv, ip(64), 0, "", 0, true},
	} {
		d := &spec.Deployment{}
		d.Hardware.GPU = spec.GPURef{Name: "b200"}
		d.Hardware.Nodes = []spec.Node{{Name: "n0", Address: "10.0.0.1", GPUs: 8}}
		d.Parallelism.Tensor = 8
		d.Workload.MaxModelLen = 32768
		d.VLLM.Version = "0.24.0"
		d.VLLM.BlockSize = tt.block
		spec.ApplyDefaults(d)
		r, err := Assemble(d, Parts{Model: tt.model, GPU: gpu, Release: rel, Version: set("0.24.0", SourceSpec, "")})
		if tt.refuse {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Path != "vllm.block_size" || !strings.Contains(fe.Msg, "No common block size for") {
				t.Errorf("%s: err %v, want a refusal at vllm.block_size quoting vLLM's error", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		e := r.Engine
		if e.BlockSize.Value != tt.want || e.BlockSize.From != tt.from || e.BlockSizeFlag != tt.flag {
			t.Errorf("%s: block %d from %s flag %d, want %d from %s flag %d", tt.name, e.BlockSize.Value, e.BlockSize.From, e.BlockSizeFlag, tt.want, tt.from, tt.flag)
		}
	}
	// A model without the rule keeps vLLM's default and writes nothing.
	d := example(t, "llama-3.1-70b-8xa100.yaml")
	d.VLLM.BlockSize = nil
	if e := mustResolve(t, d).Engine; e.BlockSize.Value != DefaultBlockSize || e.BlockSizeFlag != 0 {
		t.Errorf("llama: block %d flag %d, want %d and none", e.BlockSize.Value, e.BlockSizeFlag, DefaultBlockSize)
	}
}
