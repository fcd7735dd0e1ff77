package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/validate"
)

func init() { subcommands = append(subcommands, newLintCmd) }

// lintOptions are the flags of `vlaunch lint`.
type lintOptions struct {
	output, failOn, version, specPath string
	asDirectory                       bool
}

func newLintCmd(s *streams) *cobra.Command {
	o := &lintOptions{}
	c := &cobra.Command{
		Use:   "lint FILE|DIR...",
		Short: "Find mistakes in hand-written vLLM launch scripts and Kubernetes manifests",
		Long: "Lint shell scripts, Kubernetes manifests (Deployment, StatefulSet, LeaderWorkerSet) and\n" +
			"Docker Compose files that start vLLM, and the shell and YAML code blocks of Markdown\n" +
			"documents (a README, a recipe; a hosts table or JSON file is skipped as data). Several\n" +
			"files are linted together as the nodes of\n" +
			"one deployment; a directory contributes the .sh, .bash, .sbatch, .slurm, shebang, .yaml, .yml and\n" +
			"Markdown files under it (hidden entries and symbolic links skipped). A script another\n" +
			"file runs (bash start.sh, ./start.sh, a container running a mounted script) is linted\n" +
			"as that file starts it: its environment, host, container and image. Suppress a finding with `# vlaunch:disable=CODE reason` above the command\n" +
			"(or `# vlaunch:disable-file=CODE reason`); `vlaunch explain CODE` documents each rule.\n" +
			"A `# vlaunch:vllm-version=X` comment names the vLLM release a file targets (VL007).\n" +
			"With --as-directory the files named are taken as a directory's files: the way for\n" +
			"pre-commit and CI, which pass every file of a type (.pre-commit-hooks.yaml).\n" +
			"Exit 0: nothing at or above --fail-on; 1: findings; 2: unusable input.",
		Example: "  vlaunch lint node0.sh node1.sh\n  vlaunch lint bundle/\n  vlaunch lint --vllm-version 0.10.1 -o sarif lws.yaml",
		Args:    cobra.MinimumNArgs(1),
		RunE:    func(c *cobra.Command, args []string) error { return runLint(s, o, args) },
	}
	f := c.Flags()
	addOutputFlag(f, &o.output, lintFormats, "")
	f.StringVar(&o.failOn, "fail-on", "error", "lowest severity that fails the run: error, warning or info (info also fails on a file nothing was checked in, VL008)")
	f.StringVar(&o.version, "vllm-version", "", "vLLM version to lint for (default: each file's vlaunch:vllm-version comment, the spec's, an image tag's, or the newest known)")
	f.StringVar(&o.specPath, "spec", "", "deployment spec whose hardware (nodes, addresses, interfaces), layout, model and engine settings the scripts must match (VL401-VL405, VL410); a prefill/decode spec: pool by pool")
	f.BoolVar(&o.asDirectory, "as-directory", false, "take the files named as a directory's files (for pre-commit and CI passing every file of a type): only launch files are read, an empty or binary one is skipped, a file that starts nothing is noted only when no file does")
	return c
}

func runLint(s *streams, o *lintOptions, files []string) error {
	format, err := parseFormat(o.output, lintFormats)
	if err != nil {
		return err
	}
	failOn, err := diag.ParseSeverity(o.failOn)
	if err != nil {
		return usageErr("--fail-on must be error, warning or info")
	}
	opts := lint.Options{Version: o.version, Capacity: lintCapacity}
	if o.specPath != "" {
		r, ds, err := validate.File(o.specPath)
		if err != nil || r == nil {
			_ = diag.Print(s.err, diag.FormatText, ds, nil, nil)
			return usageErr("cannot use --spec %s", o.specPath)
		}
		// A disaggregated spec is compared pool by pool (lint's
		// assignPools: each pool's colocated view, its kv_role and the
		// connector).
		if ds.HasErrors() {
			// qa45c F6: a spec validate, check and generate refuse was
			// used silently; lint compares scripts with a valid spec only.
			_ = diag.Print(s.err, diag.FormatText, ds, nil, nil)
			return usageErr("--spec %s has errors (see above; `vlaunch validate %s`): lint compares launch files with a valid spec only", o.specPath, o.specPath)
		}
		opts.Spec = r.Spec
		opts.Capacity = specCapacity(r) // the spec's resolved GPU and network
	}
	inputs, src, err := readInputs(files, o.asDirectory, s.err)
	if err != nil {
		return usageErr("%v", err)
	}
	if len(inputs) == 0 {
		// Only with --as-directory: a hook's files held no launch file.
		if format == diag.FormatText {
			fmt.Fprintf(s.err, "vlaunch: no launch scripts, manifests or Markdown documents among the %d file(s) given\n", len(files))
		}
		return diag.Print(s.out, format, nil, nil, codes.RuleInfos("VL"))
	}
	var checked lint.Checked
	opts.Checked = &checked
	ds, err := lint.Lint(inputs, opts)
	if err != nil {
		return usageErr("%v", err)
	}
	if err := diag.Print(s.out, format, ds, src, codes.RuleInfos("VL")); err != nil {
		return err
	}
	if len(ds) == 0 && format == diag.FormatText {
		// Silence would not say whether anything was checked; a file with
		// no launch at all gets a VL008 note instead.
		fmt.Fprintf(s.err, "vlaunch: no findings in %d file(s): %s checked\n", len(inputs), checkedWords(checked))
	}
	if bad := unparsableYAML(ds); bad != "" {
		return &exitError{code: exitUsage, msg: fmt.Sprintf("unusable input (see above): %s is not valid YAML", bad)}
	}
	if ds.AtLeast(failOn) {
		return findingsErr()
	}
	return nil
}

// unparsableYAML names the first .yaml/.yml input lint could not parse at
// all (VL001 "invalid YAML"), "" when there is none. Such a file is
// unusable input, exit 2, as validate and check exit for the same file and
// the exit-code contract says (README "Exit codes": "non-YAML file";
// qa45c F8). A shell script's syntax error stays a finding (1): the script
// is what lint checks, and the error is in it. A broken YAML block inside
// a Markdown document likewise stays a finding about the document.
func unparsableYAML(ds diag.Diagnostics) string {
	for _, d := range ds {
		ext := strings.ToLower(filepath.Ext(d.File))
		if d.Code == codes.VLSyntax && strings.HasPrefix(d.Message, "invalid YAML") && (ext == ".yaml" || ext == ".yml") {
			return d.File
		}
	}
	return ""
}

// checkedWords says what a lint run checked: "2 vLLM servers and 1 Ray
// command".
func checkedWords(c lint.Checked) string {
	plural := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	w := plural(c.Servers, "vLLM server")
	if c.RayCommands > 0 {
		w += " and " + plural(c.RayCommands, "Ray command")
	}
	return w
}

// lintFormats are lint's diagnostic formats.
var lintFormats = []string{"text", "json", "sarif", "github"}
