package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/plan"
	"github.com/vlaunch/vlaunch/report"
	"github.com/vlaunch/vlaunch/resolve"
)

func init() { subcommands = append(subcommands, newPlanCmd) }

type planOptions struct {
	output, outFile string
	calibration     string
	objective       string
	top, apply      int
	seed            uint64
	force           bool
}

func newPlanCmd(s *streams) *cobra.Command {
	o := &planOptions{}
	cmd := &cobra.Command{
		Use:   "plan SPEC [-o text|json|html] [--apply N --out-file FILE]",
		Short: "Rank the layouts and engine settings this hardware allows for the spec's SLO",
		Long: `Enumerate what the spec's hardware and vLLM release allow and 'vlaunch generate'
can write — tensor, pipeline and data parallel sizes, expert parallelism, the
weight format the checkpoint allows, the KV-cache dtype, the all-to-all backend,
dual-batch overlap, max_num_seqs and max_num_batched_tokens, and, when the spec
enables speculative decoding, its draft length (and off) — prune by memory,
bound the rest with the step-time model, simulate the front-runners as
'vlaunch check' does, and rank by SLO attainment (fewest SLOs failing, then
fewest whose point prediction misses its target, then most passing, then
closest to the rest), then output tokens/s per GPU.

The report lists the best candidates with a verdict per SLO and the binding
resource, marks the spec's own settings, gives the Pareto front of throughput
per GPU against TPOT, the SLOs no candidate passes on this hardware (failed,
or uncertain within the model's accuracy band) with the smallest change that
would, and how far the workload, the network and
gpu_memory_utilization may move before a verdict of the best candidate flips.
Every prediction uses the calibration --calibration FILE names (else the
spec's calibration:, else the global constants); the report names it.

--objective fewest-gpus asks instead for the fewest GPUs that meet every SLO:
whole nodes, the first of hardware.nodes, then the first two, and so on, each
searched as above, until a candidate passes every SLO; the list is those
candidates, by GPUs used, then as above, and --apply writes a spec with only
their nodes. When none passes on any subset, all the nodes included, it says
so and lists the all-node ranking (exit 1).

--apply N --out-file FILE writes the spec with candidate N (its comments and
key order kept), ready for 'vlaunch generate'. -o/--output is the report's
format, as in every vlaunch command; --spec-out is the old name of --out-file.

Exit codes: 0 no SLO of the best candidate fails (pass, or uncertain: the
target inside the prediction's band); 1 every candidate fails one (or the
spec has errors); 2 unusable input (unreadable spec, bad flags, an existing
FILE without --force).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runPlan(s, o, args[0]) },
	}
	f := cmd.Flags()
	addOutputFlag(f, &o.output, planFormats, "")
	f.IntVar(&o.top, "top", plan.DefaultTop, "how many candidates to list (the ranking does not depend on it: a shorter list is the head of a longer one)")
	f.Uint64Var(&o.seed, "seed", simSeed, "seed of the serving simulation (check's default gives check's verdicts)")
	f.IntVar(&o.apply, "apply", 0, "write the spec with candidate N of the list (needs --out-file FILE)")
	f.StringVar(&o.outFile, "out-file", "", "where --apply writes the spec")
	addDeprecatedAlias(f, &o.outFile, "spec-out", "out-file")
	f.BoolVar(&o.force, "force", false, "let --apply replace an existing file")
	addCalibrationFlag(f, &o.calibration)
	f.StringVar(&o.objective, "objective", plan.ObjectivePerGPU, "what the list optimises: "+orList(plan.Objectives)+" (the fewest GPUs, whole nodes in the spec's order, that meet every SLO)")
	return cmd
}

func runPlan(s *streams, o *planOptions, path string) error {
	if err := checkFormat(o.output, planFormats, "--apply writes the spec to --out-file FILE"); err != nil {
		return err
	}
	switch {
	case !slices.Contains(plan.Objectives, o.objective):
		return usageErr("--objective is %s, not %q", orList(plan.Objectives), o.objective)
	case o.top < 1:
		return usageErr("--top must be at least 1")
	case o.apply < 0 || (o.apply > 0) != (o.outFile != ""):
		return usageErr("--apply N and --out-file FILE go together (N counts from 1)")
	case o.apply > o.top:
		return usageErr("--apply %d is beyond the %d candidates listed (raise --top)", o.apply, o.top)
	}
	if o.outFile != "" && !o.force {
		if _, err := os.Stat(o.outFile); !errors.Is(err, fs.ErrNotExist) {
			return usageErr("%s exists (use --force to replace it)", o.outFile)
		}
	}
	d, _, src, err := specFile(s, path, false, diagFormat(o.output))
	if err == nil {
		d, err = withCalibration(d, o.calibration)
	}
	if err != nil {
		return err
	}
	opt := plan.Options{Top: o.top, Seed: o.seed, File: path, Source: src[path]}
	var res *plan.Result
	if o.objective == plan.ObjectiveFewestGPUs {
		res = plan.PlanFewestGPUs(d, opt)
	} else {
		res = plan.Plan(d, opt)
	}
	if err := writePlan(s, d, res, o); err != nil {
		return err
	}
	if o.apply > 0 {
		if err := applyCandidate(s, res, o, src[path]); err != nil {
			return err
		}
	}
	if len(res.Top) == 0 || !res.Top[0].NoneFail() || res.Fewest != nil && !res.Fewest.Found() {
		return findingsErr()
	}
	return nil
}

// planFormats are plan's report formats.
var planFormats = []string{"text", "json", "html"}

func writePlan(s *streams, d *resolve.Deployment, res *plan.Result, o *planOptions) error {
	switch o.output {
	case "json":
		return report.WritePlanJSON(s.out, res)
	case "html":
		var best *estimate.Report
		if len(res.Top) > 0 {
			best, _ = plan.CheckReport(d, res.Top[0].Settings, o.seed)
		}
		return report.WritePlanHTML(s.out, res, best)
	}
	report.WritePlanText(s.out, res)
	return nil
}

// applyCandidate writes candidate N into the spec source.
func applyCandidate(s *streams, res *plan.Result, o *planOptions, src []byte) error {
	if o.apply > len(res.Top) {
		return usageErr("--apply %d: the plan lists %d candidate(s)", o.apply, len(res.Top))
	}
	c := res.Top[o.apply-1]
	out, notes, err := plan.ApplyNoted(src, res.OwnSettings, c.Settings)
	if err != nil {
		return usageErr("cannot rewrite the spec: %v", err)
	}
	if err := os.WriteFile(o.outFile, out, 0o644); err != nil {
		return usageErr("cannot write %s: %v", o.outFile, err)
	}
	fmt.Fprintf(s.err, "wrote %s with candidate %d: %s\n", o.outFile, o.apply, c.Settings)
	for _, n := range notes { // what changed beyond the candidate's settings, and why
		fmt.Fprintf(s.err, "  also %s\n", n)
	}
	return nil
}
