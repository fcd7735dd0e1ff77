package resolve

// Source says where an effective value came from, for reports that show
// provenance ("0.9 (vLLM 0.11.0 default)").
type Source string

// Sources of effective values.
const (
	// SourceSpec: written in the spec (or given as a quick-form flag).
	SourceSpec Source = "spec"
	// SourceEnv: a variable in vllm.env that vLLM reads overrides the setting.
	SourceEnv Source = "env"
	// SourceRelease: vLLM's own default for the release.
	SourceRelease Source = "release default"
	// SourceAuto: vlaunch chose it for an `auto` setting; Why says how.
	SourceAuto Source = "auto"
	// SourceDerived: it follows from other values (model, GPU, layout).
	SourceDerived Source = "derived"
	// SourceAssumed: nothing says; vlaunch assumes it (Why says what).
	SourceAssumed Source = "assumed"
)

// Setting is one effective value with its provenance. Why is a short
// explanation for reports ("" when From says enough).
type Setting[T any] struct {
	Value T
	From  Source
	Why   string
}

// set builds a Setting.
func set[T any](v T, from Source, why string) Setting[T] {
	return Setting[T]{Value: v, From: from, Why: why}
}

// origin returns where the setting's From and Why are stored, whatever
// its value's type, for code that rewrites provenance (markPoolOverrides).
func (s *Setting[T]) origin() (*Source, *string) { return &s.From, &s.Why }
