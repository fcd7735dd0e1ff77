package resolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestROCmAiterMLABlockSize: qa44b F4. DeepSeek-V3 on MI300X at 0.22.1 with
// VLLM_ROCM_USE_AITER=1 and block_size 1 (AMD's recipe) runs on
// ROCM_AITER_MLA, which takes any block size; without AITER only TRITON_MLA
// is left and 1 is refused; unset, the backend named is AITER's when on.
func TestROCmAiterMLABlockSize(t *testing.T) {
	rel, _, err := vllm.ResolveString("0.22.1")
	if err != nil {
		t.Fatal(err)
	}
	gpu, err := catalog.LookupGPU("mi300x")
	if err != nil {
		t.Fatal(err)
	}
	m, err := catalog.LookupModel("deepseek-v3")
	if err != nil {
		t.Fatal(err)
	}
	one := 1
	for _, tt := range []struct {
		name    string
		env     map[string]string
		block   *int
		backend string
		want    int
		refuse  bool
	}{
		{"aiter block 1", map[string]string{"VLLM_ROCM_USE_AITER": "1"}, &one, vllm.MLAROCmAiter, 1, false},
		{"aiter unset", map[string]string{"VLLM_ROCM_USE_AITER": "1"}, nil, vllm.MLAROCmAiter, 16, false},
		{"no aiter unset", nil, nil, vllm.MLATriton, 16, false},
		{"no aiter block 1", nil, &one, "", 0, true},
	} {
		d := &spec.Deployment{}
		d.Hardware.GPU = spec.GPURef{Name: "mi300x"}
		d.Hardware.Nodes = []spec.Node{{Name: "n0", Address: "10.0.0.1", GPUs: 8}}
		d.Parallelism.Tensor = 8
		d.Workload.MaxModelLen = 32768
		d.VLLM.Version = "0.22.1"
		d.VLLM.BlockSize = tt.block
		d.VLLM.Env = tt.env
		spec.ApplyDefaults(d)
		r, err := Assemble(d, Parts{Model: m, GPU: gpu, Release: rel, Version: set("0.22.1", SourceSpec, "")})
		if tt.refuse {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Path != "vllm.block_size" || !strings.Contains(fe.Msg, "No valid attention backend found for rocm") {
				t.Errorf("%s: err %v, want a refusal at vllm.block_size", tt.name, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if e := r.Engine; e.MLABackend != tt.backend || e.BlockSize.Value != tt.want {
			t.Errorf("%s: %s at %d, want %s at %d", tt.name, e.MLABackend, e.BlockSize.Value, tt.backend, tt.want)
		}
	}
}
