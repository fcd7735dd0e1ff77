package slo

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// twoNodes puts the Llama-3.1-70B example on two 8 × A100 nodes joined by
// one NIC of gbit per node, with TP tp and PP pp.
func twoNodes(gbit float64, tp, pp int) func(*spec.Deployment) {
	return func(d *spec.Deployment) {
		d.Hardware.Nodes = []spec.Node{
			{Name: "a", Address: "10.1.0.20", GPUs: 8, Interface: "eth0"},
			{Name: "b", Address: "10.1.0.21", GPUs: 8, Interface: "eth0"},
		}
		d.Hardware.Network.InterNode = spec.InterNode{Kind: "ethernet", BandwidthGbitPerS: gbit, NICsPerNode: 1, LatencyUs: 10}
		d.Parallelism.Tensor, d.Parallelism.Pipeline, d.Parallelism.Data = tp, pp, 1
	}
}

// TestTPAcrossSlowNodes is issue #27's missing warning: TP 16 over 25 GbE
// spends most of a decode step in all-reduces across the NIC; the warning
// says so and offers TP 8 × PP 2 once the re-resolved layout is confirmed
// faster. With TP inside the node nothing is said.
func TestTPAcrossSlowNodes(t *testing.T) {
	const ex = "../../examples/llama-3.1-70b-8xa100.yaml"
	opt := Options{Seed: 1, Requests: 500}
	in := adviceInput(t, ex, twoNodes(25, 16, 1))
	r := check(&in, opt)
	var got []string
	for _, f := range r.Findings {
		if f.Code == CodeTPAcrossNodes {
			got = append(got, f.Hint)
			if !strings.Contains(f.Message, "TP 16 spans 2 nodes") {
				t.Errorf("message %q", f.Message)
			}
		}
	}
	if len(got) != 1 || got[0] != "set parallelism.tensor: 8 and parallelism.pipeline: 2" {
		t.Fatalf("TP 16 over 25 GbE: want one EST202 offering TP 8 × PP 2, got %v", got)
	}
	for name, edit := range map[string]func(*spec.Deployment){
		"TP 8 PP 2 over 25 GbE": twoNodes(25, 8, 2),
	} {
		in := adviceInput(t, ex, edit)
		for _, f := range check(&in, opt).Findings {
			if f.Code == CodeTPAcrossNodes {
				t.Errorf("%s: unexpected %s", name, f.Message)
			}
		}
	}
}
