package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// defaultGPUsPerNode is assumed when nothing says how many GPUs a node
// has: 8 is the largest count of the common GPU servers (HGX/DGX boards).
const defaultGPUsPerNode = 8

// ascendNPUsPerNode is assumed for Ascend NPU scripts (vllm-ascend): Atlas
// A3 nodes carry 16 NPUs, and the vllm-ascend guides run TP16 on one node.
const ascendNPUsPerNode = 16

// ascendPlatform reports a script written for Ascend NPUs: HCCL (Huawei's
// collective library) or ASCEND_* variables have no meaning on a GPU host.
func ascendPlatform(inv *launch.Invocation) bool {
	for _, e := range inv.Env {
		if strings.HasPrefix(e.Name, "HCCL_") || strings.HasPrefix(e.Name, "ASCEND_") {
			return true
		}
	}
	return false
}

// nodeGPUs returns the GPUs an invocation sees and how that is known.
func (p *pass) nodeGPUs(s *server) (int, string) {
	if s.Inv.GPUs > 0 {
		return s.Inv.GPUs, s.Inv.GPUSource
	}
	if n := p.specGPUs(s); n > 0 {
		return n, "the spec"
	}
	if ascendPlatform(s.Inv) {
		return ascendNPUsPerNode, "assumed for an Ascend node; pass --spec for the real count"
	}
	return defaultGPUsPerNode, "assumed; pass --spec for the real count"
}
