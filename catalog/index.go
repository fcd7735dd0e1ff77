package catalog

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed models/*.json
var modelFiles embed.FS

// modelEntry ties a catalog id to its vendored config.json and the
// parameter count its publisher states.
type modelEntry struct {
	id, file, repo string
	published      float64
	source         string
	// withEncoder: the published count includes the vision encoder.
	withEncoder bool
}

// modelIndex lists the embedded models. Published counts come from the
// model cards (or, where the card rounds, the checkpoint's tensor count).
var modelIndex = []modelEntry{
	{"deepseek-v3", "deepseek-ai__DeepSeek-V3.json", "deepseek-ai/DeepSeek-V3", 671e9, "model card: 671B total (MTP module excluded)", false},
	{"deepseek-r1", "deepseek-ai__DeepSeek-R1.json", "deepseek-ai/DeepSeek-R1", 671e9, "model card: 671B total (MTP module excluded)", false},
	{"deepseek-v2-lite", "deepseek-ai__DeepSeek-V2-Lite.json", "deepseek-ai/DeepSeek-V2-Lite", 15.7e9, "model card: 15.7B", false},
	{"kimi-k2", "moonshotai__Kimi-K2-Instruct.json", "moonshotai/Kimi-K2-Instruct", 1.0265e12, "checkpoint tensor count 1,026,470,731,056 (card rounds to 1T)", false},
	{"qwen3-235b-a22b", "Qwen__Qwen3-235B-A22B.json", "Qwen/Qwen3-235B-A22B", 235e9, "model card: 235B", false},
	{"qwen3-235b-a22b-fp8", "Qwen__Qwen3-235B-A22B-FP8.json", "Qwen/Qwen3-235B-A22B-FP8", 235e9, "model card: 235B", false},
	{"qwen3-30b-a3b", "Qwen__Qwen3-30B-A3B.json", "Qwen/Qwen3-30B-A3B", 30.5e9, "model card: 30.5B", false},
	{"qwen3-30b-a3b-fp8", "Qwen__Qwen3-30B-A3B-FP8.json", "Qwen/Qwen3-30B-A3B-FP8", 30.5e9, "model card: 30.5B", false},
	{"qwen3-8b", "Qwen__Qwen3-8B.json", "Qwen/Qwen3-8B", 8.2e9, "model card: 8.2B", false},
	{"qwen3-14b", "Qwen__Qwen3-14B.json", "Qwen/Qwen3-14B", 14.8e9, "model card (as OpenPipe/Qwen3-14B-Instruct's README quotes its overview): 14.8B", false},
	{"qwen2.5-72b", "Qwen__Qwen2.5-72B-Instruct.json", "Qwen/Qwen2.5-72B-Instruct", 72.7e9, "model card: 72.7B", false},
	{"llama-3.1-8b", "meta-llama__Llama-3.1-8B-Instruct.json", "meta-llama/Llama-3.1-8B-Instruct", 8.03e9, "Hugging Face safetensors: 8.03B", false},
	{"llama-3.1-70b", "meta-llama__Llama-3.1-70B-Instruct.json", "meta-llama/Llama-3.1-70B-Instruct", 70.6e9, "Hugging Face safetensors: 70.6B", false},
	{"llama-3.3-70b", "meta-llama__Llama-3.3-70B-Instruct.json", "meta-llama/Llama-3.3-70B-Instruct", 70.6e9, "Hugging Face safetensors: 70.6B", false},
	{"llama-3.1-405b", "meta-llama__Llama-3.1-405B.json", "meta-llama/Llama-3.1-405B", 405e9, "model card: 405B", false},
	{"mixtral-8x7b", "mistralai__Mixtral-8x7B-v0.1.json", "mistralai/Mixtral-8x7B-v0.1", 46.7e9, "Mistral announcement: 46.7B total", false},
	{"gpt-oss-20b", "openai__gpt-oss-20b.json", "openai/gpt-oss-20b", 20.91e9, "OpenAI model card: 20.91B total", false},
	// GLM-4.5's configs are reconstructed (catalog/models/README.md says from what).
	{"glm-4.5", "zai-org__GLM-4.5.json", "zai-org/GLM-4.5", 355e9, "model card: 355B total, 32B active", false},
	{"glm-4.5-air", "zai-org__GLM-4.5-Air.json", "zai-org/GLM-4.5-Air", 106e9, "model card: 106B total, 12B active", false},
	{"gpt-oss-120b", "openai__gpt-oss-120b.json", "openai/gpt-oss-120b", 116.83e9, "OpenAI model card: 116.83B total", false},
	// GLM-5 is built by vLLM as DeepSeek-V3.2 (MLA + DSA); card figures per catalog/models/README.md.
	{"glm-5", "zai-org__GLM-5.json", "zai-org/GLM-5", 744e9, "model card: 744B total, 40B active", false},
	{"glm-5-fp8", "zai-org__GLM-5-FP8.json", "zai-org/GLM-5-FP8", 744e9, "model card: 744B total, 40B active", false},
	// Qwen3-Next: a Gated DeltaNet hybrid (catalog/hybrid.go).
	{"qwen3-next-80b-a3b", "Qwen__Qwen3-Next-80B-A3B-Thinking.json", "Qwen/Qwen3-Next-80B-A3B-Thinking", 80e9, "model card: 80B total, 3B active", false},
	// MiniMax-M2.5 keeps MiniMax-M2's architecture (catalog/models/README.md).
	{"minimax-m2.5", "MiniMaxAI__MiniMax-M2.5.json", "MiniMaxAI/MiniMax-M2.5", 230e9, "model card (MiniMax-M2): 230B total, 10B active", false},
	// DeepSeek-V4, Gemma 4 and MiMo-V2-Flash (#23): catalog/models/README.md says from where.
	{"deepseek-v4-flash", "deepseek-ai__DeepSeek-V4-Flash.json", "deepseek-ai/DeepSeek-V4-Flash", 284e9, "model card (as quoted by deepseekv4flash.com/models): 284B total, 13B active", false},
	{"gemma-4-26b-a4b", "google__gemma-4-26B-A4B.json", "google/gemma-4-26B-A4B", 25.2e9, "model card (as quoted by featherless.ai): 25.2B total, 3.8B active; the vision encoder (catalog.Encoder) counted apart", false},
	{"mimo-v2-flash", "XiaomiMiMo__MiMo-V2-Flash.json", "XiaomiMiMo/MiMo-V2-Flash", 309e9, "vLLM recipe and model card: 309B total, 15B active", false},
	// Step-3.5-Flash (step3p5, catalog/step3p5.go): the config.json as Megatron-Bridge's tests vendor it (catalog/models/README.md).
	{"step-3.5-flash", "stepfun-ai__Step-3.5-Flash.json", "stepfun-ai/Step-3.5-Flash", 196e9, "model card and vLLM recipe: 196B total, 11B active", false},
	// The families people deploy now (#23 item 6, branch catalog39): the
	// config.json files catalog/testdata/hf/README.md cites, copied whole;
	// catalog/models/README.md says from where, estimate/memory/
	// catalog39_test.go holds their weights to the checkpoints' bytes.
	{"qwen3.5-397b-a17b", "Qwen__Qwen3.5-397B-A17B.json", "Qwen/Qwen3.5-397B-A17B", 397e9, "model card: 397B total, 17B active (vision encoder included)", true},
	{"qwen3.5-27b", "Qwen__Qwen3.5-27B.json", "Qwen/Qwen3.5-27B", 27e9, "model card: 27B (vision encoder included)", true},
	{"kimi-k2.5", "moonshotai__Kimi-K2.5.json", "moonshotai/Kimi-K2.5", 1.0265e12, "language model: Kimi-K2's text config, checkpoint tensor count 1,026,470,731,056 (card: 1T total, 32B active; MoonViT counted apart)", false},
	{"deepseek-v4-pro", "deepseek-ai__DeepSeek-V4-Pro.json", "deepseek-ai/DeepSeek-V4-Pro", 1.6e12, "model card (as the V4 technical report's summaries quote it): 1.6T total, 49B active", false},
	{"minimax-m3", "MiniMaxAI__MiniMax-M3.json", "MiniMaxAI/MiniMax-M3", 427.04e9, "vLLM recipe (recipes@8959cf6 MiniMax-M3.yaml): 427.04B from safetensors metadata, vision tower included (not in this text config)", false},
	{"llama-4-scout", "meta-llama__Llama-4-Scout-17B-16E-Instruct.json", "meta-llama/Llama-4-Scout-17B-16E-Instruct", 109e9, "model card: 109B total, 17B active (vision encoder included)", true},
	{"llama-4-maverick", "meta-llama__Llama-4-Maverick-17B-128E-Instruct.json", "meta-llama/Llama-4-Maverick-17B-128E-Instruct", 400e9, "model card: 400B total, 17B active (vision encoder included)", true},
	{"nemotron-3-nano-30b-a3b", "nvidia__NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", 31.6e9, "model card: 31.6B total, 3.6B active", false},
	{"nemotron-3-ultra-550b-a55b", "nvidia__NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.json", "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16", 550e9, "model card (as vLLM's recipe quotes it): 550B total, 55B active", false},
	{"gemma-4-31b-it-nvfp4", "nvidia__Gemma-4-31B-IT-NVFP4.json", "nvidia/Gemma-4-31B-IT-NVFP4", 30.7e9, "google/gemma-4-31B's card: 30.7B (NVFP4 re-quantization of the same architecture)", false},
	{"kimi-linear-48b-a3b", "moonshotai__Kimi-Linear-48B-A3B-Instruct.json", "moonshotai/Kimi-Linear-48B-A3B-Instruct", 49.12268e9, "checkpoint tensor count 49,122,681,728 (card rounds to 48B total, 3B active)", false},
	{"kimi-k3", "moonshotai__Kimi-K3.json", "moonshotai/Kimi-K3", 0, "no card figure found; the checkpoint's 1,560,860,324,864 B are matched instead", false},
}

// LookupModel returns the catalog model with the given id (case-insensitive,
// also accepting the Hugging Face repo name).
func LookupModel(id string) (*Model, error) {
	key := strings.ToLower(strings.TrimSpace(id))
	for _, e := range modelIndex {
		if e.id == key || strings.ToLower(e.repo) == key {
			return e.load()
		}
	}
	ids := make([]string, len(modelIndex))
	for i, e := range modelIndex {
		ids[i] = e.id
	}
	return nil, &UnknownError{Kind: "model", Name: id, Suggestions: Suggest(id, ids), Known: ids}
}

// Models returns every catalog model, sorted by id.
func Models() []*Model {
	out := make([]*Model, 0, len(modelIndex))
	for _, e := range modelIndex {
		m, err := e.load()
		if err != nil {
			panic(fmt.Sprintf("embedded model %s is broken: %v", e.id, err)) // a build defect, caught by tests
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func (e modelEntry) load() (*Model, error) {
	data, err := modelFiles.ReadFile("models/" + e.file)
	if err != nil {
		return nil, err
	}
	m, err := ParseHFConfig(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e.file, err)
	}
	m.ID, m.HFRepo, m.PublishedParams, m.PublishedParamsSource = e.id, e.repo, e.published, e.source
	m.PublishedParamsWithEncoder = e.withEncoder
	return m, nil
}

// UnknownError reports a name that is not in a catalog, with suggestions.
type UnknownError struct {
	Kind, Name  string
	Suggestions []string
	Known       []string
}

// Error renders the name with up to three suggestions.
func (e *UnknownError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.Kind, e.Name)
	if len(e.Suggestions) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(quoteAll(e.Suggestions), " or "))
	}
	return msg
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}
