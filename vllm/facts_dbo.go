package vllm

// srcDBO: VllmConfig.__post_init__ (vllm/config/vllm.py) asserts the
// all-to-all backend when micro-batching (DBO) is on. Stored copies show
// three generations: reading VLLM_ALL2ALL_BACKEND and allowing only
// deepep_low_latency (the 0.11.0 form, before --all2all-backend); reading
// parallel_config.all2all_backend and allowing deepep_low_latency or
// deepep_high_throughput (a third-party note places it in 0.17.1's
// vllm/config/vllm.py:1128-1134; PR #31423 per vllm-facts.md); and newest
// main adding nixl_ep.
const srcDBO = "vllm/config/vllm.py VllmConfig.__post_init__ assertion (stored copies of three versions); PR #23693 (DBO); " +
	"PR #31423 (deepep_high_throughput allowed, per vllm-facts.md); third-party note: 0.17.1 vllm/config/vllm.py:1128-1134; release boundaries unverified"

// DBOMessage starts the assertion vLLM raises for --enable-dbo with another
// backend.
const DBOMessage = "Microbatching currently only supports the deepep_low_latency"

// DBORequirement is what --enable-dbo needs in a release: a config-time
// assertion in vllm/config/vllm.py, so vLLM refuses to start otherwise.
type DBORequirement struct {
	// Available is whether --enable-dbo exists.
	Available Presence
	// Backends are the all-to-all backends the assertion accepts; every
	// one is a DeepEP backend, so DBO without DeepEP is an error.
	Backends []string
	Where    string
	Verified bool
	Source   string
}

// dboHTSince: deepep_high_throughput accepted from this release (PR #31423
// era; 0.14.0 assumed, unverified).
var dboHTSince = v0140

// DBORequirement returns the release's DBO precondition.
func (r Release) DBORequirement() DBORequirement {
	d := DBORequirement{Where: "vllm/config/vllm.py VllmConfig.__post_init__", Source: srcDBO,
		Backends: []string{BackendDeepEPLowLatency}}
	if f, ok := KnownFlagEver("enable-dbo"); ok {
		d.Available = f.In(r.Version)
	}
	if r.Version.AtLeast(dboHTSince) {
		d.Backends = append(d.Backends, BackendDeepEPHighThroughput)
	}
	return d
}

// Accepts reports whether DBO may run with the backend.
func (d DBORequirement) Accepts(backend string) bool {
	for _, b := range d.Backends {
		if b == backend {
			return true
		}
	}
	return false
}
