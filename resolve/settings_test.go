package resolve

import (
	"testing"

	"github.com/vlaunch/vlaunch/vllm"
)

// TestSettingsProvenance: every effective engine value is listed once,
// with where it came from: the spec's own, vLLM's release default (naming
// the release), derived from the model, `auto` with why, or vllm.env.
func TestSettingsProvenance(t *testing.T) {
	d := example(t, "deepseek-v3-32xh20.yaml")
	d.VLLM.Env = map[string]string{vllm.All2AllEnv: "naive"}
	r := mustResolve(t, d)
	want := map[string]Source{
		"vllm_version": SourceSpec, "weights": SourceSpec, "kv_cache_dtype": SourceDerived,
		"gpu_memory_utilization": SourceRelease, "max_model_len": SourceSpec, "max_num_seqs": SourceRelease,
		"max_num_batched_tokens": SourceRelease, "block_size": SourceDerived, "all2all_backend": SourceEnv,
		"cuda_graphs": SourceRelease, "api_server_count": SourceSpec,
	}
	got := map[string]NamedSetting{}
	for _, s := range r.Settings() {
		if _, dup := got[s.Name]; dup {
			t.Errorf("%s listed twice", s.Name)
		}
		got[s.Name] = s
	}
	for name, from := range want {
		s, ok := got[name]
		switch {
		case !ok:
			t.Errorf("%s missing", name)
		case s.From != from:
			t.Errorf("%s from %s (%s), want %s", name, s.From, s.Why, from)
		case s.From != SourceSpec && s.Why == "":
			t.Errorf("%s from %s says nothing about how", name, s.From)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d settings, want %d: %v", len(got), len(want), r.Settings())
	}
	if s := got["cuda_graphs"]; s.Why != "vLLM 0.11.0 default" {
		t.Errorf("a release default without a note names the release: %q", s.Why)
	}
	if s := got["all2all_backend"]; s.Value != "naive" || s.Why != vllm.All2AllEnv+"=naive in vllm.env" {
		t.Errorf("all2all_backend %v (%s)", s.Value, s.Why)
	}
}
