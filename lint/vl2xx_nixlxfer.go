package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkNixlTCP reports a P/D deployment across nodes whose UCX_TLS leaves
// UCX a network transport but no RDMA one (VL229): NIXL's KV hand-off then
// runs over TCP, ~0.5 GB/s where cuda_ipc or RDMA run at tens of GB/s
// (vllm-project/vllm#52607), and nothing fails or warns at run time. GB200
// recipes set UCX_TLS=cuda_copy,cuda_ipc,tcp for NVLink (ai-dynamo/nixl#1614),
// but vLLM's KV cache has no CUDA fabric handle, so cuda_ipc cannot reach the
// other trays of the NVLink domain and UCX "silently moves the KV cache over
// TCP across nodes" (vllm-project/vllm#51377, vllm.KVCacheFabricMemory). A
// warning where the nodes are shown to have RDMA NICs (the spec, NCCL_IB_*,
// UCX_IB_GID_INDEX, UCX_NET_DEVICES naming mlx5 devices, a DeepEP backend),
// else an info. A list with no transport off the node at all is VL227's.
func checkNixlTCP(p *pass) {
	ns := nixlServers(p)
	for _, s := range ns {
		if !spansNodes(p, s, ns) {
			continue
		}
		e, ok := s.Inv.LookupEnv(vllm.UCXTLSEnv)
		if !ok || !e.Value.Known || onlyIntraNode(e.Value.Text) || vllm.UCXTLSRDMA(e.Value.Text) != vllm.Absent {
			continue
		}
		sev := diag.Info
		if rdmaNICs(p, s) || mnnvlEnv(s) {
			sev = diag.Warning
		}
		p.ReportAtSeverity(s.Inv, e.Value.Pos, sev, "add an RDMA transport (UCX_TLS=rc,cuda_copy,cuda_ipc,tcp, or all) so UCX can use the NICs",
			"UCX_TLS=%s gives UCX no RDMA transport: NIXL moves the KV between nodes over TCP (~0.5 GB/s, vllm-project/vllm#52607), also between the trays of an NVLink domain, where vLLM's KV cache has no CUDA fabric handle for cuda_ipc (vllm-project/vllm#51377)", e.Value.Text)
	}
}

// mnnvlEnv reports a multi-node NVLink domain shown by the environment
// (UCX_CUDA_IPC_ENABLE_MNNVL, NCCL_MNNVL_ENABLE): GB200/GB300 NVL72 trays,
// which carry RDMA NICs besides NVLink (#55434 measured rc_x over four
// InfiniBand rails on GB200).
func mnnvlEnv(s *server) bool {
	for _, n := range []string{"UCX_CUDA_IPC_ENABLE_MNNVL", "NCCL_MNNVL_ENABLE"} {
		if e, ok := s.Inv.LookupEnv(n); ok && (!e.Value.Known || (e.Value.Text != "0" && e.Value.Text != "n" && e.Value.Text != "no")) {
			return true
		}
	}
	return false
}

// rdmaNICs reports that the nodes are shown to have RDMA NICs: what
// ibSeverity counts, UCX's own InfiniBand variables, or UCX_NET_DEVICES
// naming an mlx5 device.
func rdmaNICs(p *pass, s *server) bool {
	if ibSeverity(p, s) == diag.Warning {
		return true
	}
	if _, ok := s.Inv.LookupEnv("UCX_IB_GID_INDEX"); ok {
		return true
	}
	if e, ok := s.Inv.LookupEnv("UCX_NET_DEVICES"); ok && e.Value.Known && strings.Contains(e.Value.Text, "mlx5") {
		return true
	}
	return false
}

// pullConnector reports NIXL's pull connector: NixlPullConnector, or
// NixlConnector, its alias ("NixlConnector is a backward-compatible alias
// for NixlPullConnector", vllm-project/vllm#52607) and, before the push
// connector existed, the only NIXL connector, which reads (READ) too.
func pullConnector(name string) bool {
	return name == vllm.NixlConnectorName || name == "NixlPullConnector"
}

// checkNixlPullSameNode reports the pull connector on a P/D deployment whose
// engines share one host without RDMA, in a release that has the push
// connector (VL230). The decoder READs the prompt's KV; UCX's cuda_ipc
// serves a remote GET only over NVLink ("cuda-ipc get zcopy disabled as no
// nvlinks detected", ai-dynamo/nixl#1097) and falls back to TCP: 0.5 GB/s,
// against 49 GB/s for NixlPushConnector on the same pods (vllm-project/vllm
// #52607; ai-dynamo/nixl#2208, merged 2026-09-04, enables the GET, in a NIXL
// release not verified here). A warning when the spec says the GPUs have no
// NVLink; else an info (lint cannot see the GPUs' links from a script); none
// when the spec says NVLink or the host shows RDMA NICs, and none for a
// decoder whose KV does not move GPU to GPU through CUDA (cudaIPCPath).
func checkNixlPullSameNode(p *pass) {
	ns := nixlServers(p)
	if len(ns) < 2 {
		return
	}
	var pre, dec bool
	for _, s := range ns {
		if spansNodes(p, s, ns) || rdmaNICs(p, s) {
			return
		}
		switch s.KV().Role {
		case vllm.KVRoleProducer:
			pre = true
		case vllm.KVRoleConsumer:
			dec = true
		case vllm.KVRoleBoth:
			pre, dec = true, true
		}
	}
	if !pre || !dec {
		return
	}
	sev := diag.Info
	if p.Spec != nil {
		switch strings.ToLower(p.Spec.Hardware.Network.IntraNode.Kind) {
		case "nvlink":
			return
		case "pcie":
			sev = diag.Warning
		}
	}
	for _, s := range ns {
		k := s.KV()
		if k.Role == vllm.KVRoleProducer || !pullConnector(k.Connector) || s.Rel.KVConnectorIn("NixlPushConnector") != vllm.Present || !cudaIPCPath(s) {
			continue
		}
		p.ReportAtSeverity(s.Inv, k.pos("kv_connector"), sev, "use \"kv_connector\":\"NixlPushConnector\" on both pools (with a router that sends the prefill and decode legs concurrently)",
			"%s pulls the KV (NIXL READ) from a prefill engine on the same host, which shows no RDMA NICs: unless its GPUs are joined by NVLink, UCX's cuda_ipc cannot serve the read and it falls back to TCP, 0.5 GB/s against 49 GB/s with NixlPushConnector on the same hardware (vllm-project/vllm#52607)", k.Connector)
	}
}

// cudaIPCPath reports a NIXL server whose KV blocks UCX would move between
// processes of one host with cuda_ipc: a CUDA GPU (no other platform shown)
// whose kv_buffer_device is cuda, the default. With "kv_buffer_device":
// "cpu" NIXL registers host staging buffers (vLLM's nixl utils.py
// _NIXL_SUPPORTED_DEVICE: cuda takes "cuda" or "cpu"; tpu, xpu and the
// out-of-tree platforms such as Gaudi stage in "cpu" or their own device
// memory), so the read is a host-memory one and the cuda_ipc limit does
// not apply; on another platform neither does CUDA's IPC.
func cudaIPCPath(s *server) bool {
	if pl := s.Inv.Platform; pl != "" && pl != launch.PlatformCUDA {
		return false
	}
	if d, ok := s.KV().str("kv_buffer_device"); ok && d != "" && d != "cuda" {
		return false
	}
	return true
}
