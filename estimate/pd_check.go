package estimate

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// PDReport is the `disaggregated` section of a check report (package pd).
type PDReport = pd.Report

// CheckPD is `vlaunch check` of a prefill/decode deployment (d.PD set):
// each pool's memory (its findings named after the pool), the composed
// performance and SLO verdicts (pd.Evaluate), and the same GPUs run
// colocated through the colocated path for comparison. A pool vLLM
// refuses to start (StartRefusals on its findings) leaves every verdict
// unpredicted (PoolsNotStarting). Input (but its GPUs
// and nodes, the whole deployment's) and Memory are the decode pool's, the
// engine resolve makes the deployment's.
func CheckPD(d *resolve.Deployment, opt PerfOptions) Report {
	if d == nil || d.PD == nil || len(d.PD.Roles) != 2 {
		return Report{Findings: diag.Diagnostics{}, Feasible: false}
	}
	pre, dec := input.FromResolved(d.PD.Roles[0].Deployment), input.FromResolved(d.PD.Roles[1].Deployment)
	r := Check(&dec)
	r.Input.GPUs += pre.Layout.TotalGPUs() // the whole deployment's GPUs and nodes; the rest is the decode engine's
	r.Input.Nodes = len(d.Nodes)
	rep, verdicts := EvaluatePD(&pre, &dec, d.PD.Connector.Name, d.PD.SameNode(), d.PD.Router.Kind, opt)
	pf := pd.PrefillMemoryFindings(&pre, &rep)
	pf, r.Findings = handoffRefusal(&rep, pf, r.Findings)
	// A pool vLLM refuses to start has no predicted figure to judge, as a
	// colocated deployment's (AddPerformance): the one decision, per pool.
	verdicts, _ = PoolsNotStarting(verdicts, PoolFindings{spec.RolePrefill, pf}, PoolFindings{spec.RoleDecode, r.Findings})
	decodeQueuesForKV(verdicts, &r.Memory.Capacity)
	r.Findings = append(poolFindings("prefill", pf), poolFindings("decode", r.Findings)...)
	r.Feasible = !r.Findings.HasErrors()
	rep.Colocated = colocated(d, opt)
	if !opt.NoAdvice {
		pdWouldPass(d, &rep, verdicts, opt)
	}
	r.Disaggregated, r.SLO = &rep, verdicts
	for _, v := range verdicts {
		if v.Verdict == "fail" {
			r.Feasible = false
		}
	}
	return r
}

// handoffRefusal adds EST110 when vLLM cannot make the hand-off at all
// (pd.Transfer.Refused: a state model whose pool engine turns the hybrid
// KV cache manager off under a connector, or a connector that does not
// move the state): to the pool the refusal names (the decode pool's
// otherwise, the one that needs the state), so that PoolsNotStarting says
// which pool stops. Before, the figures of a hand-off that cannot happen
// were priced and only a note said so.
func handoffRefusal(rep *pd.Report, pre, dec diag.Diagnostics) (diag.Diagnostics, diag.Diagnostics) {
	if len(rep.Scenarios) == 0 || rep.Scenarios[0].Transfer.Refused == "" {
		return pre, dec
	}
	why := rep.Scenarios[0].Transfer.Refused
	f := diag.Diagnostic{Severity: diag.Error, Code: codes.EstPDHandoffRefused, Path: "disaggregation.connector",
		Message: "no KV hand-off is possible: " + why,
		Hint:    "use a release that keeps the hybrid KV cache manager on under a connector (" + vllm.HybridKVFix + ") with a connector that moves the model's state, or pass --no-disable-hybrid-kv-cache-manager to both pools' engines (vllm.extra_args) where the release accepts it"}
	if strings.Contains(why, "the prefill pool") {
		return append(pre, f), dec
	}
	return pre, append(dec, f)
}

// poolFindings names the pool in each finding's message.
func poolFindings(pool string, ds diag.Diagnostics) diag.Diagnostics {
	for i := range ds {
		ds[i].Message = pool + " pool: " + ds[i].Message
	}
	return ds
}

