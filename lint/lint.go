package lint

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Input is one file to lint.
type Input struct {
	Name string
	Data []byte
	// InDirectory marks a file found under a directory the user gave rather
	// than named: a deployment directory holds helpers and documents that
	// start nothing, so such a file gets the VL008 note only when no input
	// of the run starts anything.
	InDirectory bool
}

// Options configure a lint run.
type Options struct {
	// Version is --vllm-version ("" = from each file's `# vlaunch:vllm-version=`
	// directive, the spec, an image tag, or the newest known).
	Version string
	// Spec is the optional deployment spec.
	Spec *spec.Deployment
	// Capacity estimates a server's KV capacity (VL125, with Spec); nil
	// skips that check.
	Capacity CapacityFunc
	// Checked, when not nil, receives what the run checked, so a caller
	// can say so beside "no findings" (a file whose launches the rules all
	// passed read as if nothing had been read; qa41 D3).
	Checked *Checked
}

// Checked is what a lint run found to check: vLLM servers (each `vllm
// serve` or entry point, each engine a manifest or values file renders)
// and Ray cluster commands.
type Checked struct {
	Servers, RayCommands int
}

// Lint parses every input, runs every rule and applies suppressions. The
// inputs are linted together: several files are several nodes of one deployment.
func Lint(inputs []Input, opts Options) (diag.Diagnostics, error) {
	ps := &pass{Spec: opts.Spec, Capacity: opts.Capacity}
	invs, ds := parseInputs(inputs, ps)
	direct, dds := parseVersionDirectives(inputs, opts.Version == "")
	ds = append(ds, dds...)
	rel, stated, warn, err := chooseRelease(opts, inputs, direct, invs)
	if err != nil {
		return nil, err
	}
	ps.Release = rel
	tagReplicas(invs, parseReplicaDirectives(inputs))
	ps.hosts = parseHostDirectives(inputs)
	ps.bundleHosts = parseBundleHosts(inputs)
	ps.outlines = markdownOutlines(inputs)
	// warn is about the command line's version (--vllm-version or the
	// spec's): no file of the inputs says it, so it has no file position.
	imageNoted := map[string]bool{} // an image's release is noted once
	for _, inv := range invs {
		if inv.Kind != launch.KindServe {
			ps.Rays = append(ps.Rays, inv)
			continue
		}
		r, st, note := releaseFor(inv, opts, direct, rel, stated)
		if note != nil && !imageNoted[inv.Image] {
			imageNoted[inv.Image] = true
			ds = append(ds, *note)
		}
		inv, ray := operatorRayLaunch(inv, r)
		if ray != nil {
			ps.Rays = append(ps.Rays, ray)
		}
		if inv == nil {
			continue
		}
		ps.Servers = append(ps.Servers, newServer(inv, r, st))
	}
	tagSequential(ps.Servers, inputs)
	tagMarkdownSections(ps.Servers, ps.Rays, ps.outlines)
	ps.Groups = groupServers(ps.Servers)
	ps.out = &ds
	runRules(ps)
	if opts.Checked != nil {
		*opts.Checked = Checked{Servers: len(ps.Servers), RayCommands: len(ps.Rays)}
	}
	ds = applySuppressions(inputs, dedupe(ds))
	ds = append(ds, warn...)
	ds.Sort()
	return ds, nil
}

// chooseRelease picks the run's version, used where an invocation's file
// has no directive and its image no tag: --vllm-version, the spec, the first
// file's version directive, the first image tag, else the newest known
// release. stated is false in that last case: nothing says which release the
// files target. A directive's own VL006 note is given where it is written.
func chooseRelease(opts Options, inputs []Input, direct map[string]fileVersion, invs []*launch.Invocation) (rel vllm.Release, stated bool, ds diag.Diagnostics, err error) {
	v, from := opts.Version, "--vllm-version"
	if v == "" && opts.Spec != nil {
		v, from = opts.Spec.VLLM.Version, "the --spec's vllm.version"
	}
	if v == "" {
		for _, in := range inputs {
			if fv, ok := direct[in.Name]; ok {
				return fv.rel, true, nil, nil
			}
		}
	}
	if v == "" {
		for _, inv := range invs {
			if inv.ImageVersion != "" {
				// Its VL006 note, if any, is given where the image is
				// used (releaseFor), not here.
				if rel, _, err := vllm.ResolveString(inv.ImageVersion); err == nil {
					return rel, true, nil, nil
				}
			}
		}
		return vllm.Newest(), false, nil, nil
	}
	rel, warns, err := vllm.ResolveString(v)
	if err != nil {
		return vllm.Release{}, false, nil, fmt.Errorf("vLLM version %q: %w", v, err)
	}
	for _, w := range warns {
		ds = append(ds, diag.Diagnostic{Code: codeVersion, Severity: diag.Info, Message: w + " (" + from + ")"})
	}
	return rel, true, ds, nil
}

