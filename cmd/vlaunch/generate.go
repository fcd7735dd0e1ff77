package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/generator"
	"github.com/vlaunch/vlaunch/report"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/templates"
	"github.com/vlaunch/vlaunch/validate"
)

func init() { subcommands = append(subcommands, newGenerateCmd) }

type generateOptions struct {
	outDir, output        string
	runtime, templates    string
	calibration           string
	force, dryRun, strict bool
}

func newGenerateCmd(s *streams) *cobra.Command {
	o := &generateOptions{}
	cmd := &cobra.Command{
		Use:   "generate SPEC --out-dir DIR [-o text|json]",
		Short: "Write the per-node launch bundle (scripts, hosts, README or a LeaderWorkerSet)",
		Long: `Validate SPEC, then write everything needed to start the deployment with the
vLLM version it names: nodeN.sh per node (bare metal or docker), or lws.yaml
(kubernetes), plus a hosts file and a README with the start order and checks,
into --out-dir DIR. -o/--output is the format of what generate prints (text,
or json: the files, the layout and check's report), as in every vlaunch
command; before, -o named the directory.

The bundle is written atomically: rendered into a temporary directory beside
DIR, then renamed into place. Every bundle carries a .vlaunch-bundle marker;
an existing non-empty DIR is refused without --force, and --force replaces it
only when it carries that marker (a bundle vlaunch wrote), holds nothing but
the files the marker lists, unchanged (it records each file's SHA-256), and
can be deleted. Anything else in DIR (a .git directory, notes, a hand-edited
script) makes --force refuse with exit 2, naming it: move it out first.
--templates DIR overrides the embedded templates file by file
(` + "`" + `DIR/hosts.tmpl` + "`" + ` replaces hosts.tmpl); their names are: ` + strings.Join(templates.Names(), ", ") + `.

After writing, generate prints the feasibility verdict of ` + "`vlaunch check`" + `
(one line per SLO); it is also in the bundle's README. With --strict an
infeasible deployment exits 1 (the bundle is still written).

Exit codes: 0 written; 1 the spec has errors or cannot be generated, the
deployment is infeasible and --strict is set, or the new bundle was written
but the previous one could not be deleted (the message names what is left); 2 unusable input (unreadable spec, bad flags, a
target that is not empty or not a bundle) or a failed write — with 2 nothing
was written and DIR is unchanged.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runGenerate(s, o, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.outDir, "out-dir", "", "bundle directory to create")
	addOutputFlag(f, &o.output, generateFormats, "what generate prints")
	f.StringVar(&o.runtime, "runtime", "", "bare, docker or kubernetes (default: the spec's runtime.kind)")
	f.StringVar(&o.templates, "templates", "", "directory of templates overriding the embedded ones")
	f.BoolVar(&o.force, "force", false, "replace a bundle vlaunch wrote in --out-dir (refused if it holds other or edited files)")
	f.BoolVar(&o.dryRun, "dry-run", false, "list the files that would be written, write nothing")
	f.BoolVar(&o.strict, "strict", false, "exit 1 when the deployment is not feasible (the bundle is still written)")
	addCalibrationFlag(f, &o.calibration)
	return cmd
}

func runGenerate(s *streams, o *generateOptions, path string) error {
	if err := checkFormat(o.output, generateFormats, "the bundle directory is --out-dir DIR"); err != nil {
		return err
	}
	if o.outDir == "" && !o.dryRun {
		return usageErr("generate needs --out-dir DIR (or --dry-run)")
	}
	if o.templates != "" {
		if _, err := templates.Overrides(o.templates); err != nil {
			return usageErr("--templates: %v", err)
		}
	}
	st, err := settleSpec(s, path, true, o.calibration, diagFormat(o.output), simPerf)
	if err != nil {
		return err
	}
	r, ds, src, search := st.r, forRuntime(dropImageUnused(st.findings, o.runtime), st.r, o.runtime), st.src, st.search
	rep := feasibility(r, st.confirmed)
	summary := autoParagraph(search) + report.SummaryMarkdown(rep)
	b, gds := generator.Generate(r, generator.Options{Runtime: o.runtime, TemplatesDir: o.templates, Summary: summary})
	all := append(ds, newFindings(gds, ds)...)
	r.Spec.Locate(all)
	if b == nil {
		// The generator refused (an error finding): its diagnostics are
		// all there is to print, as JSON on stdout under -o json.
		printSpecDiags(s, diagFormat(o.output), all, src)
		return findingsErr()
	}
	if len(all) > 0 {
		_ = diag.Print(s.err, diag.FormatText, all, src, nil)
	}
	left, err := writeBundle(o, b)
	if err != nil {
		return err
	}
	if err := printGenerated(s, o, b, rep, all); err != nil {
		return err
	}
	if left != nil {
		return &exitError{code: exitFindings, msg: left.Error()}
	}
	if o.strict && rep != nil && !rep.Feasible {
		return findingsErr()
	}
	return nil
}

// requireVersion makes validate's "vllm.version is not set" warning an
// error for generate: a bundle's flags, variables and defaults are those of
// one release, so it cannot rest on the assumed newest one. The finding
// stays validate's (one finding, with its position).
func requireVersion(r *resolve.Deployment, ds diag.Diagnostics) diag.Diagnostics {
	if r == nil || r.Version.From != resolve.SourceAssumed {
		return ds
	}
	for i := range ds {
		if ds[i].Code == validate.CodeVersion && ds[i].Severity == diag.Warning {
			ds[i].Severity = diag.Error
			ds[i].Message += "; generate does not guess: a bundle's flags and defaults are those of one release"
		}
	}
	return ds
}

// generateFormats are what generate prints: text, or JSON.
var generateFormats = []string{"text", "json"}

// autoParagraph is the README paragraph saying the layout came from the
// search (`parallelism: auto`); "" for a pinned layout.
func autoParagraph(search *estimate.LayoutSearch) string {
	if search == nil {
		return ""
	}
	c := search.Chosen
	return fmt.Sprintf("The spec says `parallelism: auto`: the layout %s was chosen by vlaunch's layout search "+
		"(the best of %d candidates; see `vlaunch check SPEC`). To pin it, write `%s`.\n\n", c.Name(), len(search.Candidates), c.PinYAML())
}

// writeBundle writes b (nothing with --dry-run, which still refuses an
// --out-dir the real run would refuse, with its message and exit code). A
// LeftoverError is returned apart: the new bundle is in place, the old one
// partly left.
func writeBundle(o *generateOptions, b *generator.Bundle) (*generator.LeftoverError, error) {
	if o.dryRun {
		if o.outDir != "" {
			if err := b.CheckTarget(o.outDir, o.force); err != nil {
				return nil, usageErr("%v", err)
			}
		}
		return nil, nil
	}
	err := b.Write(o.outDir, o.force)
	var left *generator.LeftoverError
	if err != nil && !errors.As(err, &left) {
		// Write refuses or fails before the target changes: DIR is as it was.
		return nil, usageErr("%v", err)
	}
	return left, nil
}

// printGenerated says what was written (or would be, with --dry-run) and
// the feasibility verdict, as text or JSON.
func printGenerated(s *streams, o *generateOptions, b *generator.Bundle, rep *estimate.Report, findings diag.Diagnostics) error {
	if o.output == "json" {
		return writeGeneratedJSON(s.out, o, b, rep, findings)
	}
	if o.dryRun {
		for _, f := range b.Files {
			fmt.Fprintf(s.out, "%s %s\n", f.Mode, filepath.Join(o.outDir, f.Path))
		}
		printVerdict(s.out, rep)
		return nil
	}
	fmt.Fprintf(s.out, "wrote %d files to %s (vLLM %s, %s, layout %s)\n", len(b.Files), o.outDir,
		b.Plan.Release.Version, b.Plan.Runtime, bundleLayout(b))
	for _, f := range b.Files {
		fmt.Fprintf(s.out, "  %s\n", f.Path)
	}
	printVerdict(s.out, rep)
	return nil
}

// bundleLayout names the bundle's layout: the plan's, or "disaggregated"
// with each pool's for a P/D bundle.
func bundleLayout(b *generator.Bundle) string {
	if b.PD == nil {
		return fmt.Sprint(b.Plan.Layout)
	}
	parts := make([]string, len(b.PD.Roles))
	for i, r := range b.PD.Roles {
		parts[i] = fmt.Sprintf("%s %s", r.Name, r.Plan.Layout)
	}
	return "disaggregated: " + strings.Join(parts, ", ")
}

// forRuntime makes validate's findings those of the runtime generate
// writes: validate judged the bundle for the spec's runtime.kind
// (validate.BundleRefusals in checkBundle), so `generate --runtime bare` on
// a Kubernetes spec printed "downloaded from the Hugging Face hub into each
// pod" and on a Docker spec "rocm/vllm:latest does not pin" beside a bare
// bundle (newuser40 specs 02, 08, 05). The refusals the spec's runtime
// gives and the written one does not are dropped; the written runtime's
// come from the generator, which calls the same BundleRefusals with it
// (newFindings keeps those validate did not report).
func forRuntime(ds diag.Diagnostics, r *resolve.Deployment, runtime string) diag.Diagnostics {
	if r == nil || r.Spec == nil || runtime == "" || runtime == r.Spec.Runtime.Kind {
		return ds
	}
	stale, kept := refusalKeys(r, r.Spec.Runtime.Kind), refusalKeys(r, runtime)
	out := ds[:0:0]
	for _, d := range ds {
		if k := refusalKey(d); !stale[k] || kept[k] {
			out = append(out, d)
		}
	}
	return out
}

// refusalKeys are the keys (refusalKey) of what validate.BundleRefusals
// says of r's engine and, disaggregated, of each pool's, for runtime.
func refusalKeys(r *resolve.Deployment, runtime string) map[string]bool {
	deps := []*resolve.Deployment{r}
	if r.PD != nil {
		for _, role := range r.PD.Roles {
			deps = append(deps, role.Deployment)
		}
	}
	keys := map[string]bool{}
	for _, dep := range deps {
		for _, d := range validate.BundleRefusals(dep, runtime) {
			keys[refusalKey(d)] = true
		}
	}
	return keys
}

// refusalKey identifies a refusal by its code and message without a pool's
// prefix; not its position, which validate sets in the document.
func refusalKey(d diag.Diagnostic) string {
	k := findingKey(d)
	return string(d.Code) + "\x00" + k[strings.LastIndex(k, "\x00")+1:]
}

// dropImageUnused drops validate's SPEC138 (runtime.image unused under
// runtime.kind: bare) when --runtime writes a container bundle: the image
// is then the one the bundle runs.
func dropImageUnused(ds diag.Diagnostics, runtime string) diag.Diagnostics {
	if runtime == "" || runtime == "bare" {
		return ds
	}
	out := ds[:0:0]
	for _, d := range ds {
		if d.Code != codes.SpecRuntimeUnused {
			out = append(out, d)
		}
	}
	return out
}
