package pd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/spec"
)

// poolCase is one pool of a pdCase: instances of TP × DP (EP when expert),
// each on whole nodes of the case's GPUs per node (one node when the
// instance's GPUs fit one).
type poolCase struct {
	inst, tp, dp int
	ep           bool
	// budget is max_num_batched_tokens (0: the release's default).
	budget int
}

// gpus is one instance's GPUs.
func (p poolCase) gpus() int { return p.tp * max(1, p.dp) }

// pdCase is a disaggregated deployment the tests build as a user would
// write it (spec YAML, resolved by package resolve).
type pdCase struct {
	name, model, gpu string
	// gpn is the GPUs of a node; an instance smaller than a node gets a
	// node of its own GPUs (and its share of the NICs).
	gpn      int
	pre, dec poolCase
	in, out  int
	conc     int
	rate     float64
	// gbit, nics, latUs are the inter-node NICs per (whole) node.
	gbit    float64
	nics    int
	latUs   float64
	maxLen  int
	version string
}

// yaml is the case's spec.
func (c pdCase) yaml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: vlaunch/v1\nkind: Deployment\nmetadata: {name: %s}\n", c.name)
	fmt.Fprintf(&b, "model: {name: %s, weights: auto, path: /models/x}\nhardware:\n  gpu: %s\n  nodes:\n", c.model, c.gpu)
	names := map[string][]string{}
	ip := 10
	nodeGPUs := func(p poolCase) (nodes, per int) {
		if p.gpus() <= c.gpn {
			return 1, p.gpus()
		}
		return (p.gpus() + c.gpn - 1) / c.gpn, c.gpn
	}
	nics := c.nics
	for _, role := range spec.Roles {
		p := c.pool(role)
		nodes, per := nodeGPUs(p)
		if per < c.gpn { // a part of a node: its share of the NICs
			nics = min(nics, max(1, c.nics*per/c.gpn))
		}
		for i := range p.inst * nodes {
			name := fmt.Sprintf("%s%d", role[:1], i)
			names[role] = append(names[role], name)
			fmt.Fprintf(&b, "    - {name: %s, address: 10.0.%d.%d, gpus: %d}\n", name, ip/250, 10+ip%250, per)
			ip++
		}
	}
	fmt.Fprintf(&b, "  network:\n    inter_node: {kind: infiniband, bandwidth_gbit_per_s: %g, nics_per_node: %d, latency_us: %g}\n", c.gbit, nics, c.latUs)
	b.WriteString("workload: {")
	if c.rate > 0 {
		fmt.Fprintf(&b, "arrival_rate_per_s: %g", c.rate)
	} else {
		fmt.Fprintf(&b, "concurrency: %d", c.conc)
	}
	fmt.Fprintf(&b, ", input_tokens: %d, output_tokens: %d", c.in, c.out)
	if c.maxLen > 0 {
		fmt.Fprintf(&b, ", max_model_len: %d", c.maxLen)
	}
	b.WriteString("}\ndisaggregation:\n  connector: nixl\n")
	for _, role := range spec.Roles {
		p := c.pool(role)
		fmt.Fprintf(&b, "  %s:\n    instances: %d\n    nodes: [%s]\n    parallelism: {tensor: %d, pipeline: 1, data: %d, expert: %t}\n",
			role, p.inst, strings.Join(names[role], ", "), p.tp, max(1, p.dp), p.ep)
		if p.budget > 0 {
			fmt.Fprintf(&b, "    vllm: {max_num_batched_tokens: %d}\n", p.budget)
		}
	}
	fmt.Fprintf(&b, "vllm: {version: %q}\nruntime: {kind: bare}\n", c.version)
	return b.String()
}

func (c pdCase) pool(role string) poolCase {
	if role == spec.RolePrefill {
		return c.pre
	}
	return c.dec
}

// inputs resolves the case and returns its pools' inputs.
func (c pdCase) inputs(t testing.TB) (pre, dec input.Input) {
	t.Helper()
	y := c.yaml()
	in := testinput.FromYAML(t, c.name, y)
	return testinput.Pools(t, in.Resolved())
}
