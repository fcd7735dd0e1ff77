package codes

import "github.com/vlaunch/vlaunch/diag"

// Preflight codes (PFxxx), one per host check; the entry's name is the
// check id `--only` and `--skip` take. The hundreds follow the check
// groups: 1 gpu, 2 net, 3 ports, 4 rdma, 5 host, 6 model, 7 sw. A failed
// check is an error, a warn a warning.
const (
	PFGPUCount           diag.Code = "PF101"
	PFGPUModel           diag.Code = "PF102"
	PFGPUMemory          diag.Code = "PF103"
	PFGPUDriver          diag.Code = "PF104"
	PFGPUProcesses       diag.Code = "PF105"
	PFGPUFabric          diag.Code = "PF106"
	PFGPUIMEXChannel     diag.Code = "PF107"
	PFNetInterface       diag.Code = "PF201"
	PFNetAddress         diag.Code = "PF202"
	PFNetRoute           diag.Code = "PF203"
	PFNetPrimaryLoopback diag.Code = "PF204"
	PFPortsFree          diag.Code = "PF301"
	PFPortsNixl          diag.Code = "PF302"
	PFRDMADevices        diag.Code = "PF401"
	PFRDMAPortState      diag.Code = "PF402"
	PFRDMAGID            diag.Code = "PF403"
	PFRDMANICVendor      diag.Code = "PF404"
	PFRDMADriverOptions  diag.Code = "PF405"
	PFRDMAGDRCopy        diag.Code = "PF406"
	PFRDMAMemlock        diag.Code = "PF407"
	PFHostShm            diag.Code = "PF501"
	PFHostMemory         diag.Code = "PF502"
	PFHostDisk           diag.Code = "PF503"
	PFModelPath          diag.Code = "PF601"
	PFModelConfig        diag.Code = "PF602"
	PFModelSize          diag.Code = "PF603"
	PFSWVLLMVersion      diag.Code = "PF701"
	PFSWBackendPackages  diag.Code = "PF702"
	PFSWNixl             diag.Code = "PF703"
	PFSWRouter           diag.Code = "PF704"
)

// preflightEntries are the PF codes in report order.
var preflightEntries = []Entry{
	{PFGPUCount, "gpu.count", diag.Error, "GPUs visible on this node"},
	{PFGPUModel, "gpu.model", diag.Error, "GPU model matches hardware.gpu"},
	{PFGPUMemory, "gpu.memory", diag.Error, "Memory per GPU matches hardware.gpu"},
	{PFGPUDriver, "gpu.driver", diag.Error, "NVIDIA driver version present"},
	{PFGPUProcesses, "gpu.processes", diag.Error, "No other process holds GPU memory"},
	{PFGPUFabric, "gpu.fabric", diag.Error, "GPUs registered with the multi-node NVLink fabric, in one partition"},
	{PFGPUIMEXChannel, "gpu.imex_channel", diag.Error, "An IMEX channel for multi-node NVLink"},
	{PFNetInterface, "net.interface", diag.Error, "Declared interface exists and is up"},
	{PFNetAddress, "net.address", diag.Error, "Declared address is on this host"},
	{PFNetRoute, "net.route", diag.Error, "Routes to peers leave through the declared interface"},
	{PFNetPrimaryLoopback, "net.primary_loopback", diag.Error, "Primary address is not loopback"},
	{PFPortsFree, "ports.free", diag.Error, "Ports the bundle binds are free"},
	{PFPortsNixl, "ports.nixl_side_channel", diag.Error, "NIXL side-channel ports of a P/D pool's node are free"},
	{PFRDMADevices, "rdma.devices", diag.Error, "RDMA devices exist"},
	{PFRDMAPortState, "rdma.port_state", diag.Error, "RDMA ports are active"},
	{PFRDMAGID, "rdma.gid", diag.Error, "RoCE v2 GID at the configured index"},
	{PFRDMANICVendor, "rdma.nic_vendor", diag.Error, "NICs can do GPU-initiated RDMA (mlx5)"},
	{PFRDMADriverOptions, "rdma.driver_options", diag.Error, "NVIDIA driver options for IBGDA"},
	{PFRDMAGDRCopy, "rdma.gdrcopy", diag.Error, "gdrcopy kernel module loaded"},
	{PFRDMAMemlock, "rdma.memlock", diag.Error, "Locked-memory limit is unlimited"},
	{PFHostShm, "host.shm", diag.Error, "/dev/shm size"},
	{PFHostMemory, "host.memory", diag.Warning, "Host memory for this node's vLLM processes while they load"},
	{PFHostDisk, "host.disk", diag.Error, "Free disk at the model path"},
	{PFModelPath, "model.path", diag.Error, "Model directory exists"},
	{PFModelConfig, "model.config", diag.Error, "config.json matches the spec's model"},
	{PFModelSize, "model.size", diag.Error, "Weight files are complete"},
	{PFSWVLLMVersion, "sw.vllm_version", diag.Error, "Installed vLLM version"},
	{PFSWBackendPackages, "sw.backend_packages", diag.Error, "Python packages the all2all backend needs"},
	{PFSWNixl, "sw.nixl", diag.Error, "The NIXL Python package a P/D pool's KV connector needs"},
	{PFSWRouter, "sw.router", diag.Error, "The vLLM router's program on the router's node"},
}
