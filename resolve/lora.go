package resolve

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// LoRA is the LoRA adapter serving vllm.extra_args asks for, each value
// with its provenance: the spec's flag, or the release's default from
// vLLM's flag table (vllm.Release.Flag). validate (SPEC142) and the memory
// model read it; nothing else parses those flags.
type LoRA struct {
	// Enabled is --enable-lora.
	Enabled Setting[bool]
	// MaxLoras is --max-loras: the adapter slots vLLM pre-allocates.
	MaxLoras Setting[int]
	// MaxRank is --max-lora-rank: every slot is allocated at this rank.
	MaxRank Setting[int]
	// FullySharded is --fully-sharded-loras: column-parallel A and
	// row-parallel B sharded over TP too.
	FullySharded Setting[bool]
	// DType is --lora-dtype as given or defaulted (auto: the model's dtype).
	DType Setting[string]
	// Storage is the slots' dtype, bf16 or fp16: DType, auto read as the
	// model's activation dtype (vLLM v0.20.0 vllm/config/lora.py
	// verify_with_model_config: lora_dtype auto → model_config.dtype).
	Storage string
	// Embeddings says the release's model class makes the embedding and
	// LM head LoRA-capable, so they take slots too
	// (catalog.Model.LoRAEmbeddingSince at or before the release).
	Embeddings bool
	// ExtraVocab is lora_extra_vocab_size: 256 (or --lora-extra-vocab-size)
	// up to v0.11.2, 0 from v0.12.0, which removed it (vLLM v0.11.2 and
	// v0.12.0 vllm/config/lora.py).
	ExtraVocab Setting[int]
	// Experts is what the release's LoRA manager allocates for routed
	// experts (catalog.LoRAExpertsNone before v0.11.1, LoRAExpertsWhole at
	// v0.11.1-v0.11.2, LoRAExpertsSharded from v0.12.0; vllm/lora/layers/
	// fused_moe.py read at those tags and to v0.24.0; later releases are
	// taken as v0.24.0).
	Experts int
	// MLA says the release's DeepSeek MLA and MoE modules were read for
	// their LoRA classes: v0.20.0, v0.22.0 and v0.24.0 (deepseek_v2.py,
	// vllm/lora/layers/*.py), later releases taken as v0.24.0; before
	// v0.20.0 (v0.18.0's MergedColumnParallelLinearWithLoRA lacks the
	// unsharded-subclass rule fused_qkv_a_proj takes) not derived.
	MLA bool
	// Arg is the index in extra_args of the argument that turned LoRA on
	// (-1: none), for diagnostics' paths.
	Arg int
}

// SlotBytesPerElement is the bytes of one slot element: 2, since lora_dtype
// auto is the model's activation dtype (bf16 or fp16) and the flag's other
// choices are float16 and bfloat16 (vLLM v0.20.0 vllm/config/lora.py,
// LoRADType).
func (l LoRA) SlotBytesPerElement() float64 { return 2 }

// ReadLoRA is resolveLoRA for a spec that does not assemble (validate
// still reports LoRA then): the same reading, for release r named version;
// m is the model (nil: unknown, no embedding slots).
func ReadLoRA(m *catalog.Model, r vllm.Release, version string, args []string) LoRA {
	l := resolveLoRA(r, version, args)
	l.Embeddings = m != nil && loraEmbeddings(m, r)
	return l
}

