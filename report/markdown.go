package report

import (
	"fmt"
	"io"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/internal/textfmt"
)

// WriteMarkdown writes the report as GitHub-flavoured markdown, with the
// same content as WriteText laid out as tables.
func WriteMarkdown(w io.Writer, r *estimate.Report) {
	if r.Disaggregated != nil {
		writePDMarkdown(w, r)
		return
	}
	in, m, p := r.Input, r.Memory, r.Memory.PerGPU
	fmt.Fprintf(w, "# vlaunch check: %s on %d × %s\n\n", in.Model, in.GPUs, in.GPU)
	writeSearchMarkdown(w, r.LayoutSearch)
	fmt.Fprintf(w, "TP %d · PP %d · DP %d · EP %s · %d node%s · vLLM %s\n\n",
		in.TP, in.PP, in.DP, textfmt.OnOff(in.EP), in.Nodes, plural(in.Nodes), in.VLLMVersion)
	writeSettingsMarkdown(w, in)
	fmt.Fprintf(w, "\n**Feasible: %s**\n\n## Per-GPU memory%s\n\n| term | GiB | derivation |\n|---|---:|---|\n", mdEscape(feasibleText(r)), stageSuffix(r))
	mdRow(w, "device total (CUDA runtime)", p.DeviceGiB, "")
	mdRow(w, fmt.Sprintf("usable = %.2f × device", p.Utilization), p.UsableGiB, "")
	mdRow(w, "− weights", p.WeightsGiB, fmt.Sprintf("%.2fB parameters", m.ParamsPerGPU/1e9))
	for _, t := range m.Weights {
		mdRow(w, "&nbsp;&nbsp;"+t.Component, t.GiB, fmt.Sprintf("%.3fB × %.4g B (%s): %s", t.ParamsPerGPU/1e9, t.BytesPerParam, t.DType, t.Placement))
	}
	mdRow(w, "− activation peak", p.ActivationGiB, r.Memory.ActivationRule())
	for _, t := range m.Activation {
		mdRow(w, "&nbsp;&nbsp;"+t.Name, t.GiB, t.Formula)
	}
	mdRow(w, "− other (outside PyTorch)", p.OtherGiB, "")
	for _, t := range m.NonTorch {
		mdRow(w, "&nbsp;&nbsp;"+t.Name, t.GiB, t.Formula)
	}
	label, gib, detail := kvRow(p)
	mdRow(w, "**"+label+"**", gib, detail)
	if p.CUDAGraphGiB > 0 {
		fmt.Fprintf(w, "\nOutside the budget: CUDA graphs ≈%.2f GiB; headroom (1 − utilization) × device = %.2f GiB.\n", p.CUDAGraphGiB, p.HeadroomGiB)
	}
	writeCapacityMarkdown(w, r)
	writePerfMarkdown(w, r)
	fmt.Fprintf(w, "\n## Notes\n\n")
	for _, n := range r.Notes {
		fmt.Fprintf(w, "- **%s.** %s\n", n.Topic, n.Text)
	}
	writeFindingsMarkdown(w, r.Findings)
}

// writeFindingsMarkdown puts diag's text rendering of the findings in a
// fenced block, so markdown shows exactly what the terminal shows.
func writeFindingsMarkdown(w io.Writer, ds diag.Diagnostics) {
	fmt.Fprintf(w, "\n## Findings\n\n")
	if len(ds) == 0 {
		fmt.Fprintf(w, "None.\n")
		return
	}
	fmt.Fprintf(w, "```text\n")
	_ = diag.Print(w, diag.FormatText, ds, nil, nil)
	fmt.Fprintf(w, "```\n")
}

func writeCapacityMarkdown(w io.Writer, r *estimate.Report) {
	m, c := r.Memory, r.Memory.Capacity
	fmt.Fprintf(w, "\n## KV cache and capacity\n\n| quantity | value |\n|---|---|\n")
	kv := [][2]string{
		{"KV bytes per token per GPU", textfmt.Thousands(m.KVBytesPerToken) + " (" + m.KV.Formula + ")"},
		{"KV tokens per rank", fmt.Sprintf("%s (%s blocks × %d)", textfmt.Thousands(m.KVTokensPerRank), textfmt.Thousands(m.NumBlocks), m.BlockSize)},
		{"KV tokens, all DP ranks", textfmt.Thousands(m.KVTokensTotal)},
		{"max concurrency at max_model_len, per rank", fmt.Sprintf("%.2f", m.MaxConcurrencyAtMaxModelLen)},
		{"sequences on the fullest rank", fmt.Sprintf("ceil(%d / %d%s) = %d", c.Concurrency, c.DPRanks, replicaRanks(c.Replicas, c.DPRanks), c.SeqsPerRank)},
		{"needed per GPU", fmt.Sprintf("%.2f GiB (%.1f GB); all sessions %.1f GB", c.NeededGiBPerRank, c.NeededGiBPerRank*estimate.GiB/1e9, c.NeededGBTotal)},
		{"available per GPU / margin", fmt.Sprintf("%.2f GiB / %+.2f GiB", c.AvailableGiB, c.MarginGiB)},
		{fmt.Sprintf("max sessions of %d tokens (%s)", c.SessionTokens, c.SessionBasis), fmt.Sprintf("%d per rank, %d in total", c.MaxSeqsPerRank, c.MaxConcurrency)},
		{"verdict", capacityVerdict(c)},
	}
	if !c.OneSequenceFits {
		kv = append(kv, [2]string{"largest max_model_len that fits", fmt.Sprint(c.LargestMaxModelLen)})
	}
	for _, row := range kv {
		fmt.Fprintf(w, "| %s | %s |\n", row[0], mdEscape(row[1]))
	}
	if len(r.Alternatives) == 0 {
		return
	}
	fmt.Fprintf(w, "\n### Weights formats\n\n| weights | source | weights GiB | KV GiB | KV tokens/rank | sessions of %d tokens/rank | verdict |\n|---|---|---:|---:|---:|---:|---|\n",
		r.Memory.Capacity.SessionTokens)
	for _, a := range r.Alternatives {
		fmt.Fprintf(w, "| %s | %s | %.2f | %s | %s | %d | %s |\n", a.WeightsDType, altSource(a),
			a.WeightsGiB, kvGiBText(a.KVCacheGiB, "%.2f"), textfmt.Thousands(a.KVTokensPerRank), a.MaxSeqsPerRank, fitWord(a.Fits))
	}
}

func mdRow(w io.Writer, term string, gib float64, how string) {
	fmt.Fprintf(w, "| %s | %.2f | %s |\n", term, gib, mdEscape(how))
}
