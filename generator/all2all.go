package generator

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// PrefillHeavyRatio is vllm.PrefillHeavyRatio, kept here for the bundle docs.
const PrefillHeavyRatio = vllm.PrefillHeavyRatio

// planAll2All takes the backend that runs from the resolved deployment
// (resolve applies the spec, `auto`, the user's VLLM_ALL2ALL_BACKEND and
// vLLM's precedence between flag and variable) and returns validate's notes
// on it (validate.All2AllNotes: what validate says of the same spec).
func planAll2All(r *resolve.Deployment, p *Plan) diag.Diagnostics {
	a := r.Engine.All2All
	p.All2All, p.All2AllWhy, p.All2AllWritten = a.Value, a.Why, r.Engine.All2AllWritten
	if a.From == resolve.SourceEnv {
		p.All2AllFromEnv, p.Via = true, vllm.ViaEnv.String()
	}
	b, known := r.Release.All2AllBackend(a.Value)
	p.DeepEP = known && b.DeepEP
	return validate.All2AllNotes(r, p.multiNode())
}
