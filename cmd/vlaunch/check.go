package main

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/report"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

func init() { subcommands = append(subcommands, newCheckCmd) }

type checkOptions struct {
	output      string
	failOn      string
	calibration string
	quick       resolve.QuickOptions
	perf        estimate.PerfOptions
}

func newCheckCmd(s *streams) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check [SPEC | --model NAME --gpu NAME --tp N ...]",
		Short: "Check that a deployment fits: per-GPU memory, KV-cache capacity and verdicts",
		Long: `Compute what every GPU holds the way vLLM budgets it — weights by component,
peak activation, memory outside PyTorch, the KV cache — then the KV capacity,
the per-rank share of the workload's concurrency and the verdicts, with every
term and its derivation. Then predict serving speed — step time per DP rank
(compute, HBM, all-to-all and collectives), decode and prefill, a seeded
simulation of continuous batching — and give every SLO a verdict with the
resource that binds it and what it would take to meet it.

Quick form without a spec: vlaunch check --model deepseek-v3 --gpu h20 --dp 32 --ep
(the quick-form flags, --model to --concurrency, are refused next to a SPEC:
set the spec's fields instead).

Every SLO figure carries a band from the errors of published runs vlaunch
was not fitted to; a verdict is pass, fail, or uncertain when the band
straddles the target.

Exit codes: 0 the deployment starts and no SLO fails (uncertain verdicts
included, unless --fail-on uncertain), 1 something vLLM refuses (an error
finding: the weights or one max_model_len sequence do not fit, ...) or an
SLO fails (or the spec has errors), 2 unusable input (unreadable spec, bad
flags, unknown model or GPU in the quick form, quick-form flags next to a
SPEC). Sessions whose KV does not fit at once are a warning (EST103: vLLM
queues them and preempts): they count through the simulated SLO verdicts.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCheck(s, o, cmd, args) },
	}
	f := cmd.Flags()
	addOutputFlag(f, &o.output, checkFormats, "one self-contained page with charts")
	f.Uint64Var(&o.perf.Seed, "seed", simSeed, "seed of the serving simulation (same seed, same percentiles)")
	addCalibrationFlag(f, &o.calibration)
	f.StringVar(&o.failOn, "fail-on", "fail", "lowest SLO verdict that makes the exit code 1: fail, or uncertain (CI that wants certainty)")
	q := &o.quick
	f.StringVar(&q.Model, "model", "", "quick form: catalog model (see 'vlaunch models')")
	f.StringVar(&q.GPU, "gpu", "", "quick form: catalog GPU (see 'vlaunch gpus')")
	f.IntVar(&q.TP, "tp", 1, "quick form: tensor-parallel size")
	f.IntVar(&q.PP, "pp", 1, "quick form: pipeline-parallel size")
	f.IntVar(&q.DP, "dp", 1, "quick form: data-parallel size")
	f.BoolVar(&q.EP, "ep", false, "quick form: --enable-expert-parallel")
	f.IntVar(&q.MaxModelLen, "max-model-len", 0, "quick form: max_model_len (default: the model's)")
	f.Float64Var(&q.GPUMemoryUtilization, "gpu-memory-utilization", 0, "quick form: fraction of GPU memory (default: the vLLM version's)")
	f.StringVar(&q.KVCacheDType, "kv-cache-dtype", "auto", "quick form: "+orList(resolve.KVCacheDTypes)+" (the values of the spec's vllm.kv_cache_dtype)")
	f.StringVar(&q.Weights, "weights", "auto", "quick form: auto (the checkpoint), bf16, fp16, fp8, int8 or mxfp4")
	f.StringVar(&q.VLLMVersion, "vllm-version", "", "quick form: vLLM release (default: the newest vlaunch knows)")
	f.IntVar(&q.Concurrency, "concurrency", 1, "quick form: concurrent full-length sequences to fit")
	return cmd
}

func runCheck(s *streams, o *checkOptions, cmd *cobra.Command, args []string) error {
	if err := checkFormat(o.output, checkFormats, ""); err != nil {
		return err
	}
	if o.failOn != "fail" && o.failOn != slo.VerdictUncertain {
		return usageErr("--fail-on must be fail or uncertain, not %q", o.failOn)
	}
	if len(args) == 1 {
		if err := quickFlagsBesideSpec(cmd); err != nil {
			return err
		}
	}
	quick := o.quick.Model != "" || o.quick.GPU != ""
	switch {
	case len(args) == 0 && !quick:
		return usageErr("check needs a SPEC, or --model NAME --gpu NAME for the quick form\nRun 'vlaunch check --help' for usage.")
	case quick && (o.quick.Model == "" || o.quick.GPU == ""):
		return usageErr("the quick form needs both --model and --gpu")
	}
	var in estimate.Input
	var d *spec.Deployment
	var pre diag.Diagnostics
	var search *estimate.LayoutSearch
	var confirmed *estimate.PerfConfirmation
	var res *resolve.Deployment
	var err error
	if quick {
		in, err = quickCheckInput(o.quick, o.calibration)
	} else {
		d, res, in, pre, search, confirmed, err = specCheckInput(s, args[0], o.calibration, diagFormat(o.output), o.perf)
	}
	if err != nil {
		return err
	}
	var r estimate.Report
	if res != nil && res.PD != nil {
		r = checkPD(res, o.perf)
	} else {
		r = checkEstimate(&in, o.perf, confirmed)
	}
	r.LayoutSearch = search
	r.Findings = append(pre, r.Findings...)
	d.Locate(r.Findings) // nil in the quick form: no file to point into
	r.Feasible = r.Feasible && !pre.HasErrors()
	if err := writeReport(s.out, &r, o.output); err != nil {
		return err
	}
	if !r.Feasible || (o.failOn == slo.VerdictUncertain && anyUncertain(r.SLO)) {
		return findingsErr()
	}
	return nil
}

// checkEstimate is `vlaunch check`'s estimate of an input: the memory half,
// then the performance half with opt (the simulation's seed), taken from
// confirmed — the layout search's evaluation of the layout it chose for
// `parallelism: auto` (nil for a pinned one) — when it was made for this
// input and opt (estimate.Report.AddPerformanceConfirmed). check, and
// generate for its README and verdict, both go through it. It is a
// variable so that the agreement test can share one estimate between the
// two commands where their inputs are equal (agree_test.go).
var checkEstimate = func(in *estimate.Input, opt estimate.PerfOptions, confirmed *estimate.PerfConfirmation) estimate.Report {
	r := estimate.Check(in)
	r.AddPerformanceConfirmed(in, opt, confirmed)
	return r
}

// anyUncertain reports whether an SLO verdict is uncertain.
func anyUncertain(verdicts []slo.Verdict) bool {
	for _, v := range verdicts {
		if v.Verdict == slo.VerdictUncertain {
			return true
		}
	}
	return false
}

func quickCheckInput(q resolve.QuickOptions, calibration string) (estimate.Input, error) {
	if q.TP < 1 || q.PP < 1 || q.DP < 1 {
		return estimate.Input{}, usageErr("--tp, --pp and --dp must be at least 1")
	}
	r, err := resolve.Quick(q)
	if err != nil {
		if fe, ok := err.(*resolve.FieldError); ok && fe.Hint != "" {
			return estimate.Input{}, usageErr("%s (%s)", fe.Msg, fe.Hint)
		} else if ok {
			return estimate.Input{}, usageErr("%s", fe.Msg)
		}
		return estimate.Input{}, usageErr("%v", err)
	}
	if err := quickLayoutRefused(r); err != nil {
		return estimate.Input{}, err
	}
	if r, err = withCalibration(r, calibration); err != nil {
		return estimate.Input{}, err
	}
	return estimate.FromResolved(r), nil
}

// quickLayoutRefused refuses a quick-form layout vLLM refuses to start,
// by the rules validate applies to a spec's (SPEC123: the heads,
// catalog.Model.TPSplitProblem; SPEC124: the checkpoint's weight blocks,
// resolve.Layout.BlockSplitProblem), rather than estimate it.
func quickLayoutRefused(r *resolve.Deployment) error {
	l := r.Layout
	if p := r.Model.TPSplitProblem(l.TP); p != "" {
		return usageErr("--tp %d: vLLM refuses to start %s with it (%s)", l.TP, r.Model.ID, p)
	}
	if p := l.BlockSplitProblem(r.Model, r.Engine.WeightsFromCheckpoint); p != "" {
		return usageErr("--tp %d --dp %d (--ep %t): vLLM refuses to start %s with it (%s)", l.TP, l.DP, l.EP, r.Model.ID, p)
	}
	return nil
}

// specCheckInput validates and resolves the spec (settleSpec). Validation
// errors are printed and end the command with exit 1; warnings travel into
// the report. With `parallelism: auto` the input is the layout the search
// chose (the one `vlaunch generate` writes), and the search comes back for
// the report. A disaggregated spec comes back resolved too (its check is
// estimate.CheckPD).
func specCheckInput(s *streams, path, calibration string, format diag.Format, perf estimate.PerfOptions) (*spec.Deployment, *resolve.Deployment, estimate.Input, diag.Diagnostics, *estimate.LayoutSearch, *estimate.PerfConfirmation, error) {
	st, err := settleSpec(s, path, false, calibration, format, perf)
	if err != nil {
		return nil, nil, estimate.Input{}, nil, nil, nil, err
	}
	return st.r.Spec, st.r, estimate.FromResolved(st.r), st.findings, st.search, st.confirmed, nil
}

func writeReport(w io.Writer, r *estimate.Report, format string) error {
	switch format {
	case "json":
		return report.WriteJSON(w, r)
	case "markdown":
		report.WriteMarkdown(w, r)
	case "html":
		return report.WriteHTML(w, r)
	default:
		report.WriteText(w, r)
	}
	return nil
}

// checkFormats are check's report formats.
var checkFormats = []string{"text", "json", "markdown", "html"}
