package preflight

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

// autoGID checks a RoCE spec without gid_index. NCCL then selects the GID
// itself (NCCL_IB_GID_INDEX defaults to -1, automatic, since NCCL 2.21:
// NVIDIA/nccl src/transport/net_ib: NCCL_PARAM(IbGidIndex, "IB_GID_INDEX", -1)),
// preferring a RoCE v2 GID carrying an IPv4 address. This check finds that
// entry on every port, so the user can pin it for the libraries that do
// not look for it (NVSHMEM's default is not verified here).
func autoGID(e *env) Result {
	const want = "a RoCE v2 GID with an IPv4 address on every port (what NCCL selects when gid_index is not set)"
	ports := e.rdmaPorts()
	if len(ports) == 0 {
		return fail("no RDMA ports to check", want, "see rdma.devices")
	}
	found := map[int][]string{}
	var missing []string
	for _, p := range ports {
		idx, ok := roceV2IPv4GID(e, p)
		if !ok {
			missing = append(missing, p.String())
			continue
		}
		found[idx] = append(found[idx], p.String())
	}
	if len(missing) > 0 {
		return fail("no RoCE v2 GID with an IPv4 address on "+shortList(missing, 5), want,
			"give the RoCE interfaces IPv4 addresses (the GID table follows them), then run preflight again")
	}
	idxs := make([]int, 0, len(found))
	for i := range found {
		idxs = append(idxs, i)
	}
	sort.Ints(idxs)
	if len(idxs) > 1 {
		return warn(fmt.Sprintf("the RoCE v2 IPv4 GID sits at different indexes across ports (%v)", idxs), want,
			"NCCL copes; NVSHMEM (DeepEP) takes one NVSHMEM_IB_GID_INDEX for all ports: make the GID tables agree")
	}
	return pass(fmt.Sprintf("RoCE v2 IPv4 GID at index %d on %d ports (gid_index not set: NCCL selects it)", idxs[0], len(ports)), want+
		fmt.Sprintf("; to pin it, set hardware.network.inter_node.gid_index: %d", idxs[0]))
}

// roceV2IPv4GID returns the lowest GID index of the port whose type is
// RoCE v2 and whose GID is an IPv4-mapped address (::ffff:a.b.c.d).
func roceV2IPv4GID(e *env, p rdmaPort) (int, bool) {
	ents, err := fs.ReadDir(e.host.FS, fsPath(path.Join(p.dir(), "gids")))
	if err != nil {
		return 0, false
	}
	best := -1
	for _, ent := range ents {
		idx, err := strconv.Atoi(ent.Name())
		if err != nil || (best >= 0 && idx >= best) {
			continue
		}
		gid, _ := e.readTrim(path.Join(p.dir(), "gids", ent.Name()))
		typ, _ := e.readTrim(path.Join(p.dir(), "gid_attrs/types", ent.Name()))
		if strings.EqualFold(typ, "RoCE v2") && strings.HasPrefix(gid, "0000:0000:0000:0000:0000:ffff:") {
			best = idx
		}
	}
	return best, best >= 0
}
