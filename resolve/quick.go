package resolve

import (
	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/spec"
)

// QuickOptions is the quick form of `vlaunch check` (no spec file).
type QuickOptions struct {
	Model, GPU           string
	TP, PP, DP           int
	EP                   bool
	MaxModelLen          int
	GPUMemoryUtilization float64 // 0 = the version's default
	KVCacheDType         string  // "" = auto
	Weights              string  // "" = auto
	VLLMVersion          string  // "" = the newest release vlaunch knows
	Concurrency          int     // 0 = one sequence
	GPUsPerNode          int     // 0 = min(8, TP×PP×DP)
	// Hardware, when set, is a resolved spec whose GPU (catalog or custom
	// figures) and network replace GPU and the default network: lint
	// --spec asks about a script's layout on the spec's hardware.
	Hardware *Deployment
}

// quickGPUsPerNode is the node size the quick form assumes: the 8-GPU
// baseboards (HGX, DGX, OAM) multi-GPU servers carry.
const quickGPUsPerNode = 8

// Quick resolves the quick form: catalog model and GPU, the layout on
// equal nodes, default network and workload, all2all `auto`. Errors are
// *FieldError naming the flag.
func Quick(o QuickOptions) (*Deployment, error) {
	m, err := catalog.LookupModel(o.Model)
	if err != nil {
		return nil, fieldErr("--model", err.Error(), "see `vlaunch models` for catalog ids")
	}
	g, err := quickGPU(o)
	if err != nil {
		return nil, fieldErr("--gpu", err.Error(), "see `vlaunch gpus`")
	}
	r, ver, notes, err := Release(o.VLLMVersion)
	if err != nil {
		return nil, fieldErr("--vllm-version", err.Error(), "")
	}
	l := Layout{TP: orOne(o.TP), PP: orOne(o.PP), DP: orOne(o.DP), EP: o.EP, GPUsPerNode: o.GPUsPerNode}
	n := l.GPUs()
	if l.GPUsPerNode <= 0 {
		l.GPUsPerNode = min(quickGPUsPerNode, n)
	}
	l.Nodes = (n + l.GPUsPerNode - 1) / l.GPUsPerNode
	w := spec.Workload{Concurrency: max(o.Concurrency, 1), MaxModelLen: o.MaxModelLen,
		InputTokens: spec.Defaults.InputTokens, OutputTokens: spec.Defaults.OutputTokens}
	var util *float64
	if o.GPUMemoryUtilization > 0 {
		util = &o.GPUMemoryUtilization
	}
	e := EngineSettings{Weights: o.Weights, KVCacheDType: o.KVCacheDType, Util: util, MaxModelLen: o.MaxModelLen, All2All: "auto"}
	net := networkFromSpec(spec.Network{}, g)
	if o.Hardware != nil {
		net = o.Hardware.Network
	}
	d, err := Build(Parts{Model: m, GPU: g, Release: r, Version: ver, VersionNotes: notes}, l, net, w, e)
	if err != nil {
		return nil, quickPath(err)
	}
	d.Workload.MaxModelLen = d.Engine.MaxModelLen.Value
	// The quick form's --concurrency counts full-length sequences.
	d.Workload.SessionTokens = d.Engine.MaxModelLen.Value
	return d, nil
}

// quickGPU is the spec's resolved GPU, else the catalog's.
func quickGPU(o QuickOptions) (*catalog.GPU, error) {
	if o.Hardware != nil && o.Hardware.GPU != nil {
		return o.Hardware.GPU, nil
	}
	return catalog.LookupGPU(o.GPU)
}

// quickPath names the flag instead of the spec field.
func quickPath(err error) error {
	fe, ok := err.(*FieldError)
	if !ok {
		return err
	}
	flags := map[string]string{"model.weights": "--weights", "vllm.kv_cache_dtype": "--kv-cache-dtype",
		"vllm.gpu_memory_utilization": "--gpu-memory-utilization", "parallelism": "--tp/--pp/--dp"}
	if f, ok := flags[fe.Path]; ok {
		fe.Path = f
	}
	return fe
}
