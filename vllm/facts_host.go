package vllm

// srcSharedHost: what a `vllm serve` whose engines all run on its own host
// binds, for several of them on one host (replicas smaller than a node).
const srcSharedHost = "vllm@0018dd01:vllm/v1/engine/utils.py launch_core_engines (client_local_only and handshake_local_only " +
	"when data_parallel_size_local == data_parallel_size: the front end and its engines talk over IPC paths, " +
	"data_parallel_rpc_port is not bound); vllm/config/parallel.py ParallelConfig.__post_init__ (data_parallel_master_port " +
	"from get_open_ports_list); vllm/utils.py get_open_port (the 0.9-0.10 line, commit unverified: with VLLM_PORT unset " +
	"the OS picks a free port; set, the first free port from VLLM_PORT, tested then released, so engines starting together may race for it)"

// SharedHost says which ports of a single-host `vllm serve` (every DP
// engine on its host) another one on the same host must not share: the
// API port (--port) always; the frontend's fixed RPC port where the
// release has one (FrontendRPC); the NIXL side channel of a P/D engine
// (NixlSidePorts). Its DP handshake goes over IPC and its internal ports
// (torch.distributed, the DP group) are picked free by the OS while
// VLLM_PORT is unset, so nothing else needs a value of its own.
type SharedHost struct {
	// RPCPortEnv, when not "", is the variable each server sets to its own
	// port, from RPCPortBase up (the release's fixed frontend port).
	RPCPortEnv  string
	RPCPortBase int
	// PortBaseEnv is the variable that would make every server's internal
	// ports start at one base (VLLM_PORT): left unset for servers sharing a host.
	PortBaseEnv string
	Source      string
}

// SharedHost returns the release's facts for servers sharing a host.
func (r Release) SharedHost() SharedHost {
	f := r.FrontendRPC()
	s := SharedHost{PortBaseEnv: "VLLM_PORT", Source: srcSharedHost + "; " + f.Source}
	if f.FixedTCPPort > 0 {
		s.RPCPortEnv, s.RPCPortBase = f.PortEnv, f.FixedTCPPort
	}
	return s
}