// releaseFor picks an invocation's version: --vllm-version, else its file's
// directive (the author's word on what the file targets), else the release
// its image's name gives (launch's imageVersion: a tag, "vllm_0.9.1",
// "vllm0141rocm72.sif"), else the run's; stated says whether anything named
// it. A release read from an image's name rather than from a vLLM image's
// tag (launch.ImageReleaseInferred) gets a VL006 note at the invocation
// saying so, as one outside the release table does (and a directive's at
// the comment), so that no version is silently linted as another (a v0.4
// image as 0.5.3) and the reader knows where the release came from. A
// vLLM image's tag in the table is the release as stated: no note (a
// clean file stays clean under --fail-on info).
func releaseFor(inv *launch.Invocation, opts Options, direct map[string]fileVersion, def vllm.Release, defStated bool) (vllm.Release, bool, *diag.Diagnostic) {
	if opts.Version != "" {
		return def, true, nil
	}
	if fv, ok := direct[inv.File]; ok {
		return fv.rel, true, nil
	}
	if inv.ImageVersion == "" {
		return def, defStated, nil
	}
	rel, warns, err := vllm.ResolveString(inv.ImageVersion)
	if err != nil {
		return def, defStated, nil
	}
	var msg string
	switch {
	case len(warns) > 0:
		msg = "image " + inv.Image + ": " + warns[0]
	case launch.ImageReleaseInferred(inv.Image):
		msg = fmt.Sprintf("linted for vLLM %s, the release the image's name %s gives: no --vllm-version or vlaunch:vllm-version comment names one", rel, inv.Image)
	default:
		return rel, true, nil // a vLLM image's tag: the release as stated
	}
	return rel, true, &diag.Diagnostic{Code: codeVersion, Severity: diag.Info, File: inv.File, Line: inv.Pos.Line, Col: inv.Pos.Col,
		Message: msg, Hint: "if the image holds another release, say which with --vllm-version or a `# vlaunch:vllm-version=X` comment"}
}

