package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/vlaunch/vlaunch/diag"
)

// One convention for output flags in every command (kubectl's and helm's
// habits, #27): -o/--output is the output FORMAT (text, json, markdown,
// html, sarif, github, yaml: what each command supports); a file a
// command writes is --out-file FILE, a directory --out-dir DIR. Before,
// -o named a format in seven commands and a file or directory in four
// (`calibrate … -o json` wrote a file named json).

// addOutputFlag declares -o/--output with the command's formats (the first
// is the default).
func addOutputFlag(f *pflag.FlagSet, p *string, formats []string, what string) {
	help := "output format: " + orList(formats)
	if what != "" {
		help += " (" + what + ")"
	}
	f.StringVarP(p, "output", "o", formats[0], help)
	setFormats(f, "output", formats)
}

// formatsFor annotates a flag with the values it accepts; shell completion
// offers them (completeAnnotated).
const formatsFor = "vlaunch-formats"

// setFormats records the formats flag name accepts, so that completion
// reads the command's own formats variable and no second list.
func setFormats(f *pflag.FlagSet, name string, formats []string) {
	_ = f.SetAnnotation(name, formatsFor, formats)
}

// diagFormats converts a command's formats variable for diag.ParseFormat.
func diagFormats(formats []string) []diag.Format {
	out := make([]diag.Format, len(formats))
	for i, f := range formats {
		out[i] = diag.Format(f)
	}
	return out
}

// checkFormat refuses a format the command does not support. pathFlag
// names the command's file or directory flag: a value that is not a
// format is most likely a path given to -o the old way, and the message
// says where it goes now.
func checkFormat(value string, formats []string, pathFlag string) error {
	if slices.Contains(formats, value) {
		return nil
	}
	msg := "-o/--output is the output format: " + orList(formats) + ", not %q"
	switch {
	case pathFlag != "":
		msg += "; " + pathFlag + " (-o names a format in every vlaunch command)"
	case strings.ContainsAny(value, "./"):
		msg += "; this command prints to standard output: redirect it to write a file (> FILE)"
	}
	return usageErr(msg, value)
}

// parseFormat is checkFormat for the commands whose --output is a
// diagnostics format (validate, lint, preflight): one wording for a bad
// -o in every command (qa45c F10 found three).
func parseFormat(value string, formats []string) (diag.Format, error) {
	if err := checkFormat(value, formats, ""); err != nil {
		return "", err
	}
	return diag.Format(value), nil
}

// addDeprecatedAlias keeps an old flag name working for scripts, bound to
// the same value as its replacement and hidden from help. The notice goes
// to stderr (warnDeprecated): cobra's MarkDeprecated prints it on the
// command's output, stdout here, where it would corrupt -o json.
func addDeprecatedAlias(f *pflag.FlagSet, p *string, old, replacement string) {
	f.StringVar(p, old, "", "deprecated: use --"+replacement)
	_ = f.MarkHidden(old)
	_ = f.SetAnnotation(old, deprecatedFor, []string{replacement})
}

// deprecatedFor annotates a deprecated flag with its replacement.
const deprecatedFor = "vlaunch-deprecated-for"

// warnDeprecated tells on stderr which deprecated flags a command line
// used and what replaces them (root's PersistentPreRun, for every command).
func warnDeprecated(cmd *cobra.Command, w io.Writer) {
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if r := f.Annotations[deprecatedFor]; len(r) > 0 {
			fmt.Fprintf(w, "Flag --%s has been deprecated, use --%s (-o/--output is the output format)\n", f.Name, r[0])
		}
	})
}

// orList is "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}
