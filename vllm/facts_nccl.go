package vllm

// srcNCCLGID: NCCL's source declares NCCL_PARAM(IbGidIndex, "IB_GID_INDEX",
// -1); NCCL's environment-variable docs (2.27.3, summarised by Juniper's
// validated designs) say -1 makes NCCL pick the GID itself (a RoCE v2 GID
// of the configured address family, often index 3), and that from NCCL 2.21
// the index no longer needs to be set by hand.
const srcNCCLGID = "raw.githubusercontent.com/NVIDIA/nccl/v2.31.2-1/src/transport/net_ib/connect.cc (NCCL_PARAM IB_GID_INDEX -1); " +
	"NCCL 2.27.3 env docs as quoted in juniper.net JVD AI-DC appendices (\"default value is -1 ... NCCL will automatically select\"; \"Starting with NCCL 2.21 ... no longer needs to be specified manually\")"

// NCCLGIDIndex is what NCCL does with NCCL_IB_GID_INDEX on RoCE.
type NCCLGIDIndex struct {
	// Default is the value NCCL uses when the variable is unset.
	Default int
	// AutoSinceNCCL is the NCCL release from which Default (-1) means
	// "select automatically": a RoCE v2 GID (NCCL_IB_ROCE_VERSION_NUM,
	// default 2) of the address family NCCL_IB_ADDR_FAMILY/NCCL_SOCKET_FAMILY
	// asks for. Older NCCL needs the index set on RoCE.
	AutoSinceNCCL string
	Source        string
}

// NCCLGIDIndexDefault says why a launch script should leave
// NCCL_IB_GID_INDEX unset unless the operator knows the index: NCCL 2.21 and
// later detect it, and a wrong forced index breaks RoCE connections.
var NCCLGIDIndexDefault = NCCLGIDIndex{Default: -1, AutoSinceNCCL: "2.21", Source: srcNCCLGID}
