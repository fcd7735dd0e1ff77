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
// (GEN009). A spec a bundle cannot be made from is not a valid spec, so
// validate reports it (checkBundle, for the spec's runtime.kind) and the
// generator calls this same function for every plan it makes (the runtime
// it generates, and `vlaunch plan`'s candidates, which validate never sees).
// The codes stay GEN: the findings are the same wherever they are reported,
// and codes are stable. r must be assembled (a concrete layout).
func BundleRefusals(r *resolve.Deployment, runtime string) diag.Diagnostics {
	if r == nil || r.Spec == nil {
		return nil
	}
	d := r.Spec
	var ds diag.Diagnostics
	ds = append(ds, extraArgProblems(d, r.Release)...)
	ds = append(ds, releaseSupport(d, r.Release)...)
	ds = append(ds, dboProblem(r)...)
	ds = append(ds, imageKernelCheck(r, runtime)...)
	ds = append(ds, imageVendorCheck(r, runtime)...)
	return ds
}

// checkBundle reports BundleRefusals and RoCENotes for the assembled
// engine (a pool's, in a pool's checker), for the spec's runtime.kind. A
// pending layout (`parallelism: auto`) is left to generate, which checks
// the chosen one.
func checkBundle(c *checker) {
	if c.dep == nil || c.dep.Layout.Auto {
		return
	}
	ds := BundleRefusals(c.dep, c.d.Runtime.Kind)
	ds = append(ds, RoCENotes(c.dep, c.dep.MultiNode())...)
	for _, f := range ds {
		if c.roleName != "" && !strings.HasPrefix(f.Message, c.roleName+" pool: ") {
			f.Message = c.roleName + " pool: " + f.Message
		}
		c.ds = append(c.ds, f)
	}
}

// bundleDiag builds a finding about a spec field, placed by the spec's one
// position pass (spec.Locate) at the field's value.
func bundleDiag(d *spec.Deployment, code diag.Code, sev diag.Severity, path, msg, hint string) diag.Diagnostic {
	ds := diag.Diagnostics{{Code: code, Severity: sev, File: d.File, Path: path, Message: msg, Hint: hint}}
	d.Locate(ds)
	return ds[0]
}
