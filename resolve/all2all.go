package resolve

import "github.com/vlaunch/vlaunch/vllm"

// noAll2AllWhy says why no backend runs.
const noAll2AllWhy = "no all-to-all: the kernels only run with DP > 1 and expert parallelism"

// resolveAll2All sets the backend the bundle selects (All2AllWritten) and
// the one that will run (All2All). vlaunch writes the spec's backend, or its
// `auto` choice, through the release's mechanism, except when a
// VLLM_ALL2ALL_BACKEND in vllm.env decides anyway: with `auto` (vlaunch
// never contradicts the user's variable) and in releases that only read the
// variable (the user's export comes last and wins). What runs then follows
// vLLM's own precedence (vllm.Release.All2AllSelected), so `check` costs the
// backend the generated bundle starts.
func (d *Deployment) resolveAll2All() {
	eng := &d.Engine
	eng.All2AllWritten = ""
	if !d.Layout.EP || d.Layout.DP <= 1 {
		eng.All2All = set("", SourceDerived, noAll2AllWhy)
		return
	}
	r := d.Release
	userEnv := eng.Env[vllm.All2AllEnv]
	asked, from, why := eng.All2AllAsked, SourceSpec, "set in the spec"
	auto := asked == "" || asked == "auto"
	if auto {
		asked, why = r.AutoAll2All(d.autoContext())
		from = SourceAuto
	}
	envDecides := userEnv != "" && r.ReadsAll2AllEnv() && (auto || r.All2AllVia() == vllm.ViaEnv)
	if !envDecides {
		eng.All2AllWritten = asked
	}
	flag, env := "", userEnv
	switch {
	case eng.All2AllWritten == "":
	case r.All2AllVia() == vllm.ViaFlag:
		flag = eng.All2AllWritten
	default:
		env = eng.All2AllWritten
	}
	backend, by := r.All2AllSelected(flag, env)
	switch {
	case by == vllm.ViaEnv && envDecides:
		eng.All2All = set(backend, SourceEnv, vllm.All2AllEnv+"="+userEnv+" in vllm.env")
	case by == 0:
		eng.All2All = set(backend, SourceRelease, "vLLM "+d.Version.Value+" default")
	default:
		eng.All2All = set(backend, from, why)
	}
}

// autoContext is the input of vllm's auto backend rule for this layout.
func (d *Deployment) autoContext() vllm.AutoContext {
	return vllm.AutoContext{
		DP: d.Layout.DP, EP: d.Layout.EP, MultiNode: d.MultiNode(),
		GPUDirectRDMA: d.Network.GPUDirectRDMA, FabricKind: d.Network.InterKind,
		InputTokens: d.Workload.InputTokens, OutputTokens: d.Workload.OutputTokens,
		AMD:  d.GPU != nil && d.GPU.Vendor == "amd",
		Pool: d.pool(),
	}
}

// pool is the P/D pool this deployment is (spec.Deployment.Pool; "" for
// a colocated one).
func (d *Deployment) pool() string {
	if d.Spec == nil {
		return ""
	}
	return d.Spec.Pool
}

// MultiNode reports whether one replica's ranks run on more than one node:
// where Place puts them (whatever the release can express), or, when it
// cannot place them (or in the quick form), whether they outnumber one
// node's GPUs.
func (d *Deployment) MultiNode() bool {
	if d.Spec != nil {
		if p, err := place(d.Layout, d.NodeGPUs()); err == nil {
			return p.ReplicaNodes > 1
		}
	}
	return d.Layout.MultiNode()
}
