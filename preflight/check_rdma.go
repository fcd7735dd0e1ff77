package preflight

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

func checkRDMADevices(_ context.Context, e *env) Result {
	if r, ok := e.rdmaSkip(); ok {
		return r
	}
	present := e.rdmaPresent()
	declared := e.node.RDMADevices
	want := "RDMA devices " + orUnknown(strings.Join(declared, ", "))
	if len(declared) == 0 {
		want = "at least one RDMA device"
	}
	if len(present) == 0 {
		return fail("no RDMA devices ("+ibRoot+" is empty or missing)", want,
			"install the NIC's RDMA driver and rdma-core; `ibv_devices` must list the NICs")
	}
	var missing []string
	for _, d := range declared {
		if !contains(present, d) {
			missing = append(missing, d)
		}
	}
	found := "present: " + strings.Join(present, ", ")
	if len(missing) > 0 {
		return fail("missing "+strings.Join(missing, ", ")+"; "+found, want, "fix hardware.nodes[].rdma_devices to the names `ibv_devices` prints")
	}
	if len(declared) == 0 {
		return warn(found, "rdma_devices declared for this node",
			"set hardware.nodes[].rdma_devices so the bundle pins NCCL_IB_HCA to the GPU-facing NICs")
	}
	return pass(found, want)
}

func checkRDMAPortState(_ context.Context, e *env) Result {
	if r, ok := e.rdmaSkip(); ok {
		return r
	}
	ports := e.rdmaPorts()
	wantLayer := linkLayerFor(e.d.Hardware.Network.InterNode.Kind)
	want := "every port ACTIVE"
	if wantLayer != "" {
		want += ", link layer " + wantLayer
	}
	if len(ports) == 0 {
		return fail("no RDMA ports to check", want, "see rdma.devices")
	}
	var bad []string
	for _, p := range ports {
		state, _ := e.readTrim(path.Join(p.dir(), "state"))
		layer, _ := e.readTrim(path.Join(p.dir(), "link_layer"))
		if !strings.Contains(state, "ACTIVE") {
			bad = append(bad, fmt.Sprintf("%s state %q", p, orUnknown(state)))
		} else if wantLayer != "" && layer != "" && !strings.EqualFold(layer, wantLayer) {
			bad = append(bad, fmt.Sprintf("%s link layer %s", p, layer))
		}
	}
	if len(bad) > 0 {
		return fail(strings.Join(bad, "; "), want, "check cabling and the subnet manager (InfiniBand) or switch port (RoCE): `ibstat`; fix inter_node.kind if the link layer differs")
	}
	return pass(fmt.Sprintf("%d ports ACTIVE", len(ports)), want)
}

// linkLayerFor is what sysfs link_layer says for each fabric kind.
func linkLayerFor(kind string) string {
	switch kind {
	case "roce":
		return "Ethernet"
	case "infiniband":
		return "InfiniBand"
	}
	return ""
}

func checkRDMAGID(_ context.Context, e *env) Result {
	if r, ok := e.rdmaSkip(); ok {
		return r
	}
	in := e.d.Hardware.Network.InterNode
	if in.Kind != "roce" {
		return skip(fmt.Sprintf("inter_node kind is %s: no RoCE GID index to check", orUnknown(in.Kind)))
	}
	if in.GIDIndex == nil {
		return autoGID(e)
	}
	idx := *in.GIDIndex
	want := fmt.Sprintf("a RoCE v2 GID at index %d on every port (NCCL_IB_GID_INDEX=%d)", idx, idx)
	ports := e.rdmaPorts()
	if len(ports) == 0 {
		return fail("no RDMA ports to check", want, "see rdma.devices")
	}
	var bad []string
	for _, p := range ports {
		if msg := gidProblem(e, p, idx); msg != "" {
			bad = append(bad, msg)
		}
	}
	if len(bad) > 0 {
		return fail(strings.Join(bad, "; "), want, "list the GIDs (`show_gids`) and set hardware.network.inter_node.gid_index to the RoCE v2 entry carrying the node's IPv4 address")
	}
	return pass(fmt.Sprintf("RoCE v2 GID at index %d on %d ports", idx, len(ports)), want)
}

// gidProblem checks gids/<idx> and gid_attrs/types/<idx> of one port.
func gidProblem(e *env, p rdmaPort, idx int) string {
	gid, err := e.readTrim(path.Join(p.dir(), "gids", fmt.Sprint(idx)))
	if err != nil {
		return fmt.Sprintf("%s has no GID %d", p, idx)
	}
	if strings.Trim(gid, "0:") == "" {
		return fmt.Sprintf("%s GID %d is empty", p, idx)
	}
	typ, _ := e.readTrim(path.Join(p.dir(), "gid_attrs/types", fmt.Sprint(idx)))
	if !strings.EqualFold(typ, "RoCE v2") {
		return fmt.Sprintf("%s GID %d is %s, not RoCE v2", p, idx, orUnknown(typ))
	}
	return ""
}

func checkNICVendor(_ context.Context, e *env) Result {
	if r, ok := e.rdmaSkip(); ok {
		return r
	}
	const want = "Mellanox/NVIDIA mlx5 NICs (GPU-initiated RDMA, IBGDA)"
	devs := e.rdmaDevices()
	if len(devs) == 0 {
		return fail("no RDMA devices", want, "see rdma.devices")
	}
	var other []string
	for _, d := range devs {
		if v, drv := e.nicVendor(d); !isMLX5(v, drv) {
			other = append(other, d+": "+vendorName(v, drv))
		}
	}
	if len(other) == 0 {
		return pass(fmt.Sprintf("%d mlx5 devices", len(devs)), want)
	}
	return nicVerdict(e, strings.Join(other, "; "), want)
}

// nicVerdict: non-mlx5 NICs break DeepEP's internode kernels (NVSHMEM IBGDA
// fails to initialise, deepseek-ai/DeepEP #128, #55, #139), but NCCL over
// RDMA works on them.
func nicVerdict(e *env, found, want string) Result {
	fix := "DeepEP low-latency (and internode high-throughput) needs GPU-initiated RDMA (NVSHMEM IBGDA), which only mlx5 NICs provide: " +
		"use --all2all-backend " + vllm.BackendAllgatherReducescatter + " (vllm.all2all_backend), or " + vllm.BackendDeepEPHighThroughput +
		" only if the whole EP group sits inside one node (its intranode kernels use NVLink, not RDMA)"
	if e.deepEP() {
		return fail(found, want, fix)
	}
	if g := e.d.Hardware.Network.InterNode.GPUDirectRDMA; g != nil && *g {
		return warn(found, want, "the spec assumes gpu_direct_rdma; set hardware.network.inter_node.gpu_direct_rdma: false. "+fix)
	}
	return pass(found+" (fine for NCCL; no DeepEP backend)", want)
}
