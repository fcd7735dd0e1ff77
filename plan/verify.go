package plan

import (
	"fmt"

	"gopkg.in/yaml.v3"

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
	return verifyOutput(file, out)
}

// verifyOutput is Verify's check of the rewritten spec.
func verifyOutput(file string, out []byte) error {
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

// verifier is Verify for many candidates of one spec: the source is parsed
// once and each candidate edits a copy of it. Verify reads the YAML twice
// and writes it once per candidate, half a second on a 10,000-node spec.
type verifier struct {
	file string
	src  []byte
	own  Settings
	// doc is the parsed source; nil when it has aliases (a copy would need
	// its anchors remapped), and each check is then Verify.
	doc *yaml.Node
}

func newVerifier(file string, src []byte, own Settings) *verifier {
	v := &verifier{file: file, src: src, own: own}
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) == nil && !hasAlias(&doc) {
		v.doc = &doc
	}
	return v
}

// check is Verify(file, src, own, s). Without aliases Apply's re-reading
// of its output cannot fail, so it is left to validation's reading.
func (v *verifier) check(s Settings) error {
	if v.doc == nil {
		return Verify(v.file, v.src, v.own, s)
	}
	out, err := applyDoc(cloneNode(v.doc), v.own, s, new([]string))
	if err != nil {
		return err
	}
	return verifyOutput(v.file, out)
}

// hasAlias reports whether the document uses an alias anywhere.
func hasAlias(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return true
	}
	for _, c := range n.Content {
		if hasAlias(c) {
			return true
		}
	}
	return false
}

// cloneNode is a deep copy of an alias-free node tree.
func cloneNode(n *yaml.Node) *yaml.Node {
	c := *n
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			c.Content[i] = cloneNode(k)
		}
	}
	return &c
}