// colocated checks the same nodes run colocated (resolve's Colocated:
// the decode pool's layout scaled to every GPU, with the spec's top-level
// engine settings and the overrides both pools share) through the
// colocated check, without advice.
func colocated(d *resolve.Deployment, opt PerfOptions) *pd.Colocated {
	c, err := d.Colocated()
	if err != nil {
		return &pd.Colocated{Error: err.Error()}
	}
	in := FromResolved(c)
	opt.NoAdvice = true
	r := Check(&in)
	r.AddPerformance(&in, opt)
	l := c.Layout
	out := &pd.Colocated{Layout: fmt.Sprintf("TP%d PP%d DP%d%s × %d on %d GPUs, the spec's top-level engine settings and those both pools share (%s)",
		l.TP, l.PP, l.DP, map[bool]string{true: " EP"}[l.EP], l.ReplicaCount(), l.TotalGPUs(), engineSettings(&in, d.ColocatedBackendNote())), SLO: r.SLO}
	if p := r.Performance; p != nil && len(p.Simulations) > 0 {
		s := p.Simulations[0].Result
		out.OutputTokPerS, out.TTFTP50S, out.TTFTP99S, out.TPOTMeanS, out.Unbounded = s.OutputTokPerS, s.TTFT.P50, s.TTFT.P99, s.TPOT.Mean, s.Overloaded
	} else {
		out.Error = "the colocated deployment holds no KV block"
	}
	return out
}

// EvaluatePD is the P/D model of a deployment whose pools are pre and dec,
// joined by the KV connector named connector (the registry's name or its
// short form): the connector's hand-off (pd.HandoffOf, priced by
// pd.UseConnectorSemantics; NixlConnector's is pd.Evaluate's) with the
// decode pool's environment (MoRIIO's read mode) and no
// kv_connector_extra_config (vlaunch writes none). check and plan both
// evaluate through it, so plan's figures for a P/D candidate are the ones
// check prints after --apply.
func EvaluatePD(pre, dec *input.Input, connector string, sameNode bool, router string, opt slo.Options) (pd.Report, []slo.Verdict) {
	h := pd.HandoffOf(connector, nil, dec)
	return pd.EvaluateCapped(pre, dec, sameNode, router, h, dec.Workload.ClientMaxConcurrency, opt) // 0: EvaluateConnector
}

// decodeQueuesForKV says, on each verdict the decode pool binds (a TTFT
// its admission dominates, a rate it caps), that the decode pool's KV
// cache does not hold its sessions at once (c, the decode pool's memory;
// its EST103 warning): the requests wait there for KV, the cause a
// colocated check names as its binding (kv_capacity, "The KV capacity
// binds the load"). The P/D verdict said "decode admission 3.312 s" with
// nothing to link it to the decode pool's EST103 (twelve sessions of 64
// per rank at once: eight TP 1 decode engines of Llama-3.3-70B FP8 at
// 512 sessions).
func decodeQueuesForKV(vs []slo.Verdict, c *memory.Capacity) {
	if c == nil || c.Fits || c.SeqsPerRank <= 0 {
		return
	}
	for i := range vs {
		v := &vs[i]
		if v.NotPredicted != "" || !strings.Contains(v.Binding, "decode admission") && v.Binding != pd.BindDecode {
			continue
		}
		if strings.Contains(v.Explanation, "the decode pool's KV cache binds") {
			// The P/D model named the queue already (pd's decode-KV-bound
			// loop, pdttft41): link it to the memory check's warning only.
			v.Explanation += fmt.Sprintf(" (EST103: its fullest rank holds %d of the %d sessions it gets at once at full length; a colocated check calls this binding kv_capacity)",
				c.MaxSeqsPerRank, c.SeqsPerRank)
			continue
		}
		v.Explanation += fmt.Sprintf("; the decode pool's KV cache holds %d of the %d sessions its fullest rank gets at once at full length (EST103): the rest wait for KV there, as a colocated deployment's do (its binding kv_capacity)",
			c.MaxSeqsPerRank, c.SeqsPerRank)
	}
}

// engineSettings names the settings the colocated comparison ran that
// its pools may set apart: the all-to-all backend (when the kernels run;
// note says where it comes from when not from the top level),
// max_num_seqs and max_num_batched_tokens in effect.
func engineSettings(in *input.Input, note string) string {
	var out []string
	switch {
	case note != "":
		out = append(out, note)
	case in.All2AllBackend != "" && in.Layout.EP && in.Layout.DP > 1:
		out = append(out, "all2all "+in.All2AllBackend)
	}
	out = append(out, fmt.Sprintf("max_num_seqs %d", in.MaxNumSeqs), fmt.Sprintf("max_num_batched_tokens %d", in.MaxNumBatchedTokens))
	return strings.Join(out, ", ")
}
