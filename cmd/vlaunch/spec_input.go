package main

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

// simSeed is the seed of the serving simulation `vlaunch check` uses by
// default (--seed) and the bundle README's feasibility summary uses always,
// so both print the same percentiles for the same spec.
const simSeed = 1

// simPerf are the performance half's options at simSeed: check's default,
// and always generate's summary's.
var simPerf = estimate.PerfOptions{Seed: simSeed}

// specFile validates the spec at path for check and generate. It returns
// the resolved deployment, the findings (no errors) and the spec's source
// for printing. Errors are printed and come back as the command's error:
// unusable input exits 2, error findings exit 1. They are printed as text on
// stderr, or — when the command's --output is for machines (format is JSON,
// or SARIF/GitHub for preflight) — in that format on stdout, as `vlaunch
// validate -o json` prints them, so `-o json` never leaves stdout empty
// (diagFormat maps a command's --output to it). needVersion makes a
// missing vllm.version an error (requireVersion). Every command that reads
// a spec handles a disaggregated one (calibrate since December 2026: SPEC130,
// the refusal of one, is retired).
func specFile(s *streams, path string, needVersion bool, format diag.Format) (*resolve.Deployment, diag.Diagnostics, diag.Sources, error) {
	r, ds, err := validate.File(path)
	if needVersion {
		ds = requireVersion(r, ds)
	}
	src := diag.Sources{}
	if data, rerr := spec.ReadFile(path); rerr == nil {
		src[path] = vllm.BlankSecrets(data) // snippets never echo a credential
	}
	if err != nil || ds.HasErrors() {
		printSpecDiags(s, format, ds, src)
		if err != nil {
			return nil, nil, src, usageErr("cannot use spec %s", path)
		}
		return nil, nil, src, findingsErr()
	}
	r.ModelSource = modelLabel(r)
	return r, ds, src, nil
}

// diagFormat is the format a command whose --output is output prints a
// spec's diagnostics in when it cannot go on: JSON for `-o json`, text
// (on stderr) for the human formats (text, markdown, html).
func diagFormat(output string) diag.Format {
	if output == "json" {
		return diag.FormatJSON
	}
	return diag.FormatText
}

// printSpecDiags prints a spec's diagnostics: text on stderr, a machine
// format on stdout (validate's document: version, diagnostics, counts).
func printSpecDiags(s *streams, format diag.Format, ds diag.Diagnostics, src diag.Sources) {
	if format == diag.FormatText || format == "" {
		_ = diag.Print(s.err, diag.FormatText, ds, src, nil)
		return
	}
	_ = diag.Print(s.out, format, ds, src, codes.RuleInfos("SPEC"))
}

// settleLayout answers `parallelism: auto` once for check, generate and
// preflight: the layout search (estimate.SearchLayout, which only offers
// layouts resolve.Place can put on the nodes) runs on the resolved
// deployment, and the deployment comes back with the chosen layout, with
// the search (for check's report) and the EST301 finding naming the
// choice. perf are the options the command's performance half runs with
// (check's --seed; simPerf for the others): the search confirms its choice
// with them, so the table's chosen row and the report below it give the
// same verdicts, and it comes back with the search's evaluation of the
// chosen layout (estimate.PerfConfirmation), which the performance half
// takes rather than evaluating that layout again. A pinned layout comes
// back unchanged.
func settleLayout(r *resolve.Deployment, perf estimate.PerfOptions) (*resolve.Deployment, *estimate.LayoutSearch, diag.Diagnostics, *estimate.PerfConfirmation) {
	if !r.Layout.Auto || r.PD != nil {
		return r, nil, nil, nil
	}
	in := estimate.FromResolved(r)
	chosen, search, info, confirmed := estimate.SearchLayout(&in, perf)
	ds := diag.Diagnostics{info}
	r.Spec.Locate(ds)
	if search == nil {
		return r, nil, ds, nil
	}
	return chosen.Resolved(), search, ds, confirmed
}

// settled is a spec ready for a command: validated, with the calibration
// in effect and `parallelism: auto` answered.
type settled struct {
	r *resolve.Deployment
	// findings are validate's warnings and the EST301 naming the chosen
	// layout; src is the spec's text, for printing them.
	findings diag.Diagnostics
	src      diag.Sources
	// search is the layout search (nil for a pinned layout).
	search *estimate.LayoutSearch
	// confirmed is the search's evaluation of the chosen layout with the
	// command's performance options (nil for a pinned layout), for
	// checkEstimate.
	confirmed *estimate.PerfConfirmation
}

// settleSpec is the one way check, generate, preflight and logs --spec
// read a spec: specFile (errors printed, as the command's error), then
// --calibration (withCalibration; "" keeps the spec's own), then the
// layout (settleLayout, confirmed with perf: the options the command's
// performance half runs with).
func settleSpec(s *streams, path string, needVersion bool, calibration string, format diag.Format, perf estimate.PerfOptions) (settled, error) {
	r, ds, src, err := specFile(s, path, needVersion, format)
	if err == nil {
		r, err = withCalibration(r, calibration)
	}
	if err != nil {
		return settled{src: src}, err
	}
	r, search, info, confirmed := settleLayout(r, perf)
	return settled{r: r, findings: append(ds, info...), src: src, search: search, confirmed: confirmed}, nil
}

// modelLabel is how the reports' headers name the model (the deployment's
// ModelSource). A catalog model (model.name) keeps its id. A model read
// from model.config (exclusive with model.name, SPEC004) is named by the
// config's own name (`_name_or_path`, which
// save_pretrained writes) or its directory's, with the architecture the
// config states: "qwen3-32b (Qwen3ForCausalLM)" rather than the path
// "qwen3-32b/config.json" (QA #37).
func modelLabel(r *resolve.Deployment) string {
	d := r.Spec
	if d == nil || r.Model == nil {
		return r.ModelSource
	}
	if d.Model.Config == "" {
		return r.ModelSource
	}
	name := configNameOrPath(resolve.ConfigPath(d))
	if name == "" {
		name = filepath.Base(filepath.Dir(filepath.Clean(d.Model.Config)))
		if name == "." || name == string(filepath.Separator) || name == ".." {
			name = ""
		}
	}
	switch arch := r.Model.Architecture; {
	case name == "" && arch == "":
		return r.ModelSource
	case name == "":
		return arch + " (" + d.Model.Config + ")"
	case arch == "":
		return name
	}
	return name + " (" + r.Model.Architecture + ")"
}

// configNameOrPath is the `_name_or_path` of a config.json ("" when it has
// none, or cannot be read: validation has read the file already).
func configNameOrPath(path string) string {
	data, err := catalog.ReadHFConfigFile(path)
	if err != nil {
		return ""
	}
	var c struct {
		NameOrPath string `json:"_name_or_path"`
	}
	if json.Unmarshal(data, &c) != nil {
		return ""
	}
	n := strings.TrimRight(strings.TrimSpace(c.NameOrPath), "/")
	if strings.HasPrefix(n, "/") || strings.HasPrefix(n, ".") {
		// A local directory the checkpoint was saved from: its name.
		n = filepath.Base(n)
	}
	return n
}
