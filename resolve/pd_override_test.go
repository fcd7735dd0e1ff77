package resolve

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// gptOSSPD is a P/D example of a model without MLA (its block size is
// the spec's) on a release with --api-server-count.
const gptOSSPD = "gpt-oss-120b-pd-2x8h100.yaml"

// poolOverrideCase sets one field of the decode pool's vllm block (both
// pools' own overrides cleared first) and names the setting (as Settings
// lists it) the field decides.
type poolOverrideCase struct {
	key, example, setting string
	set                   func(*spec.PoolVLLM)
	from                  Source
}

// poolOverrideCases cover every key of poolOverrides.
func poolOverrideCases() []poolOverrideCase {
	ip := func(n int) *int { return &n }
	sp := func(s string) *string { return &s }
	yes, util, accept := true, 0.85, 1.7
	return []poolOverrideCase{
		{"gpu_memory_utilization", pdExample, "gpu_memory_utilization", func(o *spec.PoolVLLM) { o.GPUMemoryUtilization = &util }, SourceSpec},
		{"kv_cache_dtype", pdExample, "kv_cache_dtype", func(o *spec.PoolVLLM) { o.KVCacheDType = sp("fp8") }, SourceSpec},
		{"all2all_backend", pdExample, "all2all_backend", func(o *spec.PoolVLLM) { o.All2AllBackend = sp("deepep_low_latency") }, SourceSpec},
		// vLLM 0.11.0 reads only VLLM_ALL2ALL_BACKEND: the pool's variable
		// decides over its own all2all_backend (resolveAll2All).
		{"env." + vllm.All2AllEnv, pdExample, "all2all_backend", func(o *spec.PoolVLLM) {
			o.All2AllBackend = sp("deepep_high_throughput")
			o.Env = map[string]string{vllm.All2AllEnv: "deepep_low_latency"}
		}, SourceEnv},
		{"max_num_seqs", pdExample, "max_num_seqs", func(o *spec.PoolVLLM) { o.MaxNumSeqs = ip(256) }, SourceSpec},
		{"max_num_batched_tokens", pdExample, "max_num_batched_tokens", func(o *spec.PoolVLLM) { o.MaxNumBatchedTokens = ip(4096) }, SourceSpec},
		{"block_size", gptOSSPD, "block_size", func(o *spec.PoolVLLM) { o.BlockSize = ip(32) }, SourceSpec},
		{"api_server_count", gptOSSPD, "api_server_count", func(o *spec.PoolVLLM) { o.APIServerCount = ip(2) }, SourceSpec},
		{"decode_context_parallel_size", pdExample, "decode_context_parallel_size", func(o *spec.PoolVLLM) { o.DecodeContextParallelSize = ip(8) }, SourceSpec},
		{"enforce_eager", pdExample, "cuda_graphs", func(o *spec.PoolVLLM) { o.EnforceEager = &yes }, SourceSpec},
		{"speculative.mean_acceptance_length", pdExample, "mean_acceptance_length", func(o *spec.PoolVLLM) {
			o.Speculative = &spec.Speculative{Method: SpecMTP, NumSpeculativeTokens: 1, MeanAcceptanceLength: &accept}
		}, SourceSpec},
	}
}

// resolvePoolCase resolves tc's example with the decode pool's field set.
func resolvePoolCase(t *testing.T, ex string, set func(*spec.PoolVLLM)) *Deployment {
	t.Helper()
	d := example(t, ex)
	d.Disaggregation.Prefill.VLLM, d.Disaggregation.Decode.VLLM = spec.PoolVLLM{}, spec.PoolVLLM{}
	set(&d.Disaggregation.Decode.VLLM)
	return mustResolve(t, d)
}

// setting is the named setting of a resolved deployment (Settings).
func setting(t *testing.T, d *Deployment, name string) NamedSetting {
	t.Helper()
	for _, s := range d.Settings() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no setting %s in %+v", name, d.Settings())
	return NamedSetting{}
}

