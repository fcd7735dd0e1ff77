package resolve

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestResolveLoRA: the LoRA flags are read from extra_args as argparse
// reads them (last wins, both value forms, underscores), each with its
// provenance; what is not given is the release's flag-table default.
func TestResolveLoRA(t *testing.T) {
	r, _, err := vllm.ResolveString("0.20.0")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                string
		args                []string
		on, sharded         bool
		slots, rank, arg    int
		dtype               string
		slotsFrom, rankFrom Source
	}{
		{"off", nil, false, false, 1, 16, -1, "auto", SourceRelease, SourceRelease},
		{"on, defaults", []string{"--enable-lora"}, true, false, 1, 16, 0, "auto", SourceRelease, SourceRelease},
		{"both forms, last wins", []string{"--max-loras", "2", "--enable_lora", "--max-lora-rank=64", "--max-loras=4", "--fully-sharded-loras", "--lora-dtype", "bfloat16"},
			true, true, 4, 64, 2, "bfloat16", SourceSpec, SourceSpec},
		{"turned off again", []string{"--enable-lora", "--max-loras=8", "--no-enable-lora"}, false, false, 8, 16, 2, "auto", SourceSpec, SourceRelease},
		{"bad numbers keep the default", []string{"--enable-lora=true", "--max-loras=x", "--max-lora-rank", "-3"}, true, false, 1, 16, 0, "auto", SourceRelease, SourceRelease},
	}
	for _, c := range cases {
		l := resolveLoRA(r, "0.20.0", c.args)
		if l.Enabled.Value != c.on || l.FullySharded.Value != c.sharded || l.MaxLoras.Value != c.slots || l.MaxRank.Value != c.rank ||
			l.Arg != c.arg || l.DType.Value != c.dtype || l.MaxLoras.From != c.slotsFrom || l.MaxRank.From != c.rankFrom {
			t.Errorf("%s: got %+v", c.name, l)
		}
		if want := map[string]string{"bfloat16": "bf16"}[c.dtype]; l.Storage != want {
			t.Errorf("%s: storage %q, want %q (auto is left to resolveEngine)", c.name, l.Storage, want)
		}
		if l.MaxRank.From == SourceRelease && !strings.Contains(l.MaxRank.Why, "0.20.0") {
			t.Errorf("%s: release default does not name the release: %q", c.name, l.MaxRank.Why)
		}
	}
}

// TestLoRAResolvedFromSpec: Assemble resolves the spec's extra_args once,
// and the settings list shows LoRA only when it is on.
func TestLoRAResolvedFromSpec(t *testing.T) {
	d := example(t, "deepseek-v3-32xh20.yaml")
	r := mustResolve(t, d)
	for _, s := range r.Settings() {
		if strings.Contains(s.Name, "lora") {
			t.Errorf("LoRA off but %s listed", s.Name)
		}
	}
	d.VLLM.ExtraArgs = append(d.VLLM.ExtraArgs, "--enable-lora", "--max-loras", "3")
	r = mustResolve(t, d)
	if l := r.Engine.LoRA; !l.Enabled.Value || l.MaxLoras.Value != 3 || l.MaxLoras.From != SourceSpec || l.Storage != "bf16" {
		t.Fatalf("LoRA = %+v", l)
	}
	n := 0
	for _, s := range r.Settings() {
		if strings.Contains(s.Name, "lora") {
			n++
		}
	}
	if n != 5 {
		t.Errorf("%d LoRA settings listed, want 5", n)
	}
}

// TestLoRAEmbeddings: the embedding and LM head take slots where the
// release's model class declares them LoRA-capable: Llama's at every
// release read, Qwen3's from 0.16.0 (not at 0.15.1), Qwen2's never.
func TestLoRAEmbeddings(t *testing.T) {
	for _, c := range []struct {
		model, version string
		want           bool
	}{
		{"meta-llama/Llama-3.1-8B-Instruct", "0.11.0", true},
		{"Qwen/Qwen3-8B", "0.15.1", false},
		{"Qwen/Qwen3-8B", "0.16.0", true},
		{"Qwen/Qwen2.5-72B-Instruct", "0.20.0", false},
	} {
		m, err := catalog.LookupModel(c.model)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := vllm.ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := ReadLoRA(m, r, c.version, []string{"--enable-lora"}).Embeddings; got != c.want {
			t.Errorf("%s at %s: embeddings %v, want %v", c.model, c.version, got, c.want)
		}
	}
}

// TestLoRAExtraVocab: lora_extra_vocab_size is 256 (or the flag's) up to
// v0.11.2 and gone from v0.12.0, where the flag changes nothing.
func TestLoRAExtraVocab(t *testing.T) {
	for _, c := range []struct {
		version string
		args    []string
		want    int
	}{
		{"0.11.0", nil, 256},
		{"0.11.0", []string{"--lora-extra-vocab-size", "512"}, 512},
		{"0.20.0", nil, 0},
		{"0.20.0", []string{"--lora-extra-vocab-size=512"}, 0},
	} {
		r, _, err := vllm.ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := resolveLoRA(r, c.version, append([]string{"--enable-lora"}, c.args...)).ExtraVocab.Value; got != c.want {
			t.Errorf("%s %v: extra vocab %d, want %d", c.version, c.args, got, c.want)
		}
	}
}

// TestLoRAExperts: the routed experts' LoRA rule per release, as read at
// the tags (vllm/lora/layers/fused_moe.py absent at v0.11.0; at v0.11.1
// and v0.11.2 without the fully_sharded split; with it at v0.12.0 and on
// to v0.24.0, later releases taken as v0.24.0).
func TestLoRAExperts(t *testing.T) {
	for version, want := range map[string]int{
		"0.10.2": catalog.LoRAExpertsNone, "0.11.0": catalog.LoRAExpertsNone,
		"0.11.1": catalog.LoRAExpertsWhole, "0.11.2": catalog.LoRAExpertsWhole,
		"0.12.0": catalog.LoRAExpertsSharded, "0.24.0": catalog.LoRAExpertsSharded, "0.31.0": catalog.LoRAExpertsSharded,
	} {
		r, _, err := vllm.ResolveString(version)
		if err != nil {
			t.Fatal(err)
		}
		if got := resolveLoRA(r, version, []string{"--enable-lora"}).Experts; got != want {
			t.Errorf("%s: experts rule %d, want %d", version, got, want)
		}
	}
}

// TestLoRAMLA: DeepSeek MLA LoRA shapes were read from v0.20.0 (to v0.24.0).
func TestLoRAMLA(t *testing.T) {
	for version, want := range map[string]bool{"0.19.1": false, "0.20.0": true, "0.24.0": true, "0.31.0": true} {
		r, _, err := vllm.ResolveString(version)
		if err != nil {
			t.Fatal(err)
		}
		if got := resolveLoRA(r, version, []string{"--enable-lora"}).MLA; got != want {
			t.Errorf("%s: MLA %v, want %v", version, got, want)
		}
	}
}
