package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/lint"
)

func init() { subcommands = append(subcommands, newExplainCmd) }

func newExplainCmd(s *streams) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "explain CODE | --all",
		Short: "Print the documentation of a lint rule (or of all rules, as docs/rules.md)",
		RunE: func(c *cobra.Command, args []string) error {
			if all {
				fmt.Fprint(s.out, lint.RulesMarkdown())
				return nil
			}
			if len(args) != 1 {
				return usageErr("explain takes one rule code, or --all")
			}
			r, ok := lint.RuleByCode(strings.ToUpper(args[0]))
			if !ok {
				return usageErr("unknown rule %q; `vlaunch explain --all` lists them", args[0])
			}
			fmt.Fprint(s.out, lint.RuleDoc(r))
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "print every rule's documentation as markdown")
	return c
}

func lowerCode(code string) string { return strings.ToLower(code) }
