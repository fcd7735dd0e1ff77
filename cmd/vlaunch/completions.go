package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/plan"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Shell completion (cobra's hidden __complete command, which the scripts
// `vlaunch completion bash|zsh|fish|powershell` call): the values a flag or
// argument takes, from the same tables the command checks them against.
// None of these values is a file, so each says ShellCompDirectiveNoFileComp
// (without it the shell falls back to file names).

const noFiles = cobra.ShellCompDirectiveNoFileComp

// registerCompletions walks the command tree: every flag annotated with
// its formats (addOutputFlag, setFormats) completes them, every
// --vllm-version the releases vlaunch knows; then the command-specific
// ones (init --example, plan --objective, check --gpu/--model, preflight --node/--pool,
// explain CODE).
func registerCompletions(root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if formats := f.Annotations[formatsFor]; len(formats) > 0 {
				_ = c.RegisterFlagCompletionFunc(f.Name, fixed(formats))
			}
			if f.Name == "vllm-version" {
				_ = c.RegisterFlagCompletionFunc(f.Name, completeReleases)
			}
		})
		switch c.Name() {
		case "init":
			_ = c.RegisterFlagCompletionFunc("example", fixed(examples.Names()))
		case "plan":
			_ = c.RegisterFlagCompletionFunc("objective", fixed(plan.Objectives))
		case "check":
			_ = c.RegisterFlagCompletionFunc("gpu", completeGPUs)
			_ = c.RegisterFlagCompletionFunc("model", completeModels)
		case "preflight":
			_ = c.RegisterFlagCompletionFunc("node", completeNodes)
			_ = c.RegisterFlagCompletionFunc("pool", completePools)
		case "explain":
			c.ValidArgsFunction = completeCodes
		}
		for _, k := range c.Commands() {
			walk(k)
		}
	}
	walk(root)
}

// fixed completes a flag from a fixed list.
func fixed(values []string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return append([]string(nil), values...), noFiles
	}
}

// completeReleases lists the vLLM releases of vlaunch's table (vllm.Releases).
func completeReleases(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []string
	for _, r := range vllm.Releases() {
		out = append(out, r.String())
	}
	return out, noFiles
}

// completeGPUs lists the catalog's GPU ids, each described by its name.
func completeGPUs(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []string
	for _, g := range catalog.GPUs() {
		out = append(out, cobra.CompletionWithDesc(g.ID, g.Name))
	}
	return out, noFiles
}

// completeModels lists the catalog's model ids, each described by its
// Hugging Face repository.
func completeModels(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	var out []string
	for _, m := range catalog.Models() {
		if m.HFRepo != "" {
			out = append(out, cobra.CompletionWithDesc(m.ID, m.HFRepo))
		} else {
			out = append(out, m.ID)
		}
	}
	return out, noFiles
}

// completeCodes completes what `vlaunch explain` accepts (codes.Lookup: a
// code or a code's name, in any case): the codes and the names that start
// with what was typed, case-insensitively. A code is described by its
// title (the catalog's summary), a name by its code and title, a retired
// code's description says so; one argument only, and none with --all.
func completeCodes(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, noFiles
	}
	if all, _ := c.Flags().GetBool("all"); all {
		return nil, noFiles
	}
	typed := strings.ToUpper(toComplete)
	var byCode, byName []string
	for _, e := range codes.All() {
		title := e.Summary
		if e.Retired() != "" {
			title = "retired: " + title
		}
		if strings.HasPrefix(strings.ToUpper(string(e.Code)), typed) {
			byCode = append(byCode, cobra.CompletionWithDesc(string(e.Code), title))
		}
		if strings.HasPrefix(strings.ToUpper(e.Name), typed) {
			byName = append(byName, cobra.CompletionWithDesc(e.Name, string(e.Code)+": "+title))
		}
	}
	return append(byCode, byName...), noFiles
}

// completionSpec decodes the SPEC preflight was given (its first
// argument) for --node and --pool; nil when there is none or it does not
// parse. Standard input ("-") is not read: completion must not block.
func completionSpec(args []string) *spec.Deployment {
	if len(args) == 0 || args[0] == "-" || args[0] == "" {
		return nil
	}
	d, ds := spec.Load(args[0])
	if d == nil || ds.HasErrors() {
		return nil
	}
	return d
}

// completeNodes lists the spec's hardware.nodes names; with --pool, that
// pool's nodes.
func completeNodes(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	d := completionSpec(args)
	if d == nil {
		return nil, noFiles
	}
	pool, _ := c.Flags().GetString("pool")
	if g := d.Disaggregation; g != nil && pool != "" {
		if p := g.Pool(pool); p != nil {
			return append([]string(nil), p.Nodes...), noFiles
		}
	}
	var out []string
	for _, n := range d.Hardware.Nodes {
		out = append(out, n.Name)
	}
	return out, noFiles
}

// completePools lists the pools of a disaggregated spec (prefill, decode);
// with --node, the pools that node is in. A colocated spec has none.
func completePools(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
	d := completionSpec(args)
	if d == nil || d.Disaggregation == nil {
		return nil, noFiles
	}
	node, _ := c.Flags().GetString("node")
	var out []string
	for _, role := range spec.Roles {
		p := d.Disaggregation.Pool(role)
		if p == nil {
			continue
		}
		if node == "" || slices.Contains(p.Nodes, node) {
			out = append(out, role)
		}
	}
	return out, noFiles
}
