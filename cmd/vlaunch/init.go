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
	example, out string
	force        bool
}

func newInitCmd(s *streams) *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init --example NAME [-o FILE]",
		Short: "Write one of the embedded example specs as a starting point",
		Long: "Write an embedded example deployment spec to FILE (or standard output).\n" +
			"Examples: " + strings.Join(examples.Names(), ", ") + ".",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runInit(s, o) },
	}
	cmd.Flags().StringVar(&o.example, "example", "", "example name (see --help for the list)")
	cmd.Flags().StringVarP(&o.out, "output", "o", "", "file to write (default: standard output)")
	cmd.Flags().BoolVar(&o.force, "force", false, "overwrite an existing file")
	return cmd
}

func runInit(s *streams, o *initOptions) error {
	if o.example == "" {
		return usageErr("init needs --example NAME; examples: %s", strings.Join(examples.Names(), ", "))
	}
	data, ok := examples.Read(o.example)
	if !ok {
		return usageErr("no example %q; examples: %s", o.example, strings.Join(examples.Names(), ", "))
	}
	if o.out == "" || o.out == "-" {
		_, err := s.out.Write(data)
		return err
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if o.force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(o.out, flags, 0o644)
	if os.IsExist(err) {
		return usageErr("%s exists (use --force to overwrite)", o.out)
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
	fmt.Fprintf(s.out, "wrote %s (example %s); next: vlaunch validate %s\n", o.out, strings.TrimSuffix(o.example, ".yaml"), o.out)
	return nil
}
