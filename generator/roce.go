package generator

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// gidNote: without gid_index the scripts set no GID index. NCCL then picks
// the RoCE v2 GID itself (NCCL_IB_GID_INDEX defaults to -1, automatic, since
// NCCL 2.21), so forcing one (index 3 was once assumed) only breaks hosts
// whose table differs. NVSHMEM, which DeepEP's internode kernels use, takes
// NVSHMEM_IB_GID_INDEX; vlaunch has not verified that it searches the table,
// so a DeepEP bundle over RoCE asks for the index preflight reports.
func gidNote(d *spec.Deployment, p *Plan) diag.Diagnostics {
	if p.Fabric != "roce" || d.Hardware.Network.InterNode.GIDIndex != nil || !p.DeepEP || !p.multiNode() {
		return nil
	}
	return diag.Diagnostics{gdiag(d, CodeAll2All, diag.Warning, "hardware.network.inter_node",
		"RoCE without gid_index: NCCL selects the RoCE v2 GID itself, but NVSHMEM (DeepEP's internode transport) gets no NVSHMEM_IB_GID_INDEX",
		"run `vlaunch preflight SPEC --node NAME --only rdma.gid` on a node and set hardware.network.inter_node.gid_index to the index it reports")}
}
