package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/schemas"
)

func init() { subcommands = append(subcommands, newInitCmd) }

type initOptions struct {
	example, outFile, output, schema string
	force                            bool
}

func newInitCmd(s *streams) *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init --example NAME [--out-file FILE]",
		Short: "Write one of the embedded example specs as a starting point",
		Long: "Write an embedded example deployment spec to --out-file FILE (or standard output).\n" +
			"-o/--output is the format, as in every vlaunch command: yaml, the only one a spec has\n" +
			"(before, -o named the file).\n" +
			"The first line is a yaml-language-server modeline naming the spec's JSON Schema, so\n" +
			"editors with a YAML language server (VS Code, Neovim, Helix, ...) complete and check\n" +
			"the spec: the schema's address in the repository, or --schema REF (a URL, or a path\n" +
			"relative to the spec, such as a file 'vlaunch schema --out-file' wrote).\n" +
			"An example whose model.config names a checkpoint's config.json (an NVFP4 checkpoint, a\n" +
			"model outside the catalog) carries those files: --out-file writes them beside the spec,\n" +
			"at the path model.config names. --out-file writes the spec and its files each through a\n" +
			"temporary file (missing directories are created), after checking that none exists: an\n" +
			"existing one refuses the whole write (--force replaces them). To standard output only the\n" +
			"spec is written, and a note on standard error names the files left out.\n" +
			"Examples: " + strings.Join(examples.Names(), ", ") + ".",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runInit(s, o) },
	}
	cmd.Flags().StringVar(&o.example, "example", "", "example name (see --help for the list)")
	cmd.Flags().StringVar(&o.outFile, "out-file", "", "file to write (default: standard output)")
	addOutputFlag(cmd.Flags(), &o.output, initFormats, "")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite an existing file")
	cmd.Flags().StringVar(&o.schema, "schema", schemas.DeploymentID, "the schema the editor modeline names: a URL or a path relative to the spec")
	return cmd
}

// initFormats: a spec is YAML.
var initFormats = []string{"yaml"}

// modelinePrefix starts the comment yaml-language-server reads the spec's
// schema from (its modeline: "# yaml-language-server: $schema=<url>").
const modelinePrefix = "# yaml-language-server: $schema="

func runInit(s *streams, o *initOptions) error {
	if err := checkFormat(o.output, initFormats, "the file to write is --out-file FILE"); err != nil {
		return err
	}
	if o.example == "" {
		return usageErr("init needs --example NAME; examples: %s", strings.Join(examples.Names(), ", "))
	}
	// The language server takes the first non-space run after $schema=;
	// a space or a line break would cut the reference or end the comment.
	if o.schema == "" || strings.ContainsFunc(o.schema, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return usageErr("--schema %q: give a URL or path without spaces or control characters", o.schema)
	}
	data, ok := examples.Read(o.example)
	if !ok {
		return usageErr("no example %q; examples: %s", o.example, strings.Join(examples.Names(), ", "))
	}
	data = withModeline(data, o.schema)
	name := strings.TrimSuffix(o.example, ".yaml")
	companions := examples.Companions(name)
	if o.outFile == "" || o.outFile == "-" {
		if _, err := s.out.Write(data); err != nil {
			return err
		}
		if len(companions) > 0 {
			var paths []string
			for _, f := range companions {
				paths = append(paths, f.Path)
			}
			fmt.Fprintf(s.err, "note: example %s reads %s beside the spec; not written to standard output: use --out-file FILE to write them beside FILE\n", name, strings.Join(paths, ", "))
		}
		return nil
	}
	// One path with or without companion files: all or nothing, no
	// clobbering without --force, one wording when it refuses.
	written, err := examples.WriteFiles(o.outFile, data, name, o.force)
	if err != nil {
		return usageErr("%v", err)
	}
	fmt.Fprintf(s.out, "wrote %s (example %s); next: vlaunch validate %s\n", strings.Join(written, ", "), name, o.outFile)
	return nil
}

// withModeline puts the yaml-language-server modeline naming schema on the
// spec's first line, replacing one the spec starts with.
func withModeline(spec []byte, schema string) []byte {
	if bytes.HasPrefix(spec, []byte(modelinePrefix)) {
		if i := bytes.IndexByte(spec, '\n'); i >= 0 {
			spec = spec[i+1:]
		} else {
			spec = nil
		}
	}
	return append([]byte(modelinePrefix+schema+"\n"), spec...)
}
