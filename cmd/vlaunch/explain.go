package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag/codes"
)

func init() { subcommands = append(subcommands, newExplainCmd) }

func newExplainCmd(s *streams) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "explain CODE | NAME | --all",
		Short: "Print the documentation of a diagnostic code (or of all codes, as docs/codes.md)",
		Long: "Every finding carries a code: SPECxxx (validate), ESTxxx (check), GENxxx (generate),\n" +
			"VLxxx (lint), PFxxx (preflight) and LOGxxx (logs). `vlaunch explain CODE` says what it means, why it\n" +
			"matters and how to fix it; a code's name (e.g. unknown-flag, gpu.count) works too.",
		Example: "  vlaunch explain VL101\n  vlaunch explain gpu.count\n  vlaunch explain --all > docs/codes.md",
		RunE: func(c *cobra.Command, args []string) error {
			if all {
				fmt.Fprint(s.out, codes.Markdown())
				return nil
			}
			if len(args) != 1 {
				return usageErr("explain takes one code or name, or --all")
			}
			e, ok := codes.Lookup(args[0])
			if !ok {
				return usageErr("unknown code %q%s; `vlaunch explain --all` lists them", args[0], didYouMean(args[0]))
			}
			fmt.Fprint(s.out, e.Page())
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "print every code's documentation as markdown")
	return c
}

// didYouMean suggests codes or names close to a mistyped one.
func didYouMean(s string) string {
	var keys []string
	for _, e := range codes.All() {
		keys = append(keys, string(e.Code), e.Name)
	}
	if sug := catalog.Suggest(s, keys); len(sug) > 0 {
		return " (did you mean " + strings.Join(sug, ", ") + "?)"
	}
	return ""
}
