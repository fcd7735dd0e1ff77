package resolve

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// Colocated is the colocated deployment a P/D deployment is compared with
// in `vlaunch check`: every node of the spec runs the decode pool's layout
// scaled to all the GPUs — its data-parallel size (or, for a layout
// without DP, its instances) times the ratio of all GPUs to the decode
// pool's — with the engine settings a colocated spec of these nodes would
// carry (ColocatedVLLM). It is assembled from the decode pool's resolved
// parts, so model, GPU, release and calibration are the same. An error
// says why no such layout exists (the GPUs are not a whole multiple of the
// decode pool's, or the layout does not place).
func (d *Deployment) Colocated() (*Deployment, error) {
	if d == nil || d.PD == nil || d.Spec == nil || len(d.PD.Roles) != len(spec.Roles) {
		return nil, fmt.Errorf("not a disaggregated deployment")
	}
	dec := d.PD.Roles[len(d.PD.Roles)-1].Deployment
	view := d.Spec.RoleView(spec.RoleDecode)
	if dec == nil || view == nil {
		return nil, fmt.Errorf("no decode pool")
	}
	all := 0
	for _, n := range d.Spec.GPUNodes() {
		all += n.GPUs
	}
	pool := dec.Layout.TotalGPUs()
	if pool <= 0 || all%pool != 0 {
		return nil, fmt.Errorf("the %d GPUs are not a whole multiple of the decode pool's %d", all, pool)
	}
	k := all / pool
	view.Hardware.Nodes = d.Spec.GPUNodes() // not a P/D router's CPU-only host
	view.Metadata.Name = d.Spec.Metadata.Name + "-colocated"
	view.VLLM = ColocatedVLLM(d.Spec)
	if b, _ := prefillBackend(d, view.VLLM); b != "" {
		view.VLLM.All2AllBackend = b
	}
	if view.Parallelism.Data > 1 && view.Parallelism.ReplicaCount() == 1 {
		view.Parallelism.Data *= k
	} else {
		view.Parallelism.Replicas = view.Parallelism.ReplicaCount() * k
	}
	out, err := Assemble(view, Parts{Model: dec.Model, GPU: dec.GPU, Release: dec.Release, Version: dec.Version,
		VersionNotes: dec.VersionNotes, Calibration: dec.Calibration, Draft: dec.draft})
	if err != nil {
		return nil, err
	}
	if _, err := Place(out.Layout, out.NodeGPUs(), out.Release); err != nil {
		return nil, fmt.Errorf("the colocated layout does not place: %v", err)
	}
	return out, nil
}

// ColocatedVLLM is the engine settings the colocated comparison of P/D
// spec s runs: its top-level vllm block — what both pools start from, and
// what a colocated spec of these nodes carries, so an `auto` all-to-all
// backend resolves as a colocated deployment's, by the workload's
// input:output ratio (vllm.Release.AutoAll2All) — with the overrides both
// pools set alike. An override of one pool is its role's choice: the
// decode pool's DeepEP low-latency kernels (which cap the batched-DP
// token budget at 256 in vLLM's default) or a prefill pool's large token
// budget would handicap or favour the colocated side (qa43: DeepSeek-V3.2
// on 2 × 8 B200, 8,000-token prompts, colocated on the decode pool's
// deepep_low_latency: 4,475 tokens/s, TTFT p50 12.6 s).
func ColocatedVLLM(s *spec.Deployment) spec.VLLM {
	v := s.VLLM
	p, q := s.Disaggregation.Pool(spec.RolePrefill), s.Disaggregation.Pool(spec.RoleDecode)
	if p == nil || q == nil {
		return v
	}
	return sharedOverrides(p.VLLM, q.VLLM).Merged(v)
}

// sharedOverrides are the overrides two pools set to the same value.
func sharedOverrides(a, b spec.PoolVLLM) spec.PoolVLLM {
	out := spec.PoolVLLM{
		GPUMemoryUtilization:      same(a.GPUMemoryUtilization, b.GPUMemoryUtilization),
		KVCacheDType:              same(a.KVCacheDType, b.KVCacheDType),
		All2AllBackend:            same(a.All2AllBackend, b.All2AllBackend),
		MaxNumSeqs:                same(a.MaxNumSeqs, b.MaxNumSeqs),
		MaxNumBatchedTokens:       same(a.MaxNumBatchedTokens, b.MaxNumBatchedTokens),
		BlockSize:                 same(a.BlockSize, b.BlockSize),
		APIServerCount:            same(a.APIServerCount, b.APIServerCount),
		DecodeContextParallelSize: same(a.DecodeContextParallelSize, b.DecodeContextParallelSize),
		EnforceEager:              same(a.EnforceEager, b.EnforceEager),
		EnableDBO:                 same(a.EnableDBO, b.EnableDBO),
		EnableEPLB:                same(a.EnableEPLB, b.EnableEPLB),
		NumRedundantExperts:       same(a.NumRedundantExperts, b.NumRedundantExperts),
	}
	if a.Speculative != nil && b.Speculative != nil && reflect.DeepEqual(*a.Speculative, *b.Speculative) {
		out.Speculative = a.Speculative
	}
	if slices.Equal(a.ExtraArgs, b.ExtraArgs) {
		out.ExtraArgs = a.ExtraArgs
	}
	for k, x := range a.Env {
		if y, ok := b.Env[k]; ok && x == y {
			if out.Env == nil {
				out.Env = map[string]string{}
			}
			out.Env[k] = x
		}
	}
	return out
}

// same is a when b sets the same value, else nil.
func same[T comparable](a, b *T) *T {
	if a != nil && b != nil && *a == *b {
		return a
	}
	return nil
}

// ColocatedBackendNote says where the colocated comparison's all-to-all
// backend comes from when it is not the spec's top-level one (the prefill
// pool's, prefillBackend), "" otherwise.
func (d *Deployment) ColocatedBackendNote() string {
	if d == nil || d.PD == nil || d.Spec == nil || len(d.PD.Roles) != len(spec.Roles) {
		return ""
	}
	_, why := prefillBackend(d, ColocatedVLLM(d.Spec))
	return why
}

// prefillBackend is the backend the colocated comparison runs over an
// `auto` (or unset) top-level one, and why: where the decode pool's
// kernels are a decode-only choice (DeepEP low-latency, which vLLM's EP
// guide pairs with a P/D decode pool,
// docs/serving/expert_parallel_deployment.md), the colocated engine, which
// prefills too, runs the prefill pool's — the colocated auto rule
// (vllm.Release.AutoAll2All) picks low-latency again for a decode-heavy
// ratio, with its 256-token batched-DP budget on 8,000-token prompts.
// "" when the top-level names a backend or the decode pool's is not
// low-latency.
func prefillBackend(d *Deployment, v spec.VLLM) (string, string) {
	if b := v.All2AllBackend; b != "" && b != "auto" {
		return "", ""
	}
	pre, dec := d.PD.Roles[0].Deployment, d.PD.Roles[len(d.PD.Roles)-1].Deployment
	if pre == nil || dec == nil || dec.Engine.All2All.Value != vllm.BackendDeepEPLowLatency || pre.Engine.All2All.Value == "" {
		return "", ""
	}
	b := pre.Engine.All2All.Value
	return b, fmt.Sprintf("all2all %s is the prefill pool's: the decode pool's %s is a decode-only choice", b, vllm.BackendDeepEPLowLatency)
}
