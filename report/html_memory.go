package report

import (
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/memory"
	"github.com/vlaunch/vlaunch/report/svg"
)

// Colours of the memory chart: weight components in blues (darkest first,
// in order of appearance), then one colour per other term.
var (
	weightColors    = []string{"#08306b", "#08519c", "#2171b5", "#4292c6", "#6baed6", "#9ecae1", "#c6dbef", "#3f5a7a", "#7f96b2"}
	colorActivation = "#f28e2b"
	colorOther      = "#9467bd"
	colorKV         = "#59a14f"
	colorGraphs     = "#bab0ac"
)

// memoryChart stacks what one GPU holds, one bar per distinct pipeline
// stage (GPUs of one stage hold the same), against the device total and
// vLLM's cap (gpu_memory_utilization × device).
func memoryChart(r *estimate.Report) chartView {
	m, pg := r.Memory, r.Memory.PerGPU
	c := svg.Bars{Title: "Per-GPU memory", YLabel: "GiB", Refs: []svg.Ref{
		{Label: fmt.Sprintf("device %.2f GiB", pg.DeviceGiB), Value: pg.DeviceGiB, Color: "#000000"},
		{Label: fmt.Sprintf("cap %.2f × device", pg.Utilization), Value: pg.UsableGiB, Color: "#c62828"},
	}}
	colors := weightColorsOf(m.Stages)
	for _, g := range distinctStages(r, colors) {
		c.Bars = append(c.Bars, svg.Bar{Label: g.label, Segments: stageSegments(r, m.Stages[g.first], colors)})
	}
	caption := "Weights by component, activation peak, memory outside PyTorch and the KV cache inside vLLM's budget (the cap)" +
		graphsCaption(r) + ". Hover a segment for its size and derivation."
	if len(m.Stages) > 1 {
		caption += fmt.Sprintf(" Every stage allocates the binding stage's %d KV blocks; the rest of its budget stays free.", m.NumBlocks)
	}
	return chartView{Title: c.Title, Caption: caption, SVG: template.HTML(c.SVG())}
}

// graphsCaption says where the CUDA graphs sit, from the same figures the
// memory table shows (qa45c F5: a fixed "after the budget" contradicted
// the table from vLLM 0.20, which budgets them): outside the budget when
// PerGPU carries them, inside it when a stage's non-torch terms list
// vLLM's estimate (with that term's reason), nothing without graphs.
func graphsCaption(r *estimate.Report) string {
	if r.Memory.PerGPU.CUDAGraphGiB > 0 {
		return "; CUDA graphs are allocated after the budget, in the headroom above the cap"
	}
	for _, st := range r.Memory.Stages {
		for _, t := range st.NonTorch {
			if t.Name == memory.GraphTermName {
				return "; CUDA graphs are inside the budget, among the memory outside PyTorch (" + t.Formula + ")"
			}
		}
	}
	return ""
}

// stageGroup is a run of pipeline stages whose GPUs hold the same.
type stageGroup struct {
	first int
	label string
}

// distinctStages groups consecutive stages with the same budget (to 0.01
// GiB), so a PP=8 deployment with two kinds of stage shows two bars.
func distinctStages(r *estimate.Report, colors map[string]string) []stageGroup {
	st := r.Memory.Stages
	key := func(i int) string {
		var b strings.Builder
		for _, s := range stageSegments(r, st[i], colors) {
			fmt.Fprintf(&b, "%s=%.2f;", s.Label, s.Value)
		}
		return b.String()
	}
	var out []stageGroup
	for i := 0; i < len(st); {
		j := i + 1
		for j < len(st) && key(j) == key(i) {
			j++
		}
		out = append(out, stageGroup{first: i, label: stageLabel(i, j-1, len(st))})
		i = j
	}
	return out
}

func stageLabel(a, b, n int) string {
	switch {
	case n == 1:
		return "every GPU"
	case a == b:
		return fmt.Sprintf("stage %d", a)
	}
	return fmt.Sprintf("stages %d–%d", a, b)
}

// stageSegments lists one stage GPU's memory bottom-up. The KV cache is
// the binding stage's block count in this stage's bytes per token (vLLM
// gives every worker the same number of blocks); what the cap leaves is
// free; CUDA graphs sit outside the budget.
func stageSegments(r *estimate.Report, s memory.StageMemory, colors map[string]string) []svg.Segment {
	m, pg := r.Memory, r.Memory.PerGPU
	var segs []svg.Segment
	for _, t := range s.Weights {
		segs = append(segs, svg.Segment{Label: t.Component, Value: t.GiB, Color: colors[t.Component],
			Title: fmt.Sprintf("%s: %.2f GiB, %.3fB parameters in %s — %s", t.Component, t.GiB, t.ParamsPerGPU/1e9, t.DType, t.Placement)})
	}
	act := s.Activation.PeakGiB
	segs = append(segs, svg.Segment{Label: "activation peak", Value: act, Color: colorActivation,
		Title: fmt.Sprintf("activation peak: %.2f GiB (%s)", act, termsText(s.Activation.Terms))})
	segs = append(segs, svg.Segment{Label: "outside PyTorch", Value: s.NonTorchGiB, Color: colorOther,
		Title: fmt.Sprintf("outside PyTorch: %.2f GiB (%s)", s.NonTorchGiB, termsText(s.NonTorch))})
	kv := math.Max(0, float64(m.NumBlocks)*float64(m.BlockSize)*float64(s.KV.BytesPerToken)/estimate.GiB)
	segs = append(segs, svg.Segment{Label: "KV cache", Value: kv, Color: colorKV,
		Title: fmt.Sprintf("KV cache: %.2f GiB, %d blocks × %d tokens × %d B per token", kv, m.NumBlocks, m.BlockSize, s.KV.BytesPerToken)})
	used := s.WeightsGiB + act + s.NonTorchGiB + kv
	if free := pg.UsableGiB - used; free > 0.005 {
		segs = append(segs, svg.Segment{Label: "free within the cap", Value: free, Outline: true,
			Title: fmt.Sprintf("free within the cap: %.2f GiB", free)})
	}
	if pg.CUDAGraphGiB > 0 {
		segs = append(segs, svg.Segment{Label: "CUDA graphs (outside the budget)", Value: pg.CUDAGraphGiB, Color: colorGraphs,
			Title: fmt.Sprintf("CUDA graphs: ≈%.2f GiB, captured after the KV cache; headroom above the cap %.2f GiB", pg.CUDAGraphGiB, pg.HeadroomGiB)})
	}
	return segs
}

// weightColorsOf gives every weight component one colour on every bar, in
// order of first appearance over the stages.
func weightColorsOf(stages []memory.StageMemory) map[string]string {
	out := map[string]string{}
	for _, s := range stages {
		for _, t := range s.Weights {
			if _, ok := out[t.Component]; !ok {
				out[t.Component] = weightColors[len(out)%len(weightColors)]
			}
		}
	}
	return out
}

func termsText(ts []memory.Term) string {
	var parts []string
	for _, t := range ts {
		parts = append(parts, fmt.Sprintf("%s %.2f", t.Name, t.GiB))
	}
	return strings.Join(parts, ", ")
}
