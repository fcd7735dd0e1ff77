package resolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// assembleBlock resolves a 2-node B200 deployment of model at version with
// the spec's block_size b (nil: unset).
func assembleBlock(t *testing.T, m *catalog.Model, version string, b *int) (*Deployment, error) {
	t.Helper()
	rel, _, err := vllm.ResolveString(version)
	if err != nil {
		t.Fatal(err)
	}
	gpu, err := catalog.LookupGPU("b200")
	if err != nil {
		t.Fatal(err)
	}
	d := &spec.Deployment{}
	d.Hardware.GPU = spec.GPURef{Name: "b200"}
	d.Hardware.Nodes = []spec.Node{{Name: "n0", Address: "10.0.0.1", GPUs: 8}, {Name: "n1", Address: "10.0.0.2", GPUs: 8}}
	d.Parallelism.Tensor = 8
	d.Parallelism.Pipeline = 2
	d.Workload.MaxModelLen = 32768
	d.VLLM.Version = version
	d.VLLM.BlockSize = b
	spec.ApplyDefaults(d)
	return Assemble(d, Parts{Model: m, GPU: gpu, Release: rel, Version: set(version, SourceSpec, "")})
}

// TestDeepseekV4BlockSize: DeepSeek-V4's compressed MLA caches take only
// 256-token kernel blocks (V4_FLASHMLA_SPARSE) and, unset, vLLM sets 256
// itself (DEEPSEEK_SPARSE_SWA's preferred size: read at the tags
// 0.20.0-0.24.0, seen in a stock v0.25.0 start-up log): 256, from the
// release, no flag. After 0.25.0 the pick was not read, so 256 is derived
// and written (as the recipe does). A multiple of 256 is the spec's;
// anything else is refused with vLLM's error where the kernel sizes were
// read (0.20.0-0.24.0) and sized, with an unverified note, after.
// The old answer, 16, disagreed with the KV notes' 256-token pages.
func TestDeepseekV4BlockSize(t *testing.T) {
	m, err := catalog.LoadHFConfig("../catalog/testdata/hf/deepseek-v4-flash.verbatim.json")
	if err != nil {
		t.Fatal(err)
	}
	ip := func(i int) *int { return &i }
	for _, tt := range []struct {
		name    string
		version string
		block   *int
		want    int
		from    Source
		flag    int
		refuse  bool
	}{
		{"0.31 unset", "0.31.0", nil, 256, SourceDerived, 256, false},
		{"0.26 unset", "0.26.0", nil, 256, SourceDerived, 256, false},
		{"0.25 unset", "0.25.0", nil, 256, SourceRelease, 0, false},
		{"0.24 unset", "0.24.0", nil, 256, SourceRelease, 0, false},
		{"0.20 unset", "0.20.0", nil, 256, SourceRelease, 0, false},
		{"0.31 256", "0.31.0", ip(256), 256, SourceSpec, 0, false},
		{"0.31 512", "0.31.0", ip(512), 512, SourceSpec, 0, false},
		{"0.31 16 unread", "0.31.0", ip(16), 16, SourceSpec, 0, false},
		{"0.24 16", "0.24.0", ip(16), 0, "", 0, true},
		{"0.24 64", "0.24.0", ip(64), 0, "", 0, true},
	} {
		r, err := assembleBlock(t, m, tt.version, tt.block)
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
		if unread := strings.HasSuffix(tt.name, "unread"); unread != (e.UserBlock != nil) || (unread && !strings.Contains(e.UserBlock.Why, "not read")) {
			t.Errorf("%s: note %+v, want one saying the release was not read: %v", tt.name, e.UserBlock, unread)
		}
		if tt.from == SourceRelease && !strings.Contains(e.BlockSize.Why, "DEEPSEEK_SPARSE_SWA") {
			t.Errorf("%s: why %q does not name the backend that picks it", tt.name, e.BlockSize.Why)
		}
	}
}

// TestSparseMLABlockSize: GLM-5 (glm_moe_dsa) and DeepSeek-V3.2
// (deepseek_v32; vLLM builds GLM-5 as DeepSeek-V3.2) run FLASHMLA_SPARSE on
// a B200, whose only kernel block is 64: vLLM sets 64 (older cuda.py forced
// it, newer ones take the backend's preferred size, the smallest it
// supports), so both report 64 and no flag is written.
func TestSparseMLABlockSize(t *testing.T) {
	glm, err := catalog.LookupModel("glm-5-fp8")
	if err != nil {
		t.Fatal(err)
	}
	v32 := *glm
	v32.ModelType = "deepseek_v32"
	for _, m := range []*catalog.Model{glm, &v32} {
		r, err := assembleBlock(t, m, "0.31.0", nil)
		if err != nil {
			t.Fatalf("%s: %v", m.ModelType, err)
		}
		e := r.Engine
		if e.BlockSize.Value != 64 || e.BlockSizeFlag != 0 || e.MLABackend != vllm.MLAFlashMLASparse {
			t.Errorf("%s: block %d flag %d backend %s, want 64, none, %s", m.ModelType, e.BlockSize.Value, e.BlockSizeFlag, e.MLABackend, vllm.MLAFlashMLASparse)
		}
	}
}

// TestSparseMLAUserBlockSize: GLM-5 with a spec block_size other than 64 on
// a B200 (FLASHMLA_SPARSE, bf16 KV) — vllm.Release.MLAUserBlockSize: 0.17.0
// overrides 16 and 128 to 64 (derived, the override noted for validate);
// 0.20.0 runs 128 as given and refuses 16 at vllm.block_size; 0.31.0 (not
// read) sizes 16 as given and notes that the handling is unverified, while
// 128, which every release read runs, needs no note.
func TestSparseMLAUserBlockSize(t *testing.T) {
	glm, err := catalog.LookupModel("glm-5-fp8")
	if err != nil {
		t.Fatal(err)
	}
	ip := func(i int) *int { return &i }
	for _, tt := range []struct {
		version string
		block   int
		want    int
		from    Source
		note    bool
		refuse  bool
	}{
		{"0.17.0", 16, 64, SourceDerived, true, false},
		{"0.17.0", 128, 64, SourceDerived, true, false},
		{"0.17.0", 64, 64, SourceSpec, false, false},
		{"0.20.0", 128, 128, SourceSpec, false, false},
		{"0.20.0", 16, 0, "", false, true},
		{"0.31.0", 16, 16, SourceSpec, true, false},
		{"0.31.0", 128, 128, SourceSpec, false, false},
	} {
		r, err := assembleBlock(t, glm, tt.version, ip(tt.block))
		if tt.refuse {
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Path != "vllm.block_size" || !strings.Contains(fe.Msg, "No valid attention backend found") {
				t.Errorf("%s %d: err %v, want a refusal at vllm.block_size quoting vLLM's error", tt.version, tt.block, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s %d: %v", tt.version, tt.block, err)
		}
		e := r.Engine
		if e.BlockSize.Value != tt.want || e.BlockSize.From != tt.from || (e.UserBlock != nil) != tt.note {
			t.Errorf("%s %d: block %d from %s note %v, want %d from %s note %v", tt.version, tt.block, e.BlockSize.Value, e.BlockSize.From, e.UserBlock != nil, tt.want, tt.from, tt.note)
		}
	}
}
