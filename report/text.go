package report

import (
	"fmt"
	"io"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// WriteText writes the human-readable report: the layout search (for
// `parallelism: auto`), the memory budget, KV cache and capacity, the weights
// formats, the performance section and SLO verdicts, the notes, the findings
// and the verdict.
func WriteText(w io.Writer, r *estimate.Report) {
	if r.Disaggregated != nil {
		writePDText(w, r)
		return
	}
	in, m := r.Input, r.Memory
	writeSearchText(w, r.LayoutSearch)
	fmt.Fprintf(w, "vlaunch check: %s\n", layoutLine(in))
	writeSettingsText(w, in)
	writeBudgetText(w, r)
	fmt.Fprintf(w, "\nKV cache (per GPU%s)\n", stageSuffix(r))
	fmt.Fprintf(w, "  bytes per token      %s   %s\n", textfmt.Thousands(m.KVBytesPerToken), m.KV.Formula)
	fmt.Fprintf(w, "  blocks × block size  %s × %d = %s tokens per rank; %s over %d DP rank%s\n",
		textfmt.Thousands(m.NumBlocks), m.BlockSize, textfmt.Thousands(m.KVTokensPerRank), textfmt.Thousands(m.KVTokensTotal), in.DP, plural(in.DP))
	if m.KVTokensLogged > 0 && m.KVTokensLogged != m.KVTokensPerRank {
		// A packed layout's pool is not blocks of block_size tokens of
		// every layer: the line above is its bytes in those units, and vLLM
		// prints another count.
		fmt.Fprintf(w, "  GPU KV cache size    %s tokens per rank as vLLM logs it (%s)\n",
			textfmt.Thousands(m.KVTokensLogged), loggedTokensWhy(m))
	}
	fmt.Fprintf(w, "  max concurrency at max_model_len %d: %.2f sequences per rank\n", in.MaxModelLen, m.MaxConcurrencyAtMaxModelLen)
	writeCapacityText(w, r)
	writeAlternativesText(w, r)
	writePerfText(w, r)
	fmt.Fprintf(w, "\nNotes\n")
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  %s:\n%s\n", n.Topic, wrap(n.Text, 96, "    "))
	}
	writeFindingsText(w, r)
}

// layoutLine names the model, the hardware and the layout (the text
// report's first line, the HTML report's heading).
func layoutLine(in estimate.InputSummary) string {
	replicas := ""
	if in.Replicas > 1 {
		replicas = fmt.Sprintf(" × %d independent replicas", in.Replicas)
	}
	return fmt.Sprintf("%s on %d × %s (%d node%s), TP %d · PP %d · DP %d · EP %s%s, vLLM %s",
		in.Model, in.GPUs, in.GPU, in.Nodes, plural(in.Nodes), in.TP, in.PP, in.DP, textfmt.OnOff(in.EP), replicas, in.VLLMVersion)
}

// settingsLine lists the engine settings every figure depends on.
func settingsLine(in estimate.InputSummary) string {
	line := fmt.Sprintf("weights %s (checkpoint %s) · KV cache %s · gpu_memory_utilization %.2f · max_model_len %d · max_num_seqs %d · max_num_batched_tokens %d · block %d",
		in.WeightsDType, in.CheckpointDType, in.KVCacheDType, in.Utilization, in.MaxModelLen, in.MaxNumSeqs, in.MaxNumBatchedTokens, in.BlockSize)
	if in.Speculative != nil {
		line += " · " + in.Speculative.Text()
	}
	return line
}

func writeBudgetText(w io.Writer, r *estimate.Report) {
	p, m := r.Memory.PerGPU, r.Memory
	fmt.Fprintf(w, "\nPer-GPU memory (GiB%s)\n", stageSuffix(r))
	row := func(label string, v float64, detail string) { fmt.Fprintf(w, "  %-34s %8.2f  %s\n", label, v, detail) }
	row("device total (CUDA runtime)", p.DeviceGiB, "")
	row(fmt.Sprintf("usable = %.2f × device", p.Utilization), p.UsableGiB, "")
	row("− weights", p.WeightsGiB, fmt.Sprintf("%.2fB parameters", m.ParamsPerGPU/1e9))
	for _, t := range m.Weights {
		fmt.Fprintf(w, "      %-22s %7.3fB %-5s %7.2f  %s\n", t.Component, t.ParamsPerGPU/1e9, t.DType, t.GiB, t.Placement)
	}
	row("− activation peak", p.ActivationGiB, m.ActivationRule())
	for _, t := range m.Activation {
		fmt.Fprintf(w, "      %-28s %10.2f  %s\n", truncate(t.Name, 28), t.GiB, t.Formula)
	}
	row("− other (outside PyTorch)", p.OtherGiB, "")
	for _, t := range m.NonTorch {
		fmt.Fprintf(w, "      %-28s %10.2f  %s\n", truncate(t.Name, 28), t.GiB, t.Formula)
	}
	row(kvRow(p))
	if p.CUDAGraphGiB > 0 {
		fmt.Fprintf(w, "  outside the budget: CUDA graphs ≈%.2f GiB, headroom (1 − utilization) × device = %.2f GiB\n", p.CUDAGraphGiB, p.HeadroomGiB)
	}
}

