package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkDCP reports a --decode-context-parallel-size vLLM refuses at start-up
// (VL134), by the facts validate's SPEC135 applies to a spec
// (vllm/facts_dcp.go; lint only applies them): DCP splits each tensor-
// parallel group and adds no GPUs, so the tensor size must be a multiple of
// it (vllm.DCPFits); a model without MLA runs it only from the release that
// brought GQA support (vllm.Release.DCP().GQA), and only with more TP ranks
// than KV heads and dcp <= TP / KV heads (vllm.DCPLimit); and a forced
// attention backend must accept DCP in the release (vllm.Release.DCPBackend,
// checkDCPBackend). A release without
// the flag is VL102's finding (the rule needs the flag, so it holds from
// the flag's first release; an unpinned first release is VL102's info).
func checkDCP(p *pass) {
	for _, s := range p.Servers {
		dcp := s.Int(vllm.DCPFlag, 1)
		if !dcp.Set || !dcp.Known || dcp.N <= 1 || s.Rel.DCP().Flag == vllm.Absent {
			continue
		}
		tp := s.TP()
		if !tp.Known {
			continue
		}
		if !vllm.DCPFits(tp.N, dcp.N, 0, true) { // MLA's rule is TP's divisibility alone
			p.ReportAt(s.Inv, dcp.At, "use a size that divides --tensor-parallel-size ("+joinDivisors(tp.N)+")",
				"--decode-context-parallel-size %d does not divide --tensor-parallel-size %d: DCP splits each tensor-parallel group and adds no GPUs, so vLLM needs tp %% dcp == 0", dcp.N, tp.N)
			continue
		}
		if m := familyModel(s); m != nil && !m.IsMLA() && checkDCPGQA(p, s, dcp, tp.N, m) {
			continue
		}
		checkDCPBackend(p, s, dcp)
	}
}

// checkDCPBackend applies vllm.Release.DCPBackend to the attention backend
// the command forces (--attention-backend, or VLLM_ATTENTION_BACKEND where
// the release reads it): vLLM asserts at start-up that every attention
// implementation returns the softmax LSE for decode, so a backend that does
// not in the release is an error (a warning when the release is not
// stated), one whose release is not pinned an info. lint does not know the
// GPU, so a default backend is validate's (SPEC135).
func checkDCPBackend(p *pass, s *server, dcp intArg) {
	backend, forced := attentionBackend(s)
	if !forced {
		return
	}
	pr, f, _ := s.Rel.DCPBackend(backend)
	switch pr {
	case vllm.Absent:
		hint := "force an attention backend that returns it"
		if ok := s.Rel.DCPBackendsAccepted(true); len(ok) > 0 {
			hint += " (MLA in vLLM " + s.Rel.Version.String() + ": " + strings.Join(ok, ", ") + ")"
		}
		if ok := s.Rel.DCPBackendsAccepted(false); len(ok) > 0 {
			hint += " (GQA: " + strings.Join(ok, ", ") + ")"
		}
		p.ReportVersioned(s, dcp.At, hint+", or drop --decode-context-parallel-size",
			"vLLM %s refuses --decode-context-parallel-size %d on the %s attention backend: it asserts at start-up that every attention implementation returns the softmax LSE for decode, and %s does not in this release (%s)",
			s.Rel, dcp.N, backend, backend, f.Cite)
	case vllm.Maybe:
		p.ReportAtSeverity(s.Inv, dcp.At, diag.Info, "",
			"whether vLLM %s runs --decode-context-parallel-size %d on the %s attention backend is not pinned: vLLM refuses at start-up a backend whose implementation returns no softmax LSE for decode (%s)",
			s.Rel, dcp.N, backend, f.Cite)
	}
}

// checkDCPGQA applies the GQA side of the facts to a model lint recognises:
// the release must run DCP without MLA, and the KV heads bound dcp. A model
// known only by its served name makes it a warning. It reports whether it
// found anything.
func checkDCPGQA(p *pass, s *server, dcp intArg, tp int, m *catalog.Model) bool {
	sev := diag.Error
	if byServedName(s) {
		sev = diag.Warning
	}
	if s.Rel.DCP().GQA == vllm.Absent {
		p.ReportVersioned(s, dcp.At, "use vLLM "+vllm.DCPGQASince().String()+" or later (FlashAttention), or drop --decode-context-parallel-size",
			"vLLM %s runs decode context parallelism only for MLA models; %s has %d KV heads and no MLA (GQA from %s, PR #24864)", s.Rel, modelLabel(s, m), m.NumKVHeads, vllm.DCPGQASince())
		if sev == diag.Warning {
			(*p.out)[len(*p.out)-1].Severity = sev
		}
		return true
	}
	if vllm.DCPFits(tp, dcp.N, m.NumKVHeads, false) {
		return false
	}
	const hint = "DCP only removes the KV heads' replication: raise --tensor-parallel-size above the KV heads first, then dcp up to TP / KV heads"
	if limit := vllm.DCPLimit(tp, m.NumKVHeads, false); limit > 0 {
		p.ReportAtSeverity(s.Inv, dcp.At, sev, hint, "--decode-context-parallel-size %d at --tensor-parallel-size %d with %s's %d KV heads: vLLM needs dcp <= TP / KV heads (%d)",
			dcp.N, tp, modelLabel(s, m), m.NumKVHeads, limit)
		return true
	}
	p.ReportAtSeverity(s.Inv, dcp.At, sev, hint, "--decode-context-parallel-size %d at --tensor-parallel-size %d with %s's %d KV heads: vLLM needs TP greater than the KV heads for decode context parallelism on a model without MLA",
		dcp.N, tp, modelLabel(s, m), m.NumKVHeads)
	return true
}

// joinDivisors lists n's divisors above 1 for a hint ("2, 4, 8").
func joinDivisors(n int) string {
	var out []string
	for d := 2; d <= n; d++ {
		if n%d == 0 {
			out = append(out, strconv.Itoa(d))
		}
	}
	if len(out) == 0 {
		return "none above 1: raise the tensor size first"
	}
	return strings.Join(out, ", ")
}
