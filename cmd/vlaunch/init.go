package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/examples"
)

func init() { subcommands = append(subcommands, newInitCmd) }

type initOptions struct {
	example, outFile, output string
	force                    bool
}

func newInitCmd(s *streams) *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init --example NAME [--out-file FILE]",
		Short: "Write one of the embedded example specs as a starting point",
		Long: "Write an embedded example deployment spec to --out-file FILE (or standard output).\n" +
			"-o/--output is the format, as in every vlaunch command: yaml, the only one a spec has\n" +
			"(before, -o named the file).\n" +
			"Examples: " + strings.Join(examples.Names(), ", ") + ".",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runInit(s, o) },
	}
	cmd.Flags().StringVar(&o.example, "example", "", "example name (see --help for the list)")
	cmd.Flags().StringVar(&o.outFile, "out-file", "", "file to write (default: standard output)")
	addOutputFlag(cmd.Flags(), &o.output, initFormats, "")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite an existing file")
	return cmd
}

// initFormats: a spec is YAML.
var initFormats = []string{"yaml"}

func runInit(s *streams, o *initOptions) error {
	if err := checkFormat(o.output, initFormats, "the file to write is --out-file FILE"); err != nil {
		return err
	}
	if o.example == "" {
		return usageErr("init needs --example NAME; examples: %s", strings.Join(examples.Names(), ", "))
	}
	data, ok := examples.Read(o.example)
	if !ok {
		return usageErr("no example %q; examples: %s", o.example, strings.Join(examples.Names(), ", "))
	}
	if o.outFile == "" || o.outFile == "-" {
		_, err := s.out.Write(data)
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if o.force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(o.outFile, flags, 0o644)
	if os.IsExist(err) {
		return usageErr("%s exists (use --force to overwrite)", o.outFile)
	}
	if err != nil {
		return usageErr("%v", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(s.out, "wrote %s (example %s); next: vlaunch validate %s\n", o.outFile, strings.TrimSuffix(o.example, ".yaml"), o.outFile)
	return nil
}