// TestPoolOverridesNameThePoolsField: every setting a pool's vllm field
// decides says so (its Why is disaggregation.decode.vllm.<field>), in the
// pool's own deployment and in the P/D deployment reports read (the decode
// pool's copy); the prefill pool, which does not write the field, keeps
// the top level's wording.
func TestPoolOverridesNameThePoolsField(t *testing.T) {
	tested := map[string]bool{}
	for _, tc := range poolOverrideCases() {
		tested[tc.key] = true
		t.Run(tc.key, func(t *testing.T) {
			r := resolvePoolCase(t, tc.example, tc.set)
			want := PoolOverrideWhy(spec.RoleDecode, tc.key)
			if !strings.HasPrefix(want, "disaggregation.decode.vllm."+tc.key+", ") {
				t.Fatalf("PoolOverrideWhy %q does not start with the field's path", want)
			}
			for _, d := range []*Deployment{r.PD.Roles[1].Deployment, r} {
				if s := setting(t, d, tc.setting); s.From != tc.from || s.Why != want {
					t.Errorf("decode %s: %+v, want from %s, why %q", tc.setting, s, tc.from, want)
				}
			}
			for _, s := range r.PD.Roles[0].Deployment.Settings() {
				if strings.Contains(s.Why, "disaggregation.") {
					t.Errorf("prefill %s: %q names a pool's field the prefill pool does not write", s.Name, s.Why)
				}
			}
		})
	}
	for _, o := range poolOverrides {
		if !tested[o.Key] {
			t.Errorf("poolOverrides key %s has no case", o.Key)
		}
	}
}

// TestPoolOverridesThatDecideNothing: a field the pool writes but that does
// not decide its setting leaves the setting's own From and Why: DeepSeek's
// MLA backend on an H20 under 0.11.0 forces its block size, `auto` leaves
// the backend to vlaunch's rule, enforce_eager false leaves CUDA graphs to
// the release, a speculative block without mean_acceptance_length takes
// the published figure.
func TestPoolOverridesThatDecideNothing(t *testing.T) {
	ip := func(n int) *int { return &n }
	sp := func(s string) *string { return &s }
	no := false
	for _, tc := range []struct {
		name, setting string
		set           func(*spec.PoolVLLM)
		from          Source
	}{
		{"forced block size", "block_size", func(o *spec.PoolVLLM) { o.BlockSize = ip(16) }, SourceDerived},
		{"auto backend", "all2all_backend", func(o *spec.PoolVLLM) { o.All2AllBackend = sp("auto") }, SourceAuto},
		{"enforce_eager false", "cuda_graphs", func(o *spec.PoolVLLM) { o.EnforceEager = &no }, ""},
		{"published acceptance", "mean_acceptance_length", func(o *spec.PoolVLLM) {
			o.Speculative = &spec.Speculative{Method: SpecMTP, NumSpeculativeTokens: 1}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := setting(t, resolvePoolCase(t, pdExample, tc.set).PD.Roles[1].Deployment, tc.setting)
			if s.From == SourceSpec || (tc.from != "" && s.From != tc.from) || strings.Contains(s.Why, "disaggregation.") {
				t.Errorf("%s: %+v, want its own provenance (from %q)", tc.setting, s, tc.from)
			}
		})
	}
}

// TestPoolOverridesCoverPoolVLLM: every field of spec.PoolVLLM either
// decides a Setting (a poolOverrides key under it) or feeds none, listed
// here with what it feeds; a field added to PoolVLLM fails until it is
// placed.
func TestPoolOverridesCoverPoolVLLM(t *testing.T) {
	noSetting := map[string]string{
		"enable_dbo":            "Engine.EnableDBO, a plain bool",
		"enable_eplb":           "Engine.EnableEPLB, a plain bool",
		"num_redundant_experts": "Engine.NumRedundantExperts, a plain int",
		"extra_args":            "the generator's command line only",
	}
	covered := map[string]bool{}
	for _, o := range poolOverrides {
		top, _, _ := strings.Cut(o.Key, ".")
		covered[top] = true
	}
	typ := reflect.TypeFor[spec.PoolVLLM]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("yaml"), ",")
		if covered[name] == (noSetting[name] != "") {
			t.Errorf("PoolVLLM field %s: in poolOverrides %v, listed as feeding no setting %v (want exactly one)", name, covered[name], noSetting[name] != "")
		}
	}
}
