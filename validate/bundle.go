package validate

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// BundleRefusals is the one decision on what the release (and the runtime's
// image) would refuse in a resolved engine's settings: extra_args vLLM's
// argparse rejects (GEN006), a setting the release has no flag or value for
// (GEN011), DBO on a backend vLLM's assertion refuses (GEN004), an image
// without the EP kernels the backend needs, or vLLM's CUDA image on AMD GPUs
// (GEN009), an image that does not pin the release checked (GEN009,
// imagePinCheck), a Kubernetes bundle's model volume (GEN013, GEN009:
// kubeModelVolume), weights a checkpoint model.path names cannot give (GEN011,
// pathQuantProblem), a top-level router the bundle cannot put in front of
// the layout (GEN014, routerRefusal). A spec a bundle cannot be made from is not a valid spec, so
// validate reports it (checkBundle, for the spec's runtime.kind) and the
// generator calls this same function for every plan it makes (the runtime
// it generates, and `vlaunch plan`'s candidates, which validate never sees).
// The codes stay GEN: the findings are the same wherever they are reported,
// and codes are stable. r is normally assembled (a concrete layout); a
// deployment that is not (TP 0: validate found errors before assembly)
// gets the checks that need only the spec, the release and the GPU, so a
// spec's independent errors are reported together (newuser40 finding 2:
// GEN011 on enable_dbo hid behind a layout error).
func BundleRefusals(r *resolve.Deployment, runtime string) diag.Diagnostics {
	if r == nil || r.Spec == nil || r.Release.Version.IsZero() {
		return nil
	}
	d := r.Spec
	var ds diag.Diagnostics
	ds = append(ds, extraArgProblems(d, r.Release)...)
	ds = append(ds, releaseSupport(d, r.Release)...)
	ds = append(ds, imageVendorCheck(r, runtime)...)
	ds = append(ds, imagePinCheck(r, runtime)...)
	if runtime == "kubernetes" {
		ds = append(ds, kubeModelVolume(d, ModelArg(r))...)
	}
	if !assembled(r) {
		return ds
	}
	ds = append(ds, pathQuantProblem(r)...)
	ds = append(ds, dboProblem(r)...)
	ds = append(ds, routerRefusal(r, runtime)...)
	ds = append(ds, imageKernelCheck(r, runtime)...)
	return ds
}

// assembled reports whether resolve.Assemble built r: its layout is set
// (and with it the engine settings dboProblem and imageKernelCheck read).
func assembled(r *resolve.Deployment) bool { return r.Layout.TP > 0 }

// checkBundle reports BundleRefusals and All2AllNotes for the assembled
// engine (a pool's, in a pool's checker), for the spec's runtime.kind. A
// pending layout (`parallelism: auto`) is left to generate, which checks
// the chosen one. When earlier errors kept the engine from being
// assembled, the refusals that need only the release still run (on the
// parts that resolved): their errors only, and none at a field that
// already has an error (a second, derived one), so the spec's independent
// errors come at once and its warnings once it is otherwise valid.
func checkBundle(c *checker) {
	if c.dep != nil && c.dep.Layout.Auto {
		return
	}
	var ds diag.Diagnostics
	if c.dep != nil {
		ds = BundleRefusals(c.dep, c.d.Runtime.Kind)
		ds = append(ds, All2AllNotes(c.dep, c.dep.MultiNode())...)
	} else if c.relOK {
		ds = BundleRefusals(&resolve.Deployment{Spec: c.d, Model: c.model, GPU: c.gpu, Release: c.rel}, c.d.Runtime.Kind)
	}
	partial := c.dep == nil
	for _, f := range ds {
		f = c.inDocument(f)
		if partial && (f.Severity != diag.Error || !c.untainted(f.Path)) {
			continue
		}
		if c.roleName != "" && !strings.HasPrefix(f.Message, c.roleName+" pool: ") {
			f.Message = c.roleName + " pool: " + f.Message
		}
		c.ds = append(c.ds, f)
	}
}

// inDocument places a pool checker's finding, made of the pool's view
// (vllm.extra_args[2] of the merged list), at the field the document
// writes (disaggregation.decode.vllm.extra_args[1]); the view's own
// position pass put it at the top-level key.
func (c *checker) inDocument(f diag.Diagnostic) diag.Diagnostic {
	if c.mapPath == nil || f.Path == "" {
		return f
	}
	path := c.docPath(spec.SplitPath(f.Path))
	if n, ok := spec.NodeAt(c.d.Root, path, false); ok && n != nil {
		f.Path, f.Line, f.Col = spec.PathString(path), n.Line, n.Column
	}
	return f
}

// untainted reports whether a document path (a finding's Path) is clear
// of errors, the schema's or a rule's: a refusal of a value already
// rejected would be a second, derived error.
func (c *checker) untainted(path string) bool {
	for _, t := range c.tainted {
		if related(path, t) {
			return false
		}
	}
	for _, e := range c.ds {
		if e.Severity == diag.Error && e.Path == path {
			return false
		}
	}
	return true
}

// bundleDiag builds a finding about a spec field, placed by the spec's one
// position pass (spec.Locate) at the field's value.
func bundleDiag(d *spec.Deployment, code diag.Code, sev diag.Severity, path, msg, hint string) diag.Diagnostic {
	ds := diag.Diagnostics{{Code: code, Severity: sev, File: d.File, Path: path, Message: msg, Hint: hint}}
	d.Locate(ds)
	return ds[0]
}
