package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/catalog"
)

func init() { subcommands = append(subcommands, newModelsCmd) }

func newModelsCmd(s *streams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "models",
		Short: "List the embedded model catalog",
		Long: `List the models 'model.name' accepts. Figures come from each model's published
config.json; parameters are counted from the architecture (MTP layers excluded).
VISION(B) is a multimodal wrapper's vision encoder, counted apart from PARAMS
("-" for a text model). ATTENTION names the layers that keep a fixed state per
sequence in a hybrid (+GDN, +KDA, +Mamba2: linear-attention layers of all) and
a sliding window (+SWA).
Other models work too: give 'model.config' (their config.json) instead of 'model.name'.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			asJSON, err := listFormat(output)
			if err != nil {
				return err
			}
			models := catalog.Models()
			if asJSON {
				return writeJSON(s.out, modelsJSON(models))
			}
			return writeTable(s.out, []string{"ID", "HF REPO", "ARCH", "PARAMS(B)", "ACTIVE(B)", "VISION(B)", "LAYERS", "HIDDEN", "ATTENTION", "EXPERTS/TOP-K", "QUANT"}, modelRows(models))
		},
	}
	addOutputFlag(cmd.Flags(), &output, listFormats, "")
	return cmd
}

// modelJSON is one model with its parameter counts.
type modelJSON struct {
	*catalog.Model
	Params       catalog.ParamCounts `json:"params"`
	ActiveParams float64             `json:"active_params"`
}

func modelsJSON(ms []*catalog.Model) []modelJSON {
	out := make([]modelJSON, len(ms))
	for i, m := range ms {
		pc := m.ParamCounts()
		out[i] = modelJSON{Model: m, Params: pc, ActiveParams: pc.Active(m)}
	}
	return out
}

func modelRows(ms []*catalog.Model) [][]string {
	rows := make([][]string, 0, len(ms))
	for _, m := range ms {
		pc := m.ParamCounts()
		vision := "-"
		if m.Encoder != nil {
			vision = fmt.Sprintf("%.2f", m.Encoder.Params/1e9)
		}
		rows = append(rows, []string{m.ID, m.HFRepo, m.ModelType, fmt.Sprintf("%.1f", pc.Total/1e9), fmt.Sprintf("%.1f", pc.Active(m)/1e9), vision,
			fmt.Sprint(m.NumLayers), fmt.Sprint(m.HiddenSize), attentionKind(m), expertsText(m), quantText(m)})
	}
	return rows
}

func attentionKind(m *catalog.Model) string {
	switch {
	case m.DSV4 != nil:
		// DeepSeek-V4: compressed sparse attention beside every layer's window.
		return fmt.Sprintf("CSA %d/1 +SWA %d", m.NumHeads, m.DSV4.Window)
	case m.IsMLA():
		kind := fmt.Sprintf("MLA kv_lora=%d", m.KVLoraRank)
		// Kimi-Linear / Kimi-K3: Kimi Delta Attention layers beside MLA.
		if m.KimiLinear != nil && m.KimiLinear.KDALayers > 0 {
			kind += fmt.Sprintf(" +KDA %d/%d", m.KimiLinear.KDALayers, m.NumLayers)
		}
		return kind
	case m.NumKVHeads == m.NumHeads:
		return fmt.Sprintf("MHA %d", m.NumHeads)
	}
	kind := fmt.Sprintf("GQA %d/%d", m.NumHeads, m.NumKVHeads)
	if m.SlidingWindow > 0 {
		kind += fmt.Sprintf(" +SWA %d", m.SlidingWindow)
	}
	// Hybrids: the layers that keep a fixed state per sequence.
	if n := m.LinearLayerCount(); n > 0 {
		kind += fmt.Sprintf(" +GDN %d/%d", n, m.NumLayers)
	}
	if n := m.MambaLayerCount(); n > 0 {
		kind += fmt.Sprintf(" +Mamba2 %d/%d", n, m.NumLayers)
	}
	return kind
}

func expertsText(m *catalog.Model) string {
	if !m.IsMoE() {
		return "dense"
	}
	return fmt.Sprintf("%d/%d", m.NumExperts, m.ExpertsPerToken)
}

// quantText is the QUANT column: the quantization method (or the dtype of
// an unquantized checkpoint), with the routed experts' format where it
// differs (catalog.Model.RoutedExpertFormat: DeepSeek-V4's MXFP4 experts
// in an FP8 checkpoint).
func quantText(m *catalog.Model) string {
	q := m.Quant.Method
	if q == "" {
		q = m.CheckpointDType()
	}
	if f := m.RoutedExpertFormat(); f != "" {
		q += "+" + f + "-experts"
	}
	return q
}
