package input

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// CodeInput reports a deployment FromSpec or Quick cannot resolve (commands
// resolve through validate, which reports it with its position).
const CodeInput = codes.EstInput

// FromSpec resolves a loaded, defaulted spec (see resolve.FromSpec); for
// tests and tools: commands resolve through validate.
func FromSpec(d *spec.Deployment) (Input, diag.Diagnostics) {
	r, err := resolve.FromSpec(d)
	if err != nil {
		return Input{}, diag.Diagnostics{inputErr(err)}
	}
	return FromResolved(r), nil
}

// Quick resolves the quick form of `vlaunch check` (see resolve.Quick).
func Quick(o resolve.QuickOptions) (Input, diag.Diagnostics) {
	r, err := resolve.Quick(o)
	if err != nil {
		return Input{}, diag.Diagnostics{inputErr(err)}
	}
	return FromResolved(r), nil
}

// Resolve fills a hand-built input's engine settings (model, GPU, version,
// layout, network and workload already set) as resolution would, through
// package resolve: the calibration tables build inputs from logged runs.
func (in *Input) Resolve(e resolve.EngineSettings) diag.Diagnostics {
	rel, ver, notes, err := resolve.Release(in.VLLMVersion)
	if err != nil {
		return diag.Diagnostics{inputErr(err)}
	}
	p := resolve.Parts{Model: in.Model, GPU: in.GPU, Release: rel, Version: ver, VersionNotes: notes}
	d, err := resolve.Build(p, in.Layout, in.Network, in.Workload, e)
	if err != nil {
		return diag.Diagnostics{inputErr(err)}
	}
	*in = FromResolved(d)
	return nil
}

// SetDTypes sets the weights and KV dtypes as model.weights and
// vllm.kv_cache_dtype would (resolve.ResolveDTypes).
func (in *Input) SetDTypes(weights, kv string) diag.Diagnostics {
	t, err := resolve.ResolveDTypes(in.Model, weights, kv)
	if err != nil {
		return diag.Diagnostics{inputErr(err)}
	}
	in.WeightsDType, in.WeightsFromCheckpoint, in.KVCacheDType = t.Weights.Value, t.FromCheckpoint, t.KVCache.Value
	return nil
}

// inputErr turns a resolution error into an error diagnostic.
func inputErr(err error) diag.Diagnostic {
	d := diag.Diagnostic{Code: CodeInput, Severity: diag.Error, Message: err.Error()}
	if fe, ok := err.(*resolve.FieldError); ok {
		d.Path, d.Message, d.Hint = fe.Path, fe.Msg, fe.Hint
	}
	return d
}
