package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/schemas"
)

func init() { subcommands = append(subcommands, newSchemaCmd) }

type schemaOptions struct {
	outFile, output string
	force           bool
}

// schemaFormats: the schema is JSON.
var schemaFormats = []string{"json"}

func newSchemaCmd(s *streams) *cobra.Command {
	o := &schemaOptions{}
	cmd := &cobra.Command{
		Use:   "schema [--out-file FILE]",
		Short: "Print the JSON Schema (draft-07) of the deployment spec",
		Long: `Print the JSON Schema (draft-07) that 'vlaunch validate' checks specs against, or
write it to --out-file FILE.
Editors with a YAML language server complete and check a spec whose first line
names it ('vlaunch init' writes that line):

  # yaml-language-server: $schema=` + schemas.DeploymentID + `

An editor offline, or one that must see exactly this binary's schema, can name
a local copy instead: 'vlaunch schema --out-file vlaunch.schema.json', then
'$schema=vlaunch.schema.json' (a path relative to the spec).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runSchema(s, o) },
	}
	cmd.Flags().StringVar(&o.outFile, "out-file", "", "file to write (default: standard output)")
	addOutputFlag(cmd.Flags(), &o.output, schemaFormats, "")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite an existing file")
	return cmd
}

func runSchema(s *streams, o *schemaOptions) error {
	if err := checkFormat(o.output, schemaFormats, "the file to write is --out-file FILE"); err != nil {
		return err
	}
	if o.outFile == "" || o.outFile == "-" {
		_, err := s.out.Write(schemas.Deployment)
		return err
	}
	if err := writeNewFile(o.outFile, schemas.Deployment, o.force); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "wrote %s; a spec names it on its first line, as a path relative to the spec: %s%s\n", o.outFile, modelinePrefix, o.outFile)
	return nil
}

// writeNewFile writes a file a command was asked for with --out-file: it
// refuses to replace an existing one unless force, and writes through a
// temporary file (writeFileAtomic), so an interrupted write never leaves
// half a file behind.
func writeNewFile(path string, data []byte, force bool) error {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return usageErr("%s exists (use --force to overwrite)", path)
		}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usageErr("%s is a directory", path)
	}
	if err := writeFileAtomic(path, data); err != nil {
		return usageErr("%v", err)
	}
	return nil
}
