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

// ArrivalBurstiness is the gamma shape of the open loop's inter-arrival
// gaps (spec.Workload.ArrivalBurstiness, vLLM bench serve's --burstiness)
// with where it came from: the spec's; 1 (Poisson, the benchmark's
// default) when the spec gives an arrival rate and no shape; 0 without an
// arrival rate (a closed loop, or a burst sent at t=0: no gaps to shape;
// validate refuses a shape there). The simulations take
// spec.Workload.Burstiness, its value.
func (d *Deployment) ArrivalBurstiness() Setting[float64] {
	w := d.Workload
	switch {
	case w.ArrivalRatePerS <= 0:
		return set(0.0, SourceDerived, "no arrival rate: no open-loop arrivals to shape")
	case w.ArrivalBurstiness > 0:
		return set(w.ArrivalBurstiness, SourceSpec, "gamma inter-arrival gaps of squared coefficient of variation 1/B, as vLLM bench serve --burstiness B")
	}
	return set(1.0, SourceAssumed, "Poisson arrivals (vLLM bench serve's default --burstiness 1)")
}
