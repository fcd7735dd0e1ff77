package published

import "fmt"

// any reports whether the row publishes at least one figure.
func (f Figures) any() bool {
	for _, n := range f.nums() {
		if n.Known {
			return true
		}
	}
	for _, s := range []Stat{f.OutputTokPerSPerUser, f.TTFTMs, f.TPOTMs, f.ITLMs, f.E2ES} {
		if s.Any() {
			return true
		}
	}
	return false
}

func (f Figures) nums() []Num {
	return []Num{f.OutputTokPerS, f.InputTokPerS, f.TotalTokPerS, f.OutputTokPerSPerGPU, f.InputTokPerSPerGPU,
		f.TotalTokPerSPerGPU, f.OutputTokPerSPerNode, f.InputTokPerSPerNode, f.OutputTokPerSPerRank,
		f.PeakOutputTokPerS, f.RequestPerS, f.DurationS}
}

// needs lists what a targetable row lacks for its figures to be reproduced
// as a deployment spec: the hardware and layout, the request shape, and the
// parameters of its load kind.
func needs(r Row) []string {
	var p []string
	p = append(p, layoutNeeds(r)...)
	p = append(p, loadNeeds(r)...)
	f := r.Figures
	if (f.OutputTokPerSPerNode.Known || f.InputTokPerSPerNode.Known) && !r.Hardware.Nodes.Positive() {
		p = append(p, "per-node figures need hardware.nodes")
	}
	if r.Speculative != nil && !r.Speculative.NumSpeculativeTokens.Positive() {
		p = append(p, "speculative decoding without speculative.num_speculative_tokens (mark the row incomplete)")
	}
	return p
}

func layoutNeeds(r Row) []string {
	h, l := r.Hardware, r.Layout
	if h.GPU == Unknown {
		return []string{"hardware.gpu is unknown (mark the row incomplete)"}
	}
	for name, n := range map[string]Num{"hardware.gpus": h.GPUs, "hardware.nodes": h.Nodes, "hardware.gpus_per_node": h.GPUsPerNode,
		"layout.tp": l.TP, "layout.pp": l.PP, "layout.dp": l.DP, "layout.ep": l.EP} {
		if !n.Positive() {
			return []string{name + " must be a known positive number (or mark the row incomplete)"}
		}
	}
	var p []string
	if world := l.TP.V * l.PP.V * l.DP.V; world != h.GPUs.V {
		p = append(p, fmt.Sprintf("tp x pp x dp = %g but hardware.gpus = %s", world, h.GPUs))
	}
	if h.Nodes.V*h.GPUsPerNode.V != h.GPUs.V {
		p = append(p, fmt.Sprintf("nodes x gpus_per_node = %g but hardware.gpus = %s", h.Nodes.V*h.GPUsPerNode.V, h.GPUs))
	}
	if l.EP.V != 1 && l.EP.V != l.TP.V*l.DP.V {
		p = append(p, fmt.Sprintf("layout.ep %s is neither 1 nor tp x dp = %g", l.EP, l.TP.V*l.DP.V))
	}
	return p
}

func loadNeeds(r Row) []string {
	w, l := r.Workload, r.Load
	in := w.InputTokens.Positive() || w.InputTokensMean.Positive()
	out := w.OutputTokens.Positive() || w.OutputTokensMean.Positive()
	var p []string
	need := func(ok bool, what string) {
		if !ok {
			p = append(p, fmt.Sprintf("load %s needs %s", l.Kind, what))
		}
	}
	switch l.Kind {
	case LoadClosedLoop:
		need(l.Concurrency.Positive(), "load.concurrency")
		need(in && out, "input and output lengths")
	case LoadBurst, LoadOfflineBatch:
		need(l.BurstRequests.Positive(), "load.burst_requests")
		need(in && out, "input and output lengths")
	case LoadPoisson:
		need(l.RequestRatePerS.Positive() && l.NumPrompts.Positive(), "load.request_rate_per_s and load.num_prompts")
		need(in && out, "input and output lengths")
	case LoadSteadyDecode:
		need(l.BatchPerGPU.Positive() || l.ConcurrencyPerRank.Positive(), "load.batch_per_gpu")
		need(w.ContextTokens.Positive() || w.InputTokens.Positive(), "workload.context_tokens or workload.input_tokens")
	case LoadSteadyPrefill:
		need(w.InputTokens.Positive(), "workload.input_tokens")
	case LoadProduction:
		need(w.ContextTokens.Positive(), "workload.context_tokens")
		need(l.BatchPerGPU.Positive() || r.Figures.OutputTokPerSPerUser.Any(), "load.batch_per_gpu or figures.output_tok_per_s_per_user")
	}
	return p
}