// dedupe drops identical findings: one source line can stand for several
// nodes (a LeaderWorkerSet template, a loop body).
func dedupe(ds diag.Diagnostics) diag.Diagnostics {
	seen := map[diag.Diagnostic]bool{}
	var out diag.Diagnostics
	for _, d := range ds {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}

// parseInputs parses every input, parses a script again as each input that
// runs it starts it (launch.ParseRunBy: with the runner's environment,
// host and container) and notes each input whose launches nothing checks
// (VL008): one that starts nothing, or only runs scripts not among the
// inputs. A file found in a directory gets the note only when no input
// starts anything: a deployment directory holds helpers and documents.
func parseInputs(inputs []Input, ps *pass) ([]*launch.Invocation, diag.Diagnostics) {
	var ds diag.Diagnostics
	var all []*launch.Invocation
	names := make([]string, len(inputs))
	clean := map[string]bool{} // parsed without syntax errors
	data := make(map[string][]byte, len(inputs))
	for _, in := range inputs {
		data[in.Name] = in.Data
	}
	lookup := launch.InputLookup(data) // `source FILE` of another input is followed
	routers := map[string]bool{}       // inputs with a vllm-router command
	for i, in := range inputs {
		got, scripts, d := launch.ParseWith(in.Name, in.Data, lookup)
		names[i], clean[in.Name] = in.Name, len(d) == 0
		all = append(all, got...)
		ps.Scripts = append(ps.Scripts, scripts...)
		ds = append(ds, d...)
		routers[in.Name] = hasRouter(scripts)
	}
	invs, lost := runScripts(inputs, names, all)
	checked := map[string]bool{} // inputs with a launch of their own or a script run found
	for _, inv := range all {
		checked[inv.File] = true
	}
	for _, f := range expandConfigs(inputs, names, invs) {
		checked[f] = true
	}
	for f, scripts := range lost {
		if runs(all, f) == len(scripts) && !launchesOwn(all, f) {
			checked[f] = false
		}
	}
	var quiet diag.Diagnostics
	for _, in := range inputs {
		if checked[in.Name] || !clean[in.Name] {
			continue
		}
		d := noLaunch(in.Name, in.Data)
		if routers[in.Name] {
			d = routerOnly(in.Name)
		}
		if s := lost[in.Name]; len(s) > 0 {
			d = runsUnlinted(in.Name, s)
		}
		if in.InDirectory {
			quiet = append(quiet, d)
		} else {
			ds = append(ds, d)
		}
	}
	if len(invs) == 0 {
		ds = append(ds, quiet...)
	}
	return invs, ds
}

// runScripts replaces the invocations of every shell script another input
// runs by the script parsed as each runner starts it (named after the
// runner when there are several), drops the run records, and returns, per
// runner, the scripts it runs that are not among the inputs.
func runScripts(inputs []Input, names []string, all []*launch.Invocation) ([]*launch.Invocation, map[string][]string) {
	runners := map[string][]*launch.Invocation{}
	lost := map[string][]string{}
	for _, inv := range all {
		if inv.Kind != launch.KindScriptRun {
			continue
		}
		if f := launch.ScriptFile(names, inv); f != "" {
			runners[f] = append(runners[f], inv)
		} else {
			lost[inv.File] = append(lost[inv.File], inv.Args[0].Text)
		}
	}
	var out []*launch.Invocation
	budget := maxRunByBytes
	for _, in := range inputs {
		rs := runners[in.Name]
		if cost := len(rs) * len(in.Data); !launch.ShellInput(in.Name, in.Data) || cost > budget {
			rs = nil // not a shell script, or over the budget: linted as it stands
		} else {
			budget -= cost
		}
		for _, inv := range all {
			if inv.File == in.Name && inv.Kind != launch.KindScriptRun && len(rs) == 0 {
				out = append(out, inv)
			}
		}
		for _, r := range rs {
			node := ""
			if len(rs) > 1 {
				node = r.Node
			}
			out = append(out, launch.ParseRunBy(in.Name, in.Data, r, node)...)
		}
	}
	return out, lost
}

// expandConfigs splices into each server the arguments of its --config
// file when the file is among the inputs (launch.ConfigArgs: vLLM reads
// the file's keys as flags, placed before the rest of the command line)
// and returns the config files used.
func expandConfigs(inputs []Input, names []string, invs []*launch.Invocation) []string {
	data := map[string][]byte{}
	for _, in := range inputs {
		data[in.Name] = in.Data
	}
	var used []string
	for _, inv := range invs {
		if inv.Kind != launch.KindServe {
			continue
		}
		f := launch.ConfigInput(names, inv)
		if f == "" {
			continue
		}
		if cfg, ok := launch.ConfigArgs(f, data[f]); ok {
			inv.Args = launch.WithConfig(inv, cfg)
			used = append(used, f)
		}
	}
	return used
}

// maxRunByBytes bounds the script text parsed again for its runners: one
// 8 MiB script run by every file of a 500-file directory would otherwise be
// parsed 500 times. Past it a script is linted once, as it stands.
const maxRunByBytes = 32 << 20

// runs counts the script-run records of file f; launchesOwn reports a
// server or Ray start of its own.
func runs(invs []*launch.Invocation, f string) int {
	n := 0
	for _, inv := range invs {
		if inv.File == f && inv.Kind == launch.KindScriptRun {
			n++
		}
	}
	return n
}

func launchesOwn(invs []*launch.Invocation, f string) bool {
	for _, inv := range invs {
		if inv.File == f && inv.Kind != launch.KindScriptRun {
			return true
		}
	}
	return false
}

// runsUnlinted says that an input only runs scripts that were not given, so
// nothing it starts was checked.
func runsUnlinted(file string, scripts []string) diag.Diagnostic {
	which := ", which is not among the files linted: nothing it starts was checked"
	if len(scripts) > 1 {
		which = ", which are not among the files linted: nothing they start was checked"
	}
	return diag.Diagnostic{Code: codeNoLaunch, Severity: diag.Info, File: file, Line: 1, Col: 1,
		Message: "runs " + strings.Join(scripts, ", ") + which,
		Hint:    "lint the script together with this file (vlaunch lint " + file + " " + scripts[0] + "): its server is then checked with this file's environment, container and image"}
}

// routerOnly says that an input starts a vllm-router but no server: its
// own ports were checked, its workers only against servers of other files
// linted with it.
func routerOnly(file string) diag.Diagnostic {
	return diag.Diagnostic{Code: codeNoLaunch, Severity: diag.Info, File: file, Line: 1, Col: 1,
		Message: "a vllm-router command and no vLLM server: only the router's own ports were checked (VL212); its workers are compared with the servers of the files linted with it (VL234)",
		Hint:    "lint it together with the scripts of the servers it routes to (a bundle's directory, or every rank's script)"}
}

// serverModules match `-m MODULE` for the modules that start vLLM's API
// server (launch's python reads both).
var serverModules = regexp.MustCompile(`-m\s+(vllm\.entrypoints\.(?:openai\.)?api_server)\b`)

// serverMentions says how often the text names a server launch: `vllm
// serve`, and an api_server module after `-m` (not a mention of its name
// in a comment or log line); "" when none.
func serverMentions(data []byte) string {
	var parts []string
	if n := bytes.Count(data, []byte("vllm serve")); n > 0 {
		parts = append(parts, fmt.Sprintf("`vllm serve` appears %d time(s)", n))
	}
	count := map[string]int{}
	var order []string
	for _, m := range serverModules.FindAllSubmatch(data, -1) {
		if count[string(m[1])] == 0 {
			order = append(order, string(m[1]))
		}
		count[string(m[1])]++
	}
	for _, m := range order {
		parts = append(parts, fmt.Sprintf("`-m %s` appears %d time(s)", m, count[m]))
	}
	return strings.Join(parts, " and ")
}

// noLaunch says that an input started nothing the linter knows, so that a
// clean report is not mistaken for a checked launch.
func noLaunch(file string, data []byte) diag.Diagnostic {
	d := diag.Diagnostic{Code: codeNoLaunch, Severity: diag.Info, File: file, Line: 1, Col: 1,
		Message: "no vLLM server (vllm serve, the OpenAI api_server module, a vLLM image, a wrapper such as dynamo.vllm) and no `ray start` found: nothing in this file was checked",
		Hint:    "lint the script or manifest that starts vLLM; a launch hidden in a file this one sources or runs must be linted too"}
	switch seen := serverMentions(data); {
	case seen != "" && !launch.Markdown(file) && !launch.DataFile(file):
		// vllm-ascend's multi-node test cases hold `server_cmd: > vllm serve
		// …` per node (vllm-project/vllm-ascend#5493, qa44a F10): the
		// commands are there, in a format no front end reads; so is a
		// harness's api_server command run through a helper the walker
		// does not follow (qa45a F8): the module is there, not absent.
		d.Message = seen + ", but not in a form vlaunch reads as a launch (a command in a script, manifest or document it parses; a test harness's YAML is none of these): nothing in this file was checked"
		d.Hint = "copy each command into a shell script (one per node) and lint those"
	case launch.DataFile(file):
		d.Message, d.Hint = "a data file (a hosts table, a bundle marker, JSON, CSV, text), not a launch: not linted", ""
	case launch.Markdown(file):
		d.Message = "no vLLM server and no `ray start` in the document's shell (```bash, ```sh, ```console) or YAML code blocks: nothing in it was checked"
	}
	return d
}
