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
// than KV heads and dcp <= TP / KV heads (vllm.DCPLimit). A release without
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
		if m := familyModel(s); m != nil && !m.IsMLA() {
			checkDCPGQA(p, s, dcp, tp.N, m)
		}
	}
}

// checkDCPGQA applies the GQA side of the facts to a model lint recognises:
// the release must run DCP without MLA, and the KV heads bound dcp. A model
// known only by its served name makes it a warning.
func checkDCPGQA(p *pass, s *server, dcp intArg, tp int, m *catalog.Model) {
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
		return
	}
	if vllm.DCPFits(tp, dcp.N, m.NumKVHeads, false) {
		return
	}
	const hint = "DCP only removes the KV heads' replication: raise --tensor-parallel-size above the KV heads first, then dcp up to TP / KV heads"
	if limit := vllm.DCPLimit(tp, m.NumKVHeads, false); limit > 0 {
		p.ReportAtSeverity(s.Inv, dcp.At, sev, hint, "--decode-context-parallel-size %d at --tensor-parallel-size %d with %s's %d KV heads: vLLM needs dcp <= TP / KV heads (%d)",
			dcp.N, tp, modelLabel(s, m), m.NumKVHeads, limit)
		return
	}
	p.ReportAtSeverity(s.Inv, dcp.At, sev, hint, "--decode-context-parallel-size %d at --tensor-parallel-size %d with %s's %d KV heads: vLLM needs TP greater than the KV heads for decode context parallelism on a model without MLA",
		dcp.N, tp, modelLabel(s, m), m.NumKVHeads)
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
