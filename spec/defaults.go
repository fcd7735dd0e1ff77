package spec

import (
	"path/filepath"
	"strings"
)

// Defaults are the values vlaunch assumes when a spec leaves a field out.
// They live in one place so `vlaunch validate --show-defaults` can print
// them. Defaults that depend on the vLLM version (gpu_memory_utilization,
// max_num_seqs, max_num_batched_tokens, api_server_count) are resolved by
// package vllm, because they change between releases.
var Defaults = struct {
	Weights          string
	ThroughputCounts string
	KVCacheDType     string
	All2AllBackend   string
	Port             int
	RPCPort          int
	RuntimeKind      string
	NICsPerNode      int
	// InterNodeLatencyUs is the one-way latency assumed per fabric kind when
	// the spec gives none: typical switch + NIC figures, documented, not measured.
	InterNodeLatencyUs map[string]float64
	IntraNodeLatencyUs float64
	InputTokens        int
	OutputTokens       int
	// DockerShmSize is the /dev/shm size of a Kubernetes pod (an emptyDir
	// in memory). Docker containers share the host's IPC namespace unless
	// runtime.docker.shm_size asks for a private /dev/shm of that size.
	DockerShmSize string
	KubernetesNS  string
}{
	Weights:          "auto",
	ThroughputCounts: "output",
	KVCacheDType:     "auto",
	All2AllBackend:   "auto",
	Port:             8000,
	RPCPort:          13345,
	RuntimeKind:      "bare",
	NICsPerNode:      1,
	InterNodeLatencyUs: map[string]float64{
		"infiniband": 2,
		"roce":       5,
		"ethernet":   20,
	},
	IntraNodeLatencyUs: 2,
	InputTokens:        1024,
	OutputTokens:       512,
	DockerShmSize:      "64g",
	KubernetesNS:       "default",
}

// ApplyDefaults fills every field the user left empty with the value from
// Defaults. It never overwrites what the user wrote.
func ApplyDefaults(d *Deployment) {
	if d.Metadata.Name == "" {
		d.Metadata.Name = defaultName(d)
	}
	setStr(&d.Model.Weights, Defaults.Weights)
	setStr(&d.SLO.ThroughputCounts, Defaults.ThroughputCounts)
	setStr(&d.VLLM.KVCacheDType, Defaults.KVCacheDType)
	setStr(&d.VLLM.All2AllBackend, Defaults.All2AllBackend)
	if d.Disaggregation != nil && !d.Disaggregation.Router.LLMD() {
		setInt(&d.VLLM.Port, DefaultPDEnginePort)
	}
	setInt(&d.VLLM.Port, Defaults.Port)
	setInt(&d.VLLM.RPCPort, Defaults.RPCPort)
	setStr(&d.Runtime.Kind, Defaults.RuntimeKind)
	setInt(&d.Workload.InputTokens, Defaults.InputTokens)
	setInt(&d.Workload.OutputTokens, Defaults.OutputTokens)
	applyNetworkDefaults(&d.Hardware.Network)
	if d.Disaggregation != nil {
		applyPoolDefaults(d)
	} else {
		applyParallelDefaults(d)
		applyRouterDefaults(d)
	}
	// Runtime sections only get defaults for the kind in use, so that
	// --show-defaults does not print settings that cannot matter.
	switch d.Runtime.Kind {
	case "kubernetes":
		setStr(&d.Runtime.Kubernetes.Namespace, Defaults.KubernetesNS)
		setStr(&d.Runtime.Kubernetes.ShmSize, Defaults.DockerShmSize)
	}
	if d.Runtime.Image == "" && d.VLLM.Version != "" {
		d.Runtime.Image = "vllm/vllm-openai:v" + d.VLLM.Version
	}
}

func applyNetworkDefaults(n *Network) {
	setInt(&n.InterNode.NICsPerNode, Defaults.NICsPerNode)
	if n.InterNode.LatencyUs == 0 {
		n.InterNode.LatencyUs = Defaults.InterNodeLatencyUs[n.InterNode.Kind]
	}
	if n.IntraNode.LatencyUs == 0 {
		n.IntraNode.LatencyUs = Defaults.IntraNodeLatencyUs
	}
	if n.InterNode.GPUDirectRDMA == nil && n.InterNode.Kind != "" {
		v := n.InterNode.Kind == "infiniband" || n.InterNode.Kind == "roce"
		n.InterNode.GPUDirectRDMA = &v
	}
}

// applyParallelDefaults fills TP/PP with 1 and DP with what the GPUs allow
// (shared by the replicas).
func applyParallelDefaults(d *Deployment) {
	p := &d.Parallelism
	if p.Auto {
		return
	}
	setInt(&p.Tensor, 1)
	setInt(&p.Pipeline, 1)
	if p.Data == 0 {
		p.Data = 1
		if tp := p.Tensor * p.Pipeline * p.ReplicaCount(); tp > 0 && d.TotalGPUs() >= tp {
			p.Data = d.TotalGPUs() / tp
		}
	}
}

func defaultName(d *Deployment) string {
	if d.File != "" {
		base := filepath.Base(d.File)
		return strings.TrimSuffix(strings.TrimSuffix(base, ".yaml"), ".yml")
	}
	return "vlaunch"
}

func setStr(p *string, v string) {
	if *p == "" {
		*p = v
	}
}

func setInt(p *int, v int) {
	if *p == 0 {
		*p = v
	}
}
