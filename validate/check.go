package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// checker carries one deployment through the semantic rules.
type checker struct {
	d       *spec.Deployment
	tainted []string
	ds      diag.Diagnostics
	// schemaErrors is true when reading or schema-checking failed: the
	// deployment is then not assembled.
	schemaErrors bool
	// model, gpu and the release are resolved once (package resolve); nil
	// or relOK false when unknown (already reported).
	model *catalog.Model
	gpu   *catalog.GPU
	rel   vllm.Release
	ver   resolve.Setting[string]
	notes []string
	relOK bool
	// cal is the spec's calibration file (zero when none or unreadable).
	cal resolve.Calibration
	// draft is vllm.speculative.draft_model's architecture (nil: none).
	draft *catalog.Model
	// dep is the assembled deployment, nil until assembleDeployment runs or
	// when anything before it failed; later rules may read it.
	dep *resolve.Deployment
	// mapPath, for a pool's checker (rules_pd.go), turns a path of the
	// pool's RoleView into the path of the field in the document; nil: as is.
	mapPath func([]string) []string
	// roleName prefixes a pool checker's messages ("" for the spec's own).
	roleName string
	// sharesNode: the pool names a node the other pool names too; its
	// layout then takes part of that node (resolve.NodeShare), which
	// assemblePD checks once both pools are known.
	sharesNode bool
	// roles are the pools' assembled deployments (rules_pd.go).
	roles []*resolve.Deployment
}

// rule is one semantic check; each area lives in its own rules_*.go file.
type rule func(*checker)

// rules run in this order: model, GPU and release resolution come first
// because later rules read c.model, c.gpu and c.rel; the deployment is
// assembled last, when every rule has had its say. The engine rules
// (engineRule) check one engine's layout and settings: with a
// disaggregation block they run once per pool instead (checkPools).
var rules = []rule{
	checkModelRef, checkGPURef, checkVersion, checkCalibration,
	checkNodes, checkNodeNetwork, checkNVLinkDomain,
	engineRule(checkLayout), engineRule(checkTensorHeads), engineRule(checkBlockSplit), engineRule(checkExpert),
	checkContext, checkTTFT, checkFP8, checkSparseAttention, checkArchitectureRelease,
	checkPorts, engineRule(checkBackend), engineRule(checkBackendEnv), checkEnv, checkSecrets, engineRule(checkSpeculative),
	engineRule(checkDCP),
	checkNames, checkRuntimeNames, checkImage, checkRuntimeUnused, checkPrefixHitRate,
	checkDisaggregation, checkRouter,
	engineRule(assembleDeployment), engineRule(checkDeepEPLLTokens), engineRule(checkBlockSizeOverride), engineRule(checkBundle),
	engineRule(checkLoRA),
}

// poolRules are the rules a pool's checker runs on its RoleView: the
// engine rules, and the settings rules a pool's vllm block can touch.
var poolRules = []rule{
	checkLayout, checkTensorHeads, checkBlockSplit, checkExpert,
	checkBackend, checkBackendEnv, checkEnv, checkSecrets, checkSpeculative, checkDCP,
	assembleDeployment, checkDeepEPLLTokens, checkBlockSizeOverride, checkBundle,
	checkLoRA,
}

// engineRule runs r only for a colocated spec.
func engineRule(r rule) rule {
	return func(c *checker) {
		if c.d.Disaggregation == nil {
			r(c)
		}
	}
}

// semantic runs the rules after the schema check (whose findings are
// prior) and returns the deployment: resolved when nothing failed, else
// holding the spec and whatever did resolve.
func semantic(d *spec.Deployment, prior diag.Diagnostics) (*resolve.Deployment, diag.Diagnostics) {
	c := &checker{d: d, tainted: taintedPaths(prior), schemaErrors: prior.HasErrors()}
	for _, r := range rules {
		r(c)
	}
	if c.dep != nil {
		return c.dep, c.ds
	}
	return &resolve.Deployment{Spec: d, Model: c.model, GPU: c.gpu, Release: c.rel, Version: c.ver}, c.ds
}

// assembleDeployment builds the resolved deployment once every part is
// known and nothing so far is an error. A value resolve still cannot use is
// reported here, at its field.
func assembleDeployment(c *checker) {
	if c.schemaErrors || c.ds.HasErrors() || c.model == nil || c.gpu == nil || !c.relOK {
		return
	}
	dep, err := resolve.Assemble(c.d, resolve.Parts{Model: c.model, GPU: c.gpu, Release: c.rel, Version: c.ver, VersionNotes: c.notes, Calibration: c.cal, Draft: c.draft})
	if err == nil {
		c.dep = dep
		return
	}
	path, hint := []string{}, ""
	if fe, ok := err.(*resolve.FieldError); ok {
		path, hint, err = splitPath(fe.Path), fe.Hint, fmt.Errorf("%s", fe.Msg)
	}
	c.errorf(CodeValue, path, hint, "%v", err)
}

// splitPath turns "vllm.gpu_memory_utilization" into path segments.
func splitPath(s string) []string {
	return strings.Split(strings.NewReplacer("[", ".", "]", "").Replace(s), ".")
}

// p builds a path from keys and indexes: p("hardware", "nodes", 1, "name").
func p(parts ...interface{}) []string {
	out := make([]string, len(parts))
	for i, x := range parts {
		switch v := x.(type) {
		case int:
			out[i] = strconv.Itoa(v)
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

// ok reports whether none of the paths (or anything under or above them)
// already has a schema error.
func (c *checker) ok(paths ...[]string) bool {
	for _, path := range paths {
		ps := spec.PathString(c.docPath(path))
		for _, t := range c.tainted {
			if related(ps, t) {
				return false
			}
		}
	}
	return true
}

func related(a, b string) bool {
	return a == b || under(a, b) || under(b, a)
}

// under reports whether path a lies inside path b.
func under(a, b string) bool {
	if b == "" {
		return true
	}
	return strings.HasPrefix(a, b) && (a[len(b)] == '.' || a[len(b)] == '[')
}

func (c *checker) add(sev diag.Severity, code diag.Code, path []string, hint, format string, args ...interface{}) {
	c.addAt(false, sev, code, path, hint, format, args...)
}

// addAt reports at the value of path, or at its key when key is true (for
// findings about the key itself, such as an invalid env variable name).
func (c *checker) addAt(key bool, sev diag.Severity, code diag.Code, path []string, hint, format string, args ...interface{}) {
	if !c.ok(path) {
		return
	}
	path = c.docPath(path)
	if c.roleName != "" {
		format = c.roleName + " pool: " + format
	}
	n, _ := spec.NodeAt(c.d.Root, path, key)
	line, col := 0, 0
	if n != nil {
		line, col = n.Line, n.Column
	}
	c.ds = append(c.ds, diag.Diagnostic{Code: code, Severity: sev, File: c.d.File, Line: line, Col: col,
		Path: spec.PathString(path), Message: fmt.Sprintf(format, args...), Hint: hint})
}

// docPath is where a field of the checker's spec is written in the document.
func (c *checker) docPath(path []string) []string {
	if c.mapPath == nil {
		return path
	}
	return c.mapPath(path)
}

func (c *checker) errorf(code diag.Code, path []string, hint, format string, args ...interface{}) {
	c.add(diag.Error, code, path, hint, format, args...)
}

func (c *checker) warnf(code diag.Code, path []string, hint, format string, args ...interface{}) {
	c.add(diag.Warning, code, path, hint, format, args...)
}
