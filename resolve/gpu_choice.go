package resolve

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// GPUAliasSetting is the catalog GPU a hardware.gpu (or --gpu) alias of
// several variants resolved to, with its provenance (qa44b F12: "h100"
// gave SXM figures to an H100 PCIe owner and said nothing): assumed, and
// Why names the pick's figures and each alternative's, so a report or a
// validate note can say which card was costed. ok is false for an id, an
// unambiguous alias or an unknown name.
func GPUAliasSetting(name string) (s Setting[string], ok bool) {
	picked, others, ok := catalog.GPUAliasChoice(name)
	if !ok {
		return s, false
	}
	g, err := catalog.LookupGPU(picked)
	if err != nil {
		return s, false
	}
	alts := make([]string, 0, len(others))
	for _, id := range others {
		if o, err := catalog.LookupGPU(id); err == nil {
			alts = append(alts, id+" ("+gpuFiguresText(o)+")")
		}
	}
	why := fmt.Sprintf("%q names more than one GPU: vlaunch assumed %s (%s); the other: %s",
		strings.TrimSpace(name), picked, gpuFiguresText(g), strings.Join(alts, ", "))
	return set(picked, SourceAssumed, why), true
}

// GPUPick is GPUAliasSetting for the spec's hardware.gpu.
func (d *Deployment) GPUPick() (Setting[string], bool) {
	if d == nil || d.Spec == nil || d.Spec.Hardware.GPU.Custom != nil {
		return Setting[string]{}, false
	}
	return GPUAliasSetting(d.Spec.Hardware.GPU.Name)
}

// gpuFiguresText is the figures the variants differ in: name, memory,
// HBM bandwidth and the link between GPUs of a node.
func gpuFiguresText(g *catalog.GPU) string {
	link := g.IntraNodeKind
	if link == "" {
		link = "intra-node"
	}
	return fmt.Sprintf("%s, %.0f GiB, %.0f GB/s HBM, %s %.0f GB/s", g.Name, g.MemoryGiB(), g.HBMBandwidthGBytesPerS, link, g.IntraNodeGBytesPerS)
}