// capacityLoad names what the capacity section sizes: the spec's sessions,
// or an open loop's requests in flight (memory.Capacity.InFlight).
func capacityLoad(c memory.Capacity) string {
	if c.InFlight {
		return fmt.Sprintf("%d requests in flight (the simulation's mean, Little's law)", c.Concurrency)
	}
	return fmt.Sprintf("%d sessions", c.Concurrency)
}

func writeCapacityText(w io.Writer, r *estimate.Report) {
	c := r.Memory.Capacity
	fmt.Fprintf(w, "\nCapacity\n")
	fmt.Fprintf(w, "  %s × %d tokens (%s) over %d DP rank%s%s → %d per rank (ceil, the fullest rank)\n",
		capacityLoad(c), c.SessionTokens, c.SessionBasis, c.DPRanks, plural(c.DPRanks), replicaRanks(c.Replicas, c.DPRanks), c.SeqsPerRank)
	fmt.Fprintf(w, "  needed per GPU %.2f GiB (%.1f GB); total %.1f GB; available %.2f GiB; margin %+.2f GiB\n",
		c.NeededGiBPerRank, c.NeededGiBPerRank*estimate.GiB/1e9, c.NeededGBTotal, c.AvailableGiB, c.MarginGiB)
	fmt.Fprintf(w, "  max sessions of %d tokens: %d per rank, %d in total\n", c.SessionTokens, c.MaxSeqsPerRank, c.MaxConcurrency)
	if !c.OneSequenceFits {
		fmt.Fprintf(w, "  one %d-token sequence does not fit: largest max_model_len that fits is %d\n", c.MaxModelLen, c.LargestMaxModelLen)
	}
	fmt.Fprintf(w, "  verdict: %s\n", capacityVerdict(c))
}

func writeAlternativesText(w io.Writer, r *estimate.Report) {
	if len(r.Alternatives) == 0 {
		return
	}
	// The count is the capacity section's "max sessions of N tokens" per
	// rank (memory.Capacity.MaxSeqsPerRank: sessions of session_tokens), not
	// sequences of max_model_len: it was labelled "max-length seqs/rank",
	// 463 beside "max concurrency at max_model_len 32768: 70.91".
	fmt.Fprintf(w, "\nWeights formats (sessions of %d tokens)\n", r.Memory.Capacity.SessionTokens)
	for _, a := range r.Alternatives {
		fmt.Fprintf(w, "  %-5s %-26s weights %6.2f GiB  KV %s  %s tokens/rank  %d sessions/rank  %s\n",
			a.WeightsDType, "("+altSource(a)+")", a.WeightsGiB, kvGiBText(a.KVCacheGiB, "%6.2f GiB"), textfmt.Thousands(a.KVTokensPerRank), a.MaxSeqsPerRank, fitWord(a.Fits))
	}
}

// writeFindingsText prints the findings with diag's text printer, the one
// every command uses, then the overall verdict.
func writeFindingsText(w io.Writer, r *estimate.Report) {
	fmt.Fprintf(w, "\nFindings\n")
	if len(r.Findings) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	_ = diag.Print(w, diag.FormatText, r.Findings, nil, nil)
	fmt.Fprintf(w, "\nfeasible: %s\n", feasibleText(r))
}

// replicaRanks says how independent replicas make up the ranks that share
// the sessions ("" for one replica).
func replicaRanks(replicas, ranks int) string {
	if replicas <= 1 {
		return ""
	}
	return fmt.Sprintf(" (%d replicas × DP %d)", replicas, ranks/replicas)
}

// loggedTokensWhy says why vLLM's "GPU KV cache size" differs from blocks ×
// block size: decode context parallelism (the DCP group's GPUs each hold
// every DCP-th token, and the log multiplies by the group) or a packed
// layout's groups and pages.
func loggedTokensWhy(m memory.Report) string {
	if m.KV.DCP > 1 && m.KV.Packing == "" {
		return fmt.Sprintf("the tokens per rank above × decode_context_parallel_size %d: each GPU of a DCP group holds every %dth token of a sequence", m.KV.DCP, m.KV.DCP)
	}
	return "its layer groups and pages; the line above counts the pool as if every layer were full attention"
}
