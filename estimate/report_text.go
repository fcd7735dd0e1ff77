package estimate

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
)

// SectionRenderer lets another part of the report (the performance half,
// in its own files) add its sections to the text and markdown output: it
// registers one in an init function. Each func may be nil.
type SectionRenderer struct {
	Text     func(w io.Writer, r *Report)
	Markdown func(w io.Writer, r *Report)
}

// reportSections are rendered, in order, after the memory sections and
// before the notes and findings.
var reportSections []SectionRenderer

// RegisterSection adds a section renderer (call from init).
func RegisterSection(s SectionRenderer) { reportSections = append(reportSections, s) }

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	if r.Findings == nil {
		r.Findings = diag.Diagnostics{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteText writes the human-readable report.
func (r *Report) WriteText(w io.Writer) {
	in, m := r.Input, r.Memory
	r.writeSearchText(w)
	fmt.Fprintf(w, "vlaunch check: %s on %d × %s (%d node%s), TP %d · PP %d · DP %d · EP %s, vLLM %s\n",
		in.Model, in.GPUs, in.GPU, in.Nodes, plural(in.Nodes), in.TP, in.PP, in.DP, onOff(in.EP), in.VLLMVersion)
	fmt.Fprintf(w, "weights %s (checkpoint %s) · KV cache %s · gpu_memory_utilization %.2f · max_model_len %d · max_num_seqs %d · max_num_batched_tokens %d · block %d\n",
		in.WeightsDType, in.CheckpointDType, in.KVCacheDType, in.Utilization, in.MaxModelLen, in.MaxNumSeqs, in.MaxNumBatchedTokens, in.BlockSize)
	for _, a := range in.Assumptions {
		fmt.Fprintf(w, "  assumed: %s\n", a)
	}
	r.writeBudgetText(w)
	fmt.Fprintf(w, "\nKV cache (per GPU%s)\n", stageSuffix(r))
	fmt.Fprintf(w, "  bytes per token      %s   %s\n", thousands(m.KVBytesPerToken), m.KV.Formula)
	fmt.Fprintf(w, "  blocks × block size  %s × %d = %s tokens per rank; %s over %d DP rank%s\n",
		thousands(m.NumBlocks), m.BlockSize, thousands(m.KVTokensPerRank), thousands(m.KVTokensTotal), in.DP, plural(in.DP))
	fmt.Fprintf(w, "  max concurrency at max_model_len %d: %.2f sequences per rank\n", in.MaxModelLen, m.MaxConcurrencyAtMaxModelLen)
	r.writeCapacityText(w)
	r.writeAlternativesText(w)
	for _, s := range reportSections {
		if s.Text != nil {
			s.Text(w, r)
		}
	}
	fmt.Fprintf(w, "\nNotes\n")
	for _, n := range r.Notes {
		fmt.Fprintf(w, "  %s:\n%s\n", n.Topic, wrap(n.Text, 96, "    "))
	}
	r.writeFindingsText(w)
}

func (r *Report) writeBudgetText(w io.Writer) {
	p, m := r.Memory.PerGPU, r.Memory
	fmt.Fprintf(w, "\nPer-GPU memory (GiB%s)\n", stageSuffix(r))
	row := func(label string, v float64, detail string) { fmt.Fprintf(w, "  %-34s %8.2f  %s\n", label, v, detail) }
	row("device total (CUDA runtime)", p.DeviceGiB, "")
	row(fmt.Sprintf("usable = %.2f × device", p.Utilization), p.UsableGiB, "")
	row("− weights", p.WeightsGiB, fmt.Sprintf("%.2fB parameters", m.ParamsPerGPU/1e9))
	for _, t := range m.Weights {
		fmt.Fprintf(w, "      %-22s %7.3fB %-5s %7.2f  %s\n", t.Component, t.ParamsPerGPU/1e9, t.DType, t.GiB, t.Placement)
	}
	row("− activation peak", p.ActivationGiB, "max(forward, sampler) + fused-MoE workspace")
	for _, t := range m.Activation {
		fmt.Fprintf(w, "      %-28s %10.2f  %s\n", truncate(t.Name, 28), t.GiB, t.Formula)
	}
	row("− other (outside PyTorch)", p.OtherGiB, "")
	for _, t := range m.NonTorch {
		fmt.Fprintf(w, "      %-28s %10.2f  %s\n", truncate(t.Name, 28), t.GiB, t.Formula)
	}
	row("= KV cache", p.KVCacheGiB, "")
	if p.CUDAGraphGiB > 0 {
		fmt.Fprintf(w, "  outside the budget: CUDA graphs ≈%.2f GiB, headroom (1 − utilization) × device = %.2f GiB\n", p.CUDAGraphGiB, p.HeadroomGiB)
	}
}

func (r *Report) writeCapacityText(w io.Writer) {
	c := r.Memory.Capacity
	fmt.Fprintf(w, "\nCapacity\n")
	fmt.Fprintf(w, "  %d sessions × %d tokens over %d DP rank%s → %d per rank (ceil, the fullest rank)\n",
		c.Concurrency, c.MaxModelLen, c.DPRanks, plural(c.DPRanks), c.SeqsPerRank)
	fmt.Fprintf(w, "  needed per GPU %.2f GiB (%.1f GB); total %.1f GB; available %.2f GiB; margin %+.2f GiB\n",
		c.NeededGiBPerRank, c.NeededGiBPerRank*GiB/1e9, c.NeededGBTotal, c.AvailableGiB, c.MarginGiB)
	fmt.Fprintf(w, "  max full-length sequences: %d per rank, %d in total\n", c.MaxSeqsPerRank, c.MaxConcurrency)
	if !c.OneSequenceFits {
		fmt.Fprintf(w, "  one %d-token sequence does not fit: largest max_model_len that fits is %d\n", c.MaxModelLen, c.LargestMaxModelLen)
	}
	fmt.Fprintf(w, "  verdict: %s\n", fitWord(c.Fits))
}

func (r *Report) writeAlternativesText(w io.Writer) {
	if len(r.Alternatives) == 0 {
		return
	}
	fmt.Fprintf(w, "\nWeights formats\n")
	for _, a := range r.Alternatives {
		fmt.Fprintf(w, "  %-5s %-26s weights %6.2f GiB  KV %6.2f GiB  %s tokens/rank  %d max-length seqs/rank  %s\n",
			a.WeightsDType, altLabel(a), a.WeightsGiB, a.KVCacheGiB, thousands(a.KVTokensPerRank), a.MaxSeqsPerRank, fitWord(a.Fits))
	}
}

func (r *Report) writeFindingsText(w io.Writer) {
	fmt.Fprintf(w, "\nFindings\n")
	if len(r.Findings) == 0 {
		fmt.Fprintf(w, "  none\n")
	}
	for _, d := range r.Findings {
		fmt.Fprintf(w, "  %s [%s] %s\n", d.Severity, d.Code, strings.TrimPrefix(wrap(d.Message, 92, "    "), "    "))
		if d.Hint != "" {
			fmt.Fprintf(w, "    hint: %s\n", d.Hint)
		}
	}
	fmt.Fprintf(w, "\nfeasible: %s\n", yesNo(r.Feasible))
}

func altLabel(a AltWeights) string { return "(" + altSource(a) + ")" }

func altSource(a AltWeights) string {
	s := "converted"
	if a.FromCheckpoint {
		s = "checkpoint as shipped"
	}
	if a.Current {
		s += ", this spec"
	}
	return s
}

func stageSuffix(r *Report) string {
	if len(r.Memory.Stages) <= 1 {
		return ""
	}
	return fmt.Sprintf(", pipeline stage %d of %d — the one with the fewest KV blocks", r.Memory.BindingStage, len(r.Memory.Stages))
}

func fitWord(ok bool) string {
	if ok {
		return "fits"
	}
	return "DOES NOT FIT"
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func truncate(s string, n int) string {
	if len([]rune(s)) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// wrap breaks text at spaces to lines of at most width runes, each
// prefixed with indent.
func wrap(text string, width int, indent string) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && len([]rune(line))+1+len([]rune(word)) > width {
			lines = append(lines, indent+line)
			line = word
			continue
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, indent+line)
	}
	return strings.Join(lines, "\n")
}
