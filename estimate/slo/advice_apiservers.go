package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// CodeAPIServersThin: an explicit api_server_count below vLLM's default in
// front of several DP engines, with its simulated cost.
const CodeAPIServersThin = codes.EstAPIServersThin

// apiServersAdvice warns (EST203) when the spec's vllm.api_server_count
// puts fewer API-server processes in front of a replica's DP engines than
// vLLM starts for that command when the count is not given
// (vllm.Release.DefaultAPIServers, read on the node and flags the
// simulation's DP load balancer reads, DPLBDeployment: from 0.15.0,
// internal LB, the whole DP size — vllm/entrypoints/cli/serve.py at
// v0.15.0), or puts one in front of several (releases whose default is
// one: the same process then serves every engine too). Every request of
// every engine is parsed, templated, tokenized and streamed by those
// processes (qa43 F7: one API server for 16 engines). The warning says
// what the simulation of the workload gives with the spec's count and with
// vLLM's default — or one per engine where that default is one too —
// (FrontEndCost). Behind a router (external LB) every rank runs its own
// count, and a release without --api-server-count runs one whatever the
// spec says (the generator warns of that): neither is this rule's. It is
// check's advice, not a validate rule: it needs the simulation, and
// validate comes before the estimate.
func apiServersAdvice(in *input.Input) diag.Diagnostics {
	dep := in.Resolved()
	if dep == nil || dep.Spec == nil || dep.Engine.APIServersAsked <= 0 || dep.Spec.Parallelism.Auto || dep.ExternalLB() || dep.Layout.DP <= 1 {
		return nil
	}
	if _, ok := dep.Release.Flag("api-server-count"); !ok {
		return nil
	}
	asked, dp := dep.Engine.APIServersAsked, dep.Layout.DP
	def, why := dep.Release.DefaultAPIServers(DPLBDeployment(in, dp).Node)
	if asked >= dp || (asked >= def && asked > 1) {
		return nil
	}
	than, other := fmt.Sprintf("vLLM %s starts %d when it is not given (%s)", dep.Version.Value, def, why), def
	if def <= asked {
		// the release's default is one process too: the comparison is one
		// per engine
		than, other = fmt.Sprintf("vLLM %s's default is %d as well (%s); one per engine would be %d", dep.Version.Value, def, why, dp), dp
	}
	now, with, ok := FrontEndCost(in, other)
	if !ok || !now.Costs(with, apiServersMaterial) {
		return nil // the simulation cannot tell, or finds it costs the workload little
	}
	msg := fmt.Sprintf("api_server_count %d puts %s in front of the %d DP engines of %s: every request is parsed, templated, tokenized and streamed there; %s. %s",
		asked, plural(asked, "API-server process", "API-server processes"), dp, replicaText(dep.Layout.ReplicaCount()), than, costText(now, with, other))
	hint := fmt.Sprintf("drop api_server_count (vLLM's default, %d) or set it to %d", def, other)
	if other != def {
		hint = fmt.Sprintf("set api_server_count: %d", other)
	}
	return diag.Diagnostics{{Code: CodeAPIServersThin, Severity: diag.Warning, Path: "vllm.api_server_count", Message: msg, Hint: hint}}
}

// apiServersMaterial is the share of the workload's mean TTFT (or of its
// output throughput) the simulated difference must reach for EST203 to be
// said. A reporting threshold, not a model constant: one short run each is
// compared, and where the front end costs less than a tenth of what the
// workload sees (the examples' 4 API servers for 16 or 32 DP engines: 9.3
// against 8.7 ms of a 1.5 s mean TTFT) the count is left alone.
const apiServersMaterial = 0.10

// costText is what EST203 says the short simulation gives with the spec's
// API servers (now) and with other.
func costText(now, with FrontEnd, other int) string {
	if now.Overloaded {
		return fmt.Sprintf("A short simulation of the workload (one run each, alike but for the count) finds the arrivals above what the deployment sustains (%.0f output tokens/s), and with %d API servers not (%.0f tokens/s, mean TTFT %s)",
			now.OutputTokPerS, other, with.OutputTokPerS, textfmt.Seconds(with.MeanTTFTS))
	}
	cut := ""
	if now.FirstStretch || with.FirstStretch {
		cut = " (a first stretch: the runs stopped at their work ceiling)"
	}
	return fmt.Sprintf("A short simulation of the workload (one run each, alike but for the count%s) puts a request %s at the API servers, ingested and its first token streamed, of a mean TTFT of %s (%.0f output tokens/s), against %s of %s (%.0f tokens/s) with %d",
		cut, textfmt.Seconds(now.FrontendS), textfmt.Seconds(now.MeanTTFTS), now.OutputTokPerS, textfmt.Seconds(with.FrontendS), textfmt.Seconds(with.MeanTTFTS), with.OutputTokPerS, other)
}

// plural is "one ONE" or "n MANY".
func plural(n int, one, many string) string {
	if n == 1 {
		return "one " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// replicaText names the engine group the count fronts.
func replicaText(replicas int) string {
	if replicas > 1 {
		return "each replica"
	}
	return "the deployment"
}
