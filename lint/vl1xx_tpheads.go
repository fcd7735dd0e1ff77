package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// checkTPHeads reports a --tensor-parallel-size that cannot split the
// attention of a model lint recognises (VL139). The rule is
// catalog.Model.TPSplitProblem, the one place it lives (validate's SPEC123
// and check ask it too): the query heads must divide by TP, which
// ModelConfig.verify_with_parallel_config raises on at start-up ("Total
// number of attention heads (28) must be divisible by tensor parallel size
// (3)": v0.1.0 vllm/config.py:52-58, unchanged through v0.24.0
// vllm/config/model.py:1163-1170), and the KV heads must split or
// replicate evenly (the attention layers' assert). The layers need not
// divide by the pipeline size: vLLM refused that only up to v0.5.0
// (v0.1.0 vllm/config.py:60-66) and splits them unevenly from v0.5.1
// (vllm/distributed/utils.py get_pp_indices), before the first release
// vlaunch lints. A model known by --served-model-name only is a warning:
// the name is an alias its user chose (byServedName).
func checkTPHeads(p *pass) {
	for _, s := range p.Servers {
		tp := s.TP()
		if !tp.Known || tp.N < 2 {
			continue
		}
		m := familyModel(s)
		if m == nil {
			continue
		}
		problem := m.TPSplitProblem(tp.N)
		if problem == "" {
			continue
		}
		sev := diag.Error
		if byServedName(s) {
			sev = diag.Warning
		}
		at := tp.At
		if at.Line == 0 {
			at = s.Inv.Pos
		}
		p.ReportAtSeverity(s.Inv, at, sev, "use a tensor size vLLM accepts for this model ("+joinSizes(m.TPDivisors(64))+"), and pipeline or data parallelism for the rest",
			"--tensor-parallel-size %d cannot split the attention of %s (%d query heads, %d KV heads): vLLM refuses to start (%q)",
			tp.N, modelLabel(s, m), m.NumHeads, m.NumKVHeads, problem)
	}
}

// joinSizes lists sizes for a hint ("1, 2, 4, 7").
func joinSizes(ns []int) string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = strconv.Itoa(n)
	}
	return strings.Join(out, ", ")
}
