package main

import (
	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/schemas"
)

func init() { subcommands = append(subcommands, newSchemaCmd) }

func newSchemaCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema (draft-07) of the deployment spec",
		Long: `Print the JSON Schema (draft-07) that 'vlaunch validate' checks specs against.
Point your editor's YAML language server at it for completion and inline errors.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := s.out.Write(schemas.Deployment)
			return err
		},
	}
}
