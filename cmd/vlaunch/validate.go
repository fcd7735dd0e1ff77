package main

import (
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/internal/inputfile"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
	"github.com/vlaunch/vlaunch/vllm"
)

func init() { subcommands = append(subcommands, newValidateCmd) }

type validateOptions struct {
	output       string
	showDefaults bool
	onlySpecs    bool
}

func newValidateCmd(s *streams) *cobra.Command {
	o := &validateOptions{}
	cmd := &cobra.Command{
		Use:   "validate SPEC...",
		Short: "Check deployment specs against the schema and the semantic rules",
		Long: `Check deployment specs against the JSON Schema (see 'vlaunch schema') and the
semantic rules (layout vs GPUs, model and GPU names, context lengths, SLO
percentiles, safe names). Every finding carries file:line:col, a stable
code, the field path, a message and a hint.

With --only-specs (for pre-commit and CI run over every YAML file) a file
is validated only when it declares a vlaunch spec's apiVersion (a line
"apiVersion: vlaunch/v1", as every spec and 'vlaunch init' start), or
declares no apiVersion but has a spec's top-level model: and hardware:
keys (a spec that lost its apiVersion line, reported as such); the other
files are skipped and counted on stderr.

Exit codes: 0 no errors (warnings allowed), 1 error findings, 2 unusable
input (unreadable, empty, binary or not YAML).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runValidate(s, o, args) },
	}
	addOutputFlag(cmd.Flags(), &o.output, validateFormats, "")
	cmd.Flags().BoolVar(&o.showDefaults, "show-defaults", false, "print each spec with defaults applied (YAML; text output only)")
	cmd.Flags().BoolVar(&o.onlySpecs, "only-specs", false, "skip the files that are no vlaunch spec: no apiVersion: vlaunch/..., and not a spec missing it (for hooks passing every YAML file)")
	return cmd
}

func runValidate(s *streams, o *validateOptions, files []string) error {
	format, err := parseFormat(o.output, validateFormats)
	if err != nil {
		return err
	}
	if o.showDefaults && format != diag.FormatText {
		// JSON carries the diagnostics only; say so rather than drop the
		// flag silently (qa45c F10). stderr keeps stdout valid JSON.
		fmt.Fprintf(s.err, "vlaunch: --show-defaults is ignored with -o %s: it prints YAML in text output only\n", format)
	}
	var all diag.Diagnostics
	src := diag.Sources{}
	unusable := false
	given := len(files)
	if o.onlySpecs {
		files = specFiles(files)
		if format == diag.FormatText && len(files) < given {
			fmt.Fprintf(s.err, "vlaunch: skipped %d of %d file(s): no apiVersion: vlaunch/... in them\n", given-len(files), given)
		}
		if len(files) == 0 {
			if format == diag.FormatJSON {
				return diag.Print(s.out, format, nil, nil, nil)
			}
			return nil
		}
	}
	for _, f := range files {
		d, ds, err := validate.File(f)
		all = append(all, ds...)
		unusable = unusable || err != nil
		if data, rerr := spec.ReadFile(f); rerr == nil && utf8.Valid(data) {
			src[f] = vllm.BlankSecrets(data) // snippets never echo a credential
		}
		if o.showDefaults && d != nil && format == diag.FormatText {
			if err := printDefaults(s.out, d); err != nil {
				return err
			}
		}
	}
	all.Sort()
	if err := printValidation(s, format, all, src, files); err != nil {
		return err
	}
	switch {
	case unusable:
		return usageErr("unusable input (see above)")
	case all.HasErrors():
		return findingsErr()
	}
	return nil
}

func printValidation(s *streams, format diag.Format, ds diag.Diagnostics, src diag.Sources, files []string) error {
	if format == diag.FormatJSON {
		return diag.Print(s.out, format, ds, src, codes.RuleInfos("SPEC"))
	}
	if err := diag.Print(s.out, format, ds, src, codes.RuleInfos("SPEC")); err != nil {
		return err
	}
	if len(ds) == 0 {
		fmt.Fprintf(s.out, "%s: valid\n", plural(len(files), "spec"))
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// specAPIVersion finds the declaration every vlaunch spec holds: a
// top-level `apiVersion: vlaunch/…` line (quoted or not), or the JSON form
// `"apiVersion": "vlaunch/…"`. Kubernetes manifests, Compose files and CI
// workflows have another apiVersion or none.
var specAPIVersion = regexp.MustCompile(`(?m)(^|[{,]\s*)["']?apiVersion["']?\s*:\s*["']?vlaunch/`)

// A spec that lost its apiVersion line still has a spec's own top-level
// keys, model: and hardware:, which no manifest, Compose file or workflow
// has: --only-specs validates it (and validate says what is missing)
// rather than skip it in silence.
var (
	anyAPIVersion = regexp.MustCompile(`(?m)^["']?apiVersion["']?\s*:`)
	specModelKey  = regexp.MustCompile(`(?m)^["']?model["']?\s*:`)
	specHWKey     = regexp.MustCompile(`(?m)^["']?hardware["']?\s*:`)
)

// looksLikeSpec reports whether data is a vlaunch spec: it declares the
// spec's apiVersion, or declares none and has the spec's model: and
// hardware: keys.
func looksLikeSpec(data []byte) bool {
	if specAPIVersion.Match(data) {
		return true
	}
	return !anyAPIVersion.Match(data) && specModelKey.Match(data) && specHWKey.Match(data)
}

// specFiles keeps the files --only-specs validates: those declaring a
// spec's apiVersion, and those it cannot read (validate reports why, as
// for any file named). A file over the spec size cap is no spec.
func specFiles(files []string) []string {
	var out []string
	for _, f := range files {
		data, err := spec.ReadFile(f)
		switch {
		case errors.Is(err, inputfile.ErrTooLarge):
			continue
		case err != nil || looksLikeSpec(data):
			out = append(out, f)
		}
	}
	return out
}

// validateFormats are validate's diagnostic formats.
var validateFormats = []string{"text", "json"}
