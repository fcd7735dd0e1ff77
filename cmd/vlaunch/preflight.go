package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/preflight"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

func init() { subcommands = append(subcommands, newPreflightCmd) }

// preflightFlags are the command-line options of `vlaunch preflight`.
type preflightFlags struct {
	node       string
	only, skip []string
	output     string
	timeout    preflightTimeout
}

func newPreflightCmd(s *streams) *cobra.Command {
	f := &preflightFlags{timeout: preflightTimeout(preflight.DefaultTimeout)}
	c := &cobra.Command{
		Use:   "preflight SPEC --node NAME",
		Short: "Check this host before deployment (read-only: changes nothing, sends nothing)",
		Long: "Run on every node before starting the bundle. Checks GPUs, network identity, ports,\n" +
			"RDMA/DeepEP prerequisites, host resources, model files and software against the spec.\n" +
			"Exit 0 when nothing fails, 1 on any fail, 2 on unusable input.\n\nChecks (--only/--skip take ids or groups):\n" +
			checkList(),
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runPreflight(s, f, args[0]) },
	}
	c.Flags().StringVar(&f.node, "node", "", "the node this host plays (hardware.nodes[].name)")
	c.Flags().StringSliceVar(&f.only, "only", nil, "run only these check ids or groups (comma-separated, e.g. gpu,net.route)")
	c.Flags().StringSliceVar(&f.skip, "skip", nil, "skip these check ids or groups")
	c.Flags().StringVarP(&f.output, "output", "o", "text", "output format: text (the report), json (the report and its diagnostics), sarif or github (the warns and fails as diagnostics, for CI)")
	c.Flags().Var(&f.timeout, "timeout", "time limit for each check")
	return c
}

func runPreflight(s *streams, f *preflightFlags, path string) error {
	format, err := diag.ParseFormat(f.output, diag.FormatText, diag.FormatJSON, diag.FormatSARIF, diag.FormatGitHub)
	if err != nil {
		return usageErr("%v", err)
	}
	d, err := preflightSpec(s, path)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := preflight.Run(ctx, preflightOptions(d, f))
	var ue *preflight.UsageError
	if errors.As(err, &ue) {
		return usageErr("%v", ue)
	} else if err != nil {
		return err
	}
	if err := writePreflight(s, format, rep, d.Spec); err != nil {
		return err
	}
	if rep.Failed() {
		return findingsErr()
	}
	return nil
}

// preflightSpec loads, validates and resolves the spec (settleSpec, with
// `parallelism: auto` settled as check and generate settle it). A spec with
// errors is unusable here: preflight checks a host against the spec, so the
// spec itself must be right first (`vlaunch validate`).
func preflightSpec(s *streams, path string) (*resolve.Deployment, error) {
	st, err := settleSpec(s, path, false, "", "preflight")
	if errors.As(err, new(pdRefusal)) {
		return nil, err // SPEC130: the spec is valid, preflight does not take it
	}
	if err != nil {
		return nil, usageErr("cannot use spec %s (fix it first: vlaunch validate %s)", path, path)
	}
	return st.r, nil
}

// writePreflight prints the readable report, or for machines the warns
// and fails as diagnostics placed at the spec fields they concern.
func writePreflight(s *streams, format diag.Format, rep preflight.Report, d *spec.Deployment) error {
	if format == diag.FormatText {
		return preflight.WriteText(s.out, rep)
	}
	ds := rep.Findings()
	d.Locate(ds)
	if format == diag.FormatJSON {
		return preflight.WriteJSON(s.out, rep, ds)
	}
	return diag.Print(s.out, format, ds, nil, codes.RuleInfos("PF"))
}

func preflightOptions(r *resolve.Deployment, f *preflightFlags) preflight.Options {
	wd, _ := os.Getwd()
	return preflight.Options{
		Deployment: r, Node: f.node, Only: f.only, Skip: f.skip,
		Timeout: f.timeout.Duration(), Host: preflight.NewSystemHost(),
		WorkDir: wd, HFCacheDir: hfCacheDir(), Expect: estimatorHooks(r),
	}
}

// estimatorHooks feeds preflight the estimator's figures: what this node's
// GPUs hold. Checkpoint size has no estimator figure; preflight falls back
// to catalog counts. (The all2all backend comes from the deployment.)
func estimatorHooks(r *resolve.Deployment) preflight.Expectations {
	in := estimate.FromResolved(r)
	return preflight.Expectations{
		NodeWeightBytes: func(node string) (b float64, ok bool) {
			defer func() {
				if recover() != nil {
					b, ok = 0, false // fall back rather than fail the check
				}
			}()
			return nodeWeightBytes(r, &in, node)
		},
	}
}

// nodeWeightBytes is the heaviest stage's per-GPU weights times the GPUs of
// the node: the bytes its GPUs copy in from the checkpoint.
func nodeWeightBytes(r *resolve.Deployment, in *estimate.Input, node string) (float64, bool) {
	var perGPU float64
	for _, st := range estimate.Memory(in).Stages {
		perGPU = max(perGPU, st.WeightsGiB*estimate.GiB)
	}
	for _, n := range r.Nodes {
		if n.Name == node && perGPU > 0 {
			return perGPU * float64(n.GPUs), true
		}
	}
	return 0, false
}

// checkList is the help text's table of check ids.
func checkList() string {
	var b strings.Builder
	for _, c := range preflight.Checks() {
		fmt.Fprintf(&b, "  %-22s %s\n", c.ID, c.Title)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// hfCacheDir follows huggingface_hub: HF_HUB_CACHE, else HF_HOME/hub, else
// ~/.cache/huggingface/hub.
func hfCacheDir() string {
	if v := os.Getenv("HF_HUB_CACHE"); v != "" {
		return v
	}
	if v := os.Getenv("HF_HOME"); v != "" {
		return filepath.Join(v, "hub")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cache", "huggingface", "hub")
	}
	return ""
}

// preflightTimeout is a positive duration flag.
type preflightTimeout time.Duration

// String renders the limit for --help (pflag.Value).
func (t *preflightTimeout) String() string { return time.Duration(*t).String() }

// Type names the value kind in --help (pflag.Value).
func (t *preflightTimeout) Type() string { return "duration" }

// Set refuses zero and negative limits: a check must always end.
func (t *preflightTimeout) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d <= 0 {
		return fmt.Errorf("must be positive, got %s", s)
	}
	*t = preflightTimeout(d)
	return nil
}

// Duration returns the value as a time.Duration.
func (t preflightTimeout) Duration() time.Duration { return time.Duration(t) }
