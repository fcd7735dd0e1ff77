package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/logs"
)

func init() { subcommands = append(subcommands, newLogsCmd) }

// logsOptions are the flags of `vlaunch logs`.
type logsOptions struct {
	output, specPath string
}

func newLogsCmd(s *streams) *cobra.Command {
	o := &logsOptions{}
	c := &cobra.Command{
		Use:   "logs FILE...",
		Short: "Explain vLLM start-up logs: figures per engine and rank, failures and what to do",
		Long: "Read vLLM logs of any release from 0.5 on (V0 and V1) as captured — terminal output, docker logs,\n" +
			"kubectl logs, journald, with timestamps, colours and process prefixes; gzip is read too (the first\n" +
			"256 MiB decompressed; decompress a longer one). Give one\n" +
			"file per node, or all nodes interleaved in one; servers interleaved in one capture (kubectl logs\n" +
			"--prefix, stern, compose) are told apart by pod or service. For every engine (DP rank) and rank\n" +
			"the report shows the release, model, arguments, the memory budget vLLM logged (weights,\n" +
			"activation peak, non-torch memory, CUDA graphs, KV memory and tokens, maximum concurrency, block\n" +
			"size; from 0.21 the utilization CUDA graph memory profiling is equivalent to), the resolved\n" +
			"architecture and model runner, backends and addresses; it recognises failures (each with a code, a kind and a fix) and a start-up that stops\n" +
			"(the last rank waits for another one); a log that merely ends, as an excerpt does, is info.\n" +
			"With --spec it puts the logged figures next to vlaunch's prediction for the spec, term by term,\n" +
			"and explains each difference above the calibration targets (docs/calibration-memory.md). For a\n" +
			"prefill/decode spec each engine is compared with its pool's prediction: the pool of its logged\n" +
			"kv_role (kv_producer, kv_consumer), else the one pool its file name, pod or host names (the pool's\n" +
			"name, a node's name or address); an engine whose pool cannot be told is compared with neither.\n" +
			"Files that each hold an engine core of the same DP rank are separate servers (one file per pool).\n" +
			"Exit 0: no failure; 1: a failure or a start-up that stopped; 2: unusable input.",
		Example: "  vlaunch logs node0.log node1.log\n  kubectl logs pod/vllm-0 --timestamps > n0.log; vlaunch logs -o json n0.log\n" +
			"  vlaunch logs --spec deployment.yaml node0.log",
		Args: cobra.MinimumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runLogs(s, o, args) },
	}
	f := c.Flags()
	addOutputFlag(f, &o.output, logsFormats, "")
	f.StringVar(&o.specPath, "spec", "", "deployment spec whose prediction the logged figures are compared with")
	return c
}

func runLogs(s *streams, o *logsOptions, files []string) error {
	if err := checkFormat(o.output, logsFormats, ""); err != nil {
		return err
	}
	rep, err := logs.AnalyzeFiles(files)
	if err != nil {
		// Unusable, missing or unreadable input: exit 2.
		return usageErr("%v", err)
	}
	if none := rep.Unrecognised(); len(none) == len(rep.Files) {
		return usageErr("%s: no vLLM log line in %s (vLLM's lines look like `INFO 04-22 00:03:35 [gpu_worker.py:436] …`, with or without a process prefix); give the output of vllm serve, docker logs or kubectl logs of a vLLM container",
			strings.Join(none, ", "), pluralFiles(len(none)))
	}
	if o.specPath != "" {
		if err := compareWithSpec(s, rep, o.specPath, o.output); err != nil {
			return err
		}
	}
	if o.output == "json" {
		if err := writeJSON(s.out, rep); err != nil {
			return err
		}
	} else if err := logs.WriteText(s.out, rep); err != nil {
		return err
	}
	for _, f := range rep.Failures {
		if f.Severity == "error" {
			return findingsErr()
		}
	}
	return nil
}

// pluralFiles is "it" or "any of them", for the message above.
func pluralFiles(n int) string {
	if n == 1 {
		return "it"
	}
	return "any of them"
}

// logsFormats are logs' report formats.
var logsFormats = []string{"text", "json"}