// resolveLoRA reads extra_args the way vLLM's argparse will (the last value
// wins; "--flag value" and "--flag=value"; underscores as dashes), the
// release's flag defaults filling what is not given.
func resolveLoRA(r vllm.Release, version string, args []string) LoRA {
	def := func(name, fallback string) (string, string) {
		if f, ok := r.Flag(name); ok && f.Default != "" {
			return f.Default, "vLLM " + version + " --" + name + " default"
		}
		return fallback, "vLLM's --" + name + " default (" + fallback + ")"
	}
	l := LoRA{Arg: -1}
	_, why := def("enable-lora", "False")
	l.Enabled = set(false, SourceRelease, why)
	l.FullySharded = set(false, SourceRelease, "vLLM "+version+" --fully-sharded-loras default")
	n, why := def("max-loras", "1")
	l.MaxLoras = set(atoiOr(n, 1), SourceRelease, why)
	n, why = def("max-lora-rank", "16")
	l.MaxRank = set(atoiOr(n, 16), SourceRelease, why)
	n, why = def("lora-dtype", "auto")
	l.DType = set(n, SourceRelease, why)
	l.ExtraVocab = set(0, SourceRelease, "vLLM "+version+" has no extra LoRA vocabulary (removed at v0.12.0)")
	if r.Version.Less(loraExtraVocabRemoved) {
		l.ExtraVocab = set(256, SourceRelease, "vLLM "+version+" lora_extra_vocab_size default")
	}
	l.Experts = loraExperts(r)
	l.MLA = r.Version.AtLeast(loraMLASince)
	for i, a := range args {
		a = strings.TrimSpace(a)
		name, val, inline := strings.Cut(a, "=")
		name = "--" + strings.ReplaceAll(strings.TrimPrefix(name, "--"), "_", "-")
		if !inline && i+1 < len(args) {
			val = args[i+1]
		}
		switch name {
		case "--enable-lora", "--no-enable-lora":
			if b := vllm.ExtraArgBool([]string{name + tail(a)}, "--enable-lora"); b != nil {
				l.Enabled, l.Arg = set(*b, SourceSpec, ""), i
			}
		case "--fully-sharded-loras", "--no-fully-sharded-loras":
			if b := vllm.ExtraArgBool([]string{name + tail(a)}, "--fully-sharded-loras"); b != nil {
				l.FullySharded = set(*b, SourceSpec, "")
			}
		case "--max-loras":
			if v, err := strconv.Atoi(val); err == nil && v > 0 {
				l.MaxLoras = set(v, SourceSpec, "")
			}
		case "--max-lora-rank":
			if v, err := strconv.Atoi(val); err == nil && v > 0 {
				l.MaxRank = set(v, SourceSpec, "")
			}
		case "--lora-extra-vocab-size":
			if v, err := strconv.Atoi(val); err == nil && v >= 0 && l.ExtraVocab.Value > 0 {
				l.ExtraVocab = set(v, SourceSpec, "")
			}
		case "--lora-dtype":
			if !inline && strings.HasPrefix(val, "--") {
				continue
			}
			l.DType = set(val, SourceSpec, "")
		}
	}
	l.Storage = map[string]string{"float16": "fp16", "bfloat16": "bf16"}[l.DType.Value]
	return l
}

// loraEmbeddings reports whether release r's model class for m declares
// LoRA-capable embeddings (catalog.Model.LoRAEmbeddingSince).
func loraEmbeddings(m *catalog.Model, r vllm.Release) bool {
	since, err := vllm.ParseVersion(m.LoRAEmbeddingSince())
	return err == nil && r.Version.AtLeast(since)
}

// loraExperts is release r's rule for routed experts' LoRA slots (LoRA.Experts).
func loraExperts(r vllm.Release) int {
	switch {
	case r.Version.Less(loraFusedMoESince):
		return catalog.LoRAExpertsNone
	case r.Version.Less(loraExtraVocabRemoved):
		return catalog.LoRAExpertsWhole
	}
	return catalog.LoRAExpertsSharded
}

// loraFusedMoESince is the first release with FusedMoEWithLoRA
// (vllm/lora/layers/fused_moe.py: absent at v0.11.0, present at v0.11.1).
// Its fully_sharded_loras split of the experts' A rank and B hidden is
// first at v0.12.0 (absent at v0.11.1 and v0.11.2), loraExtraVocabRemoved.
var loraFusedMoESince, _ = vllm.ParseVersion("0.11.1")

// loraMLASince is the first release whose DeepSeek MLA LoRA shapes were
// read (LoRA.MLA).
var loraMLASince, _ = vllm.ParseVersion("0.20.0")

// loraExtraVocabRemoved is the first release without lora_extra_vocab_size.
var loraExtraVocabRemoved, _ = vllm.ParseVersion("0.12.0")

// tail is a's "=value" part, "" without one.
func tail(a string) string {
	if _, v, ok := strings.Cut(a, "="); ok {
		return "=" + v
	}
	return ""
}

func atoiOr(s string, fallback int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return fallback
}
