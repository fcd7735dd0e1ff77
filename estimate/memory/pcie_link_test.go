package memory

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/spec"
)

// TestCollectivesFollowTheLink: the NCCL / custom all-reduce budget is the
// link's, whoever describes the GPU. A custom GPU declared PCIe
// (`intra_node.kind: pcie`) is budgeted like a catalog PCIe part (issue
// #23: it was budgeted as NVLink, 1.8 GiB of NVLS and custom all-reduce
// buffers that do not exist); one that says nothing keeps the NVLink
// assumption of resolve's customIntraKind.
func TestCollectivesFollowTheLink(t *testing.T) {
	custom := spec.GPURef{Custom: &spec.GPUFigures{Name: "RTX 6000 Ada", MemoryMiB: 48000, HBMBandwidthGBytesPerS: 960, BF16TFLOPS: 364}}
	for _, tt := range []struct {
		name string
		gpu  spec.GPURef
		kind string // hardware.network.intra_node.kind
		want float64
	}{
		{"catalog PCIe part", spec.GPURef{Name: "l40s"}, "", PCIeCollectivesGiB},
		{"catalog PCIe part, kind given", spec.GPURef{Name: "h100-pcie"}, "pcie", PCIeCollectivesGiB},
		{"RTX PRO 6000 Blackwell (PCIe only)", spec.GPURef{Name: "rtx-pro-6000"}, "", PCIeCollectivesGiB},
		{"custom GPU declared PCIe", custom, "pcie", PCIeCollectivesGiB},
		{"custom GPU declared NVLink", custom, "nvlink", CollectivesGiB},
		{"custom GPU, link not given", custom, "", CollectivesGiB},
		{"NVLink part on a PCIe board", spec.GPURef{Name: "h100-sxm"}, "pcie", PCIeCollectivesGiB},
		{"catalog NVLink part", spec.GPURef{Name: "gb200"}, "", CollectivesGiB},
	} {
		in := tp8(t, tt.gpu, tt.kind)
		got, name := collectives(NonTorch(&in))
		if got != tt.want {
			t.Errorf("%s: %q %.2f GiB, want %.2f", tt.name, name, got, tt.want)
		}
	}
}

// tp8 is the TP8 example on one node with the GPU and link replaced (the
// link's bandwidth left to the GPU's figure).
func tp8(t *testing.T, g spec.GPURef, kind string) input.Input {
	t.Helper()
	const name = "llama-3.1-70b-8xa100.yaml"
	data, ok := examples.Read(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	root, ds := spec.ParseNode(name, data)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d, ds := spec.Decode(name, root)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	d.Hardware.GPU = g
	d.Hardware.Network.IntraNode = spec.IntraNode{Kind: kind}
	spec.ApplyDefaults(d)
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatal(ds)
	}
	return in
}

// collectives is the NCCL term of a non-torch budget.
func collectives(terms []Term) (float64, string) {
	for _, term := range terms {
		if strings.HasPrefix(term.Name, "NCCL") {
			return term.GiB, term.Name
		}
	}
	return 0, "none"
}
