package plan

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/validate"
)

// generatorRefuses is the verdict of the generator's own plan of the
// bundle (generator.Refusal: no rendering, no command per node) for a
// candidate: the checks `vlaunch generate` makes beyond validation (the
// layout's kind on these nodes, DBO and the backend, the image's kernels,
// ...). A candidate it refuses is not offered.
func generatorRefuses(dep *resolve.Deployment) error {
	if dep.Spec == nil {
		return nil
	}
	if ds := generator.Refusal(dep, dep.Spec.Runtime.Kind); ds.HasErrors() {
		return fmt.Errorf("%s", firstError(ds))
	}
	return nil
}

// refusals remembers the generator's verdict (generatorRefuses) for
// candidates that differ only in their scheduler limits: the generator
// writes --max-num-seqs and --max-num-batched-tokens as given when set,
// so its verdict depends on whether they are set, not on their values.
// The generator's plan of a large cluster costs more than the memory
// check, and most candidates are scheduler-limit variants.
type refusals map[Settings]error

func (r refusals) of(e *evaluated) error {
	k := e.Settings
	k.MaxNumSeqs, k.MaxNumBatchedTokens = min(k.MaxNumSeqs, 1), min(k.MaxNumBatchedTokens, 1)
	if err, ok := r[k]; ok {
		return err
	}
	err := generatorRefuses(e.in.Resolved())
	r[k] = err
	return err
}

// Verify writes candidate s into the spec source (Apply) and runs what
// `vlaunch generate` runs on the result: validation, whose errors refuse
// the spec, and the generator's plan. Every candidate plan lists passes.
func Verify(file string, src []byte, own, s Settings) error {
	out, err := Apply(src, own, s)
	if err != nil {
		return err
	}
	dep, ds, err := validate.Bytes(file, out)
	if err != nil {
		return err
	}
	if ds.HasErrors() {
		return fmt.Errorf("%s", firstError(ds))
	}
	return generatorRefuses(dep)
}

func firstError(ds diag.Diagnostics) string {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return fmt.Sprintf("%s [%s]", d.Message, d.Code)
		}
	}
	return "refused"
}
