package vllm

// srcSpecMethods: SpeculativeMethod Literal per release.
const srcSpecMethods = srcSpec011 + "; " + srcSpec012 + "; PR #24904 diff (Sep 2025 main, before the move to vllm/config/speculative.py: " +
	"ngram, eagle, eagle3, medusa, mlp_speculator, draft_model, deepseek_mtp, ernie_mtp, qwen3_next_mtp — no \"mtp\"); " +
	"PR #40455 (Apr 2026 docs: ngram_gpu, suffix, dflash, extract_hidden_states also accepted); " + srcSpec064 + "; " + srcSpec082

// Speculative method lists read per release; the 0.10 list is main in
// mid-September 2025 and stands for 0.10.x unverified.
var (
	specMethods010 = []string{"ngram", "eagle", "eagle3", "medusa", "mlp_speculator", "draft_model", "deepseek_mtp", "ernie_mtp", "qwen3_next_mtp"}
	specMethods011 = append(append([]string(nil), specMethods010...), "mimo_mtp", "longcat_flash_mtp", "mtp")
	specMethods012 = append(append([]string(nil), specMethods011...), "suffix", "glm4_moe_mtp", "pangu_ultra_moe_mtp")
	specMethodsNew = append(append([]string(nil), specMethods012...), "ngram_gpu", "dflash", "extract_hidden_states")
)

// SpeculativeSyntax says how a release takes speculative-decoding settings.
type SpeculativeSyntax struct {
	// JSONFlag is --speculative-config '{"method": ..., "model": ...,
	// "num_speculative_tokens": N}'.
	JSONFlag Presence
	// OldFlags are --speculative-model NAME --num-speculative-tokens N
	// (with "[ngram]" as the model for n-gram speculation).
	OldFlags Presence
	// Methods are the "method" values the release accepts; nil when the
	// release's list was not read (before 0.10).
	Methods []string
	// MTPMethod is the method name for DeepSeek-style MTP: "deepseek_mtp"
	// before 0.11.0, the generic "mtp" from 0.11.0 (both accepted there).
	MTPMethod string
	Verified  bool
	Source    string
}

// Speculative returns the release's speculative-decoding syntax. Exact
// method lists were read for 0.11.0 and 0.12.0 only.
func (r Release) Speculative() SpeculativeSyntax {
	s := SpeculativeSyntax{MTPMethod: "deepseek_mtp", Source: srcSpecMethods}
	// FlagSpan: the flags' whole lives (speculative-config's entries split
	// where the -sc alias came, 0.19.0).
	if sp, ok := FlagSpan("speculative-config"); ok {
		s.JSONFlag = sp.In(r.Version)
	}
	if sp, ok := FlagSpan("speculative-model"); ok {
		s.OldFlags = sp.In(r.Version)
	}
	v := r.Version
	switch {
	case v.AtLeast(v0130):
		s.Methods = specMethodsNew
	case v.AtLeast(v0120):
		s.Methods, s.Verified = specMethods012, true
	case v.AtLeast(v0110):
		s.Methods, s.Verified = specMethods011, true
	case v.AtLeast(v0100):
		s.Methods = specMethods010
	}
	if v.AtLeast(v0110) {
		s.MTPMethod = "mtp"
	}
	return s
}

// Accepts reports whether the method name is valid in the release: Absent
// only when the release's list was read and lacks it.
func (s SpeculativeSyntax) Accepts(method string) Presence {
	for _, m := range s.Methods {
		if m == method {
			return Present
		}
	}
	if s.Verified {
		return Absent
	}
	return Maybe
}
