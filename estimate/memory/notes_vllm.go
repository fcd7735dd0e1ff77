package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// vllmRulesNote states the vLLM rules an expert-parallel plan depends on,
// for the release in use (reference scenario point 10): EP size = TP × DP
// with TP > 1 allowed, when the all-to-all kernels run, and how this release
// selects the backend. It applies to MoE models with expert parallelism only.
func vllmRulesNote(in *input.Input) (Note, bool) {
	l := in.Layout
	if !in.Model.IsMoE() || !l.EP {
		return Note{}, false
	}
	rel, _, err := vllm.ResolveString(in.VLLMVersion)
	if err != nil {
		return Note{}, false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "the EP group is TP × DP = %d × %d = %d ranks; vLLM has no rule fixing TP to 1 under expert parallelism "+
		"(TP > 1 with EP is allowed, but an MLA model then replicates its latent KV cache on every TP rank). ", l.TP, l.DP, l.EPSize())
	if l.DP <= 1 {
		b.WriteString("The all-to-all kernels only run with DP > 1, so here MoE layers use all-reduce and no backend applies.")
		return Note{Topic: "vLLM rules", Text: b.String()}, true
	}
	fmt.Fprintf(&b, "vLLM %s selects the all-to-all backend with %s", rel.Version, rel.All2AllVia())
	if rel.All2AllVia() == vllm.ViaEnv {
		b.WriteString(" (--all2all-backend arrived in 0.11.1 and the variable was later removed)")
	}
	live, gone := splitBackends(rel)
	fmt.Fprintf(&b, "; backends it runs: %s.", strings.Join(live, ", "))
	if len(gone) > 0 {
		fmt.Fprintf(&b, " It still accepts %s but has removed them and falls back to %s.", strings.Join(gone, " and "), vllm.BackendAllgatherReducescatter)
	} else if _, ok := rel.All2AllBackend(vllm.BackendPPLX); ok {
		b.WriteString(" " + vllm.BackendPPLX + " exists in this release but is meant for a single node.")
	}
	return Note{Topic: "vLLM rules", Text: b.String()}, true
}

// splitBackends separates the backends a release runs from the names it
// only accepts to fall back (pplx and naive after their removal).
func splitBackends(rel vllm.Release) (live, gone []string) {
	for _, name := range rel.All2AllBackends() {
		if b, ok := rel.All2AllBackend(name); ok && b.FallsBack(rel) {
			gone = append(gone, name)
			continue
		}
		live = append(live, name)
	}
	return live, gone
}
