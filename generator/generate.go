package generator

import (
	"fmt"
	"sort"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
)

// Options control one generation.
type Options struct {
	// Runtime is bare, docker or kubernetes; "" uses the spec's runtime.kind.
	Runtime string
	// TemplatesDir overrides embedded templates file by file ("" = none).
	TemplatesDir string
	// Summary is Markdown placed under "Feasibility" in the bundle README
	// (the estimator's verdicts); "" leaves the section out.
	Summary string
}

// Bundle is the generated output.
type Bundle struct {
	// Plan is the bundle's plan (a disaggregated bundle's decode pool).
	Plan *Plan
	// PD is a disaggregated deployment's plan (nil: colocated).
	PD    *PDPlan
	Files []File
}

// Generate plans and renders the bundle for a deployment resolved from a
// validated spec (validate.File), with `parallelism: auto` already settled.
// It returns nil and error diagnostics when nothing can be generated.
func Generate(r *resolve.Deployment, opt Options) (*Bundle, diag.Diagnostics) {
	if r.Spec == nil {
		return nil, diag.Diagnostics{{Code: CodeLayout, Severity: diag.Error, Message: "a bundle needs a spec (the quick form has none)"}}
	}
	runtime := opt.Runtime
	if runtime == "" {
		runtime = r.Spec.Runtime.Kind
	}
	if !validRuntime(runtime) {
		return nil, diag.Diagnostics{gdiag(r.Spec, CodeRuntime, diag.Error, "runtime.kind",
			fmt.Sprintf("unknown runtime %q", runtime), "use bare, docker or kubernetes")}
	}
	if ds := checkSecrets(r.Spec, true); ds.HasErrors() {
		return nil, ds // before anything is planned or rendered
	}
	if d, ok := modelPathProblem(r); !ok {
		return nil, diag.Diagnostics{d}
	}
	if r.PD != nil {
		return generatePD(r, runtime, opt)
	}
	p, ds := MakePlan(r, runtime)
	if ds.HasErrors() {
		return nil, ds
	}
	p.Summary = opt.Summary
	files, err := Render(p, opt.TemplatesDir)
	if err != nil {
		return nil, append(ds, diag.Diagnostic{Code: CodeTemplate, Severity: diag.Error, Message: err.Error()})
	}
	return &Bundle{Plan: p, Files: files}, ds
}

// modelPathProblem refuses a spec whose model comes from model.config alone
// (no catalog name, no model.path): vlaunch sizes it from the config, but
// the bundle would run `vllm serve` with an empty model argument.
// Only Generate asks it: check and plan need no checkpoint (plan's
// Refusal runs for every candidate, and the path does not change which
// layouts work).
func modelPathProblem(r *resolve.Deployment) (diag.Diagnostic, bool) {
	if modelArg(r) != "" {
		return diag.Diagnostic{}, true
	}
	return gdiag(r.Spec, CodeModelPath, diag.Error, "model.config",
		"the model comes from model.config alone: the bundle would have no checkpoint for `vllm serve` to load",
		"set model.path to the checkpoint's directory on every host, or to its Hugging Face repo id"), false
}

func validRuntime(r string) bool {
	for _, k := range Runtimes {
		if r == k {
			return true
		}
	}
	return false
}

func sortFiles(fs []File) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
}

// File returns the bundle file at path ("node0.sh", "lws.yaml", ...).
func (b *Bundle) File(path string) (File, bool) {
	for _, f := range b.Files {
		if f.Path == path {
			return f, true
		}
	}
	return File{}, false
}
