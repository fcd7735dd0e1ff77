package slo

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// CodeTPAcrossNodes: the TP group spans nodes and its all-reduces take a
// large share of the decode step.
const CodeTPAcrossNodes = codes.EstTPAcrossNodes

// tpShareWorthSaying is the TP all-reduces' share of the decode step from
// which CodeTPAcrossNodes speaks: a quarter of every step is time a layout
// with TP inside the node would mostly not spend.
const tpShareWorthSaying = 0.25

// tpAcrossNodesAdvice warns when TP spans nodes and costs tpShareWorthSaying
// of the decode step or more, and offers TP within a node with pipeline
// stages across nodes when the deployment re-resolved that way is
// predicted faster by the same models and simulation.
func tpAcrossNodesAdvice(in *input.Input, p *Performance, opt Options) diag.Diagnostics {
	l, g := in.Layout, in.Layout.GPUsPerNode
	st := p.Decode.Step
	if g <= 0 || l.TP <= g || st.TotalS <= 0 || st.TPS < tpShareWorthSaying*st.TotalS {
		return nil
	}
	if in.Network.MNNVL(g) && l.TP <= in.Network.NVLinkGPUs(g) {
		return nil // the nodes share an NVLink domain: the all-reduces never reach the NICs
	}
	msg := fmt.Sprintf("TP %d spans %d nodes: its all-reduces cross the inter-node fabric (%.0f Gbit/s × %d NICs per node) in every layer, %.1f ms of the %.1f ms decode step at %d sessions (%.0f%%)",
		l.TP, (l.TP+g-1)/g, in.Network.InterGbitPerSPerNIC, in.Network.NICsPerNode, 1e3*st.TPS, 1e3*st.TotalS, p.Decode.Concurrency, 100*st.TPS/st.TotalS)
	hint := "keep TP within a node: parallelism.tensor = the GPUs of a node, and pipeline stages or data parallelism across nodes"
	if pp := l.TP / g * l.PP; l.TP%g == 0 && in.Model.TPSplitProblem(g) == "" && in.Resolved() != nil {
		alt := in.WithLayout(input.Layout{TP: g, PP: pp, DP: l.DP, EP: l.EP, Replicas: l.Replicas})
		if checked, ok := verifyVariant(in, p, alt, opt); ok {
			msg += fmt.Sprintf("; TP %d × PP %d is predicted faster: %s", g, pp, checked)
			hint = fmt.Sprintf("set parallelism.tensor: %d and parallelism.pipeline: %d", g, pp)
		}
	}
	return diag.Diagnostics{{Code: CodeTPAcrossNodes, Severity: diag.Warning, Path: "parallelism.tensor", Message: msg, Hint: hint}}
}
