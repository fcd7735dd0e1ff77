package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/calfile"
	"github.com/vlaunch/vlaunch/calibrate"
	"github.com/vlaunch/vlaunch/internal/inputfile"
)

func init() { subcommands = append(subcommands, newCalibrateCmd) }

type calibrateOptions struct {
	spec, outFile, output, metrics string
	force, strict                  bool
}

func newCalibrateCmd(s *streams) *cobra.Command {
	o := &calibrateOptions{}
	cmd := &cobra.Command{
		Use:   "calibrate RESULT... --spec SPEC [--out-file calibration.yaml] [-o text|json|markdown]",
		Short: "Fit the performance model's efficiency constants to your own benchmark results",
		Long: `Read benchmark results of the deployment SPEC describes — 'vllm bench serve
--save-result' JSON (and the older benchmark_serving.py's), SGLang bench_serving
JSONL, GuideLLM reports, NVIDIA AIPerf / GenAI-Perf exports, 'vllm bench
sweep' summaries, kubernetes-sigs inference-perf lifecycle reports, Ray
LLMPerf summaries — replay each run (its request shape, load and number
of requests; with vLLM's --save-detailed or SGLang's --output-details, the
spread of its request lengths too) through vlaunch's step-time model and
simulator, and fit the
efficiency constants so the predictions match: bounded to documented ranges,
minimising the worst error down to a tolerance of about ±15% (the model's own
error on runs it was not fitted to: a closer fit would fit the runs' noise and
move constants the next run pays for). The report shows every result, every constant's
movement (or why the results cannot move it) and every value before and after.

A prefill/decode disaggregated spec (a disaggregation: block) is replayed
through the P/D model check uses: both pools, the KV hand-off and the
router's hops, the figures measured at the router (output throughput,
TPOT, TTFT), each with what binds it in the model (the pool, or TTFT's
parts by pool). The P/D model replays a closed loop, a burst or Poisson
arrivals (a run whose arrivals all came at once under --max-concurrency is
the closed loop it is); other loads are shown, not used. Both pools must
run on the same GPU (one calibration file describes one GPU). A P/D fit
runs at most 300 evaluations of the P/D model.

A result that records the endpoint its client called (vllm bench serve's
backend: openai-chat is /v1/chat/completions, vllm and openai
/v1/completions; AIPerf's and GenAI-Perf's endpoint type) is replayed with
that endpoint, whatever the spec's workload.api says, and the report says
so; one that records none is replayed with the spec's.

With --out-file FILE the fitted constants are written to a calibration file
that check, plan and generate use with --calibration FILE, or with
'calibration: FILE' in the spec. -o/--output is the report's format, as in
every vlaunch command; --out is the old name of --out-file.

A fit minimises the worst error, and may trade other figures for it:
calibrate warns (on stderr) naming every figure whose error the fit made
worse, and says when the worst error itself grew. With --strict such a fit
exits 1 and no calibration file is written.

A fit to a few results may describe their noise rather than the cluster,
so calibrate also replays the published runs (published/throughput.yaml) of
vLLM on the same GPU — any model, the same engine generation, leaving out
your own results and the figures the global calibration leaves out — with
the global constants and with the fitted ones, reports the figures the fit
predicts worse and the median error before and after, and warns (on
stderr) when the median grew. For a P/D spec it also replays the P/D runs
of published/pd.yaml on that GPU through the P/D model, marks them (P/D)
and warns too when their own median grew. It says so when no published run
matches. With --strict that warning too exits 1 and writes nothing.

Exit codes: 0 fitted, 1 nothing could be fitted (no usable result, or no
constant the results constrain), or --strict and the fit made a figure,
or the published runs on the same GPU, worse; 2 unusable input (a P/D
spec whose pools run on different GPUs among it).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runCalibrate(s, o, args) },
	}
	f := cmd.Flags()
	f.StringVar(&o.spec, "spec", "", "the deployment the benchmarks ran on (required)")
	f.StringVar(&o.outFile, "out-file", "", "write the calibration file here")
	addDeprecatedAlias(f, &o.outFile, "out", "out-file")
	addOutputFlag(f, &o.output, calibrateFormats, "the report")
	f.StringVar(&o.metrics, "metrics", "throughput,tpot,ttft", "values to fit: throughput, tpot, ttft")
	f.BoolVar(&o.force, "force", false, "replace an existing --out-file (an earlier calibration or any other file)")
	f.BoolVar(&o.strict, "strict", false, "exit 1, writing nothing, when the fit makes any figure (or the worst error, or the published runs on the same GPU) worse")
	return cmd
}

func runCalibrate(s *streams, o *calibrateOptions, paths []string) error {
	if o.spec == "" {
		return usageErr("calibrate needs --spec SPEC: the deployment the benchmarks ran on")
	}
	if err := checkFormat(o.output, calibrateFormats, "the calibration file is --out-file FILE"); err != nil {
		return err
	}
	metrics, err := calibrate.ParseMetrics(o.metrics)
	if err != nil {
		return usageErr("--metrics: %v", err)
	}
	if err := checkOutFile(o.outFile, o.force); err != nil {
		return err
	}
	var results []bench.Result
	for _, p := range paths {
		data, err := inputfile.Read(p, bench.MaxBytes)
		if err != nil {
			return usageErr("%s: %v", p, err)
		}
		rs, err := bench.Parse(p, data)
		if err != nil {
			// A file read but refused (no result in it, or one that
			// contradicts itself) is "no usable result": exit 1, as
			// --help says, not 2 (qa44c F9).
			fmt.Fprintf(s.err, "vlaunch calibrate: %v\n", err)
			return findingsErr()
		}
		results = append(results, rs...)
	}
	r, _, _, err := specFile(s, o.spec, false, diagFormat(o.output))
	if err != nil {
		return err
	}
	rep, err := calibrate.Calibrate(r, results, calibrate.Options{Metrics: metrics})
	if gpus := (*calibrate.PoolGPUsError)(nil); errors.As(err, &gpus) {
		return usageErr("%v", gpus)
	}
	if rep != nil {
		if werr := writeCalibrationReport(s, rep, o.output); werr != nil {
			return werr
		}
	}
	if err != nil {
		fmt.Fprintf(s.err, "vlaunch calibrate: %v\n", err)
		return findingsErr()
	}
	if !rep.Fitted() {
		fmt.Fprintf(s.err, "vlaunch calibrate: %s; nothing to write\n", unfittedWhy(rep))
		return findingsErr()
	}
	warnWorsened(s, rep)
	warnPublished(s, rep)
	if o.strict && rep.Worse() {
		fmt.Fprintln(s.err, "vlaunch calibrate: --strict: not written, the fit makes a figure worse")
		return findingsErr()
	}
	if o.strict && rep.Published.Worse() {
		fmt.Fprintln(s.err, "vlaunch calibrate: --strict: not written, the fit predicts published runs on the same GPU worse than the global constants")
		return findingsErr()
	}
	if o.outFile == "" {
		fmt.Fprintln(s.err, "(not written: give --out-file FILE to write the calibration file)")
		return nil
	}
	return writeCalibrationFile(s, rep, o, paths)
}

// warnWorsened names on stderr every figure the fit made worse, and the
// worst error when it grew (#27: a fit exited 0 with the worst error at
// 182%), whatever the report's format.
func warnWorsened(s *streams, rep *calibrate.Report) {
	if rep.WorstWorsened {
		fmt.Fprintf(s.err, "vlaunch calibrate: warning: the fit makes the worst error worse: %.1f%% before, %.1f%% after\n", rep.WorstBeforePct, rep.WorstAfterPct)
	}
	for _, x := range rep.Worsened {
		fmt.Fprintf(s.err, "vlaunch calibrate: warning: the fit makes %s worse: %s\n", x.Figure, x.Change())
	}
}

// warnPublished says on stderr, whatever the report's format, when the
// fitted constants predict the published runs of the same GPU worse than
// the global constants (issue #28: a cluster's fit may describe its run's
// noise), and when no published run could be compared (never a silent
// skip).
func warnPublished(s *streams, rep *calibrate.Report) {
	switch pc := rep.Published; {
	case pc == nil:
	case pc.Warning != "":
		fmt.Fprintf(s.err, "vlaunch calibrate: warning: %s\n", pc.Warning)
	case pc.None != "":
		fmt.Fprintf(s.err, "vlaunch calibrate: no published run to compare the fit with: %s\n", pc.None)
	}
}

// calibrateFormats are calibrate's report formats.
var calibrateFormats = []string{"text", "json", "markdown"}

func writeCalibrationReport(s *streams, rep *calibrate.Report, format string) error {
	if format == "json" {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	if format == "markdown" {
		rep.WriteMarkdown(s.out)
		return nil
	}
	rep.WriteText(s.out)
	return nil
}

// checkOutFile refuses, before any work, to replace an existing file
// without --force (an earlier calibration, or any other file) and to
// write over a directory.
func checkOutFile(path string, force bool) error {
	if path == "" {
		return nil
	}
	st, err := os.Stat(path)
	switch {
	case os.IsNotExist(err):
		return nil
	case err != nil:
		return usageErr("--out-file %s: %v", path, err)
	case !st.Mode().IsRegular():
		return usageErr("--out-file %s: %s, not a file", path, inputfile.Kind(st.Mode()))
	}
	if force {
		return nil
	}
	if _, err := calfile.Load(path); err != nil {
		return usageErr("--out-file %s exists and is not a calibration file (%v); use --force to replace it", path, err)
	}
	// An earlier calibration is output too: never replaced without --force,
	// as init, docs and generate never replace theirs.
	return usageErr("--out-file %s holds a calibration already; use --force to replace it, or another file", path)
}

// outFileDir makes the directory --out-file is written to, so a fit is
// not computed only to fail on a missing directory; it is made once the
// fit is known good (nothing is written before that).
func outFileDir(path string) error {
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	return os.MkdirAll(dir, 0o755)
}

// writeCalibrationFile writes the file with its provenance: when, which
// vlaunch, the spec and the results (with their digests).
func writeCalibrationFile(s *streams, rep *calibrate.Report, o *calibrateOptions, paths []string) error {
	prov := calfile.Provenance{Created: time.Now().UTC().Format(time.RFC3339), Vlaunch: version,
		Spec: o.spec, SpecSHA256: fileDigest(o.spec), Deployment: rep.Deployment}
	f := rep.File(prov)
	digests := map[string]string{}
	for _, p := range paths {
		digests[p] = fileDigest(p)
	}
	for i := range f.Provenance.Results {
		f.Provenance.Results[i].SHA256 = digests[f.Provenance.Results[i].File]
	}
	data, err := f.Marshal()
	if err != nil {
		return usageErr("calibration file: %v", err)
	}
	if err := outFileDir(o.outFile); err != nil {
		return usageErr("--out-file %s: %v", o.outFile, err)
	}
	if err := writeFileAtomic(o.outFile, data); err != nil {
		return usageErr("--out-file %s: %v", o.outFile, err)
	}
	w := s.out
	if o.output != "text" {
		w = s.err // stdout holds the JSON or Markdown report alone
	}
	fmt.Fprintf(w, "\nWrote %s: use it with --calibration %s, or calibration: %s in the spec.\n", o.outFile, o.outFile, o.outFile)
	return nil
}

// fileDigest is the SHA-256 of a file's content ("" when unreadable).
func fileDigest(path string) string {
	data, err := inputfile.Read(path, bench.MaxBytes)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// writeFileAtomic writes through a temporary file in the same directory,
// so an interrupted write never leaves half a calibration file.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".vlaunch-calibration-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// unfittedWhy says why a calibration fitted no constant: the results
// constrain none, or each constant they bear on has a reason not to move
// (the fitter's guards refuse a move against the fitted runs' pull or one
// that worsens a run; the report gives each reason). It said "constrain
// none" for both (calfit41).
func unfittedWhy(rep *calibrate.Report) string {
	if len(rep.Targets) > 0 && rep.FittedFigures() == 0 {
		return "no figure could be fitted: each is out of the model's reach with every constant in its range (the report above says why for each)"
	}
	refused := 0
	for _, c := range rep.Constants {
		if !c.Fitted && c.Why != "" {
			refused++
		}
	}
	if refused == 0 {
		return "the results constrain none of the constants"
	}
	return fmt.Sprintf("no constant moved: the report above says why for each of the %d the results bear on (a move against the fitted runs' pull, or one that would worsen a run, is refused)", refused)
}
