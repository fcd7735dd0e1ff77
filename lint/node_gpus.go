package lint

import (
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// defaultGPUsPerNode is assumed when nothing says how many GPUs a node
// has: 8 is the largest count of the common GPU servers (HGX/DGX boards).
const defaultGPUsPerNode = 8

// ascendNPUsPerNode is assumed for Ascend NPU scripts (vllm-ascend): Atlas
// A3 nodes carry 16 NPUs, and the vllm-ascend guides run TP16 on one node.
const ascendNPUsPerNode = 16

// gpuCount is how many GPUs a server's node has and how that is known.
type gpuCount struct {
	n   int
	src string
	// assumed is set when nothing in the files or the spec says: the
	// count is a default, so a finding that depends on it is not certain.
	assumed bool
}

// nodeGPUs returns the GPUs an invocation sees and how that is known.
func (p *pass) nodeGPUs(s *server) (int, string) {
	c := p.nodeGPUCount(s)
	return c.n, c.src
}

// nodeGPUCount reads the count from the invocation's own limits
// (CUDA_VISIBLE_DEVICES, --gpus, device-plugin resources), a `ray start
// --num-gpus` on the same node, or the spec; else it assumes a default.
func (p *pass) nodeGPUCount(s *server) gpuCount {
	if s.Inv.GPUs > 0 {
		return gpuCount{n: s.Inv.GPUs, src: s.Inv.GPUSource}
	}
	if n := p.rayNodeGPUs(s.Inv); n > 0 {
		return gpuCount{n: n, src: "ray start --num-gpus"}
	}
	if n := p.specGPUs(s); n > 0 {
		return gpuCount{n: n, src: "the spec"}
	}
	if s.Inv.Platform == launch.PlatformAscend {
		return gpuCount{n: ascendNPUsPerNode, src: "assumed for an Ascend node; pass --spec for the real count", assumed: true}
	}
	return gpuCount{n: defaultGPUsPerNode, src: "assumed; pass --spec for the real count", assumed: true}
}

// rayNodeGPUs is the --num-gpus of a `ray start` run on the same node as
// inv (same file, host and container), 0 when there is none.
func (p *pass) rayNodeGPUs(inv *launch.Invocation) int {
	for _, r := range p.Rays {
		if r.File != inv.File || r.Host != inv.Host || (r.Container == nil) != (inv.Container == nil) {
			continue
		}
		if n := rayNumGPUs(r); n > 0 {
			return n
		}
	}
	return 0
}

// rayNumGPUs reads `ray start --num-gpus N` (or --num-gpus=N), else the
// GPUs the ray node's container sees.
func rayNumGPUs(r *launch.Invocation) int {
	for i, a := range r.Args {
		v := ""
		switch {
		case strings.HasPrefix(a.Text, "--num-gpus="):
			v = strings.TrimPrefix(a.Text, "--num-gpus=")
		case a.Text == "--num-gpus" && i+1 < len(r.Args):
			v = r.Args[i+1].Text
		default:
			continue
		}
		if n, err := strconv.Atoi(strings.Trim(v, `"'`)); err == nil && n > 0 {
			return n
		}
	}
	return r.GPUs
}
