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
	"PR #31423 (deepep_high_throughput allowed, per vllm-facts.md); third-party note: 0.17.1 vllm/config/vllm.py:1128-1134 (first release seen accepting deepep_high_throughput); " +
	"the release that began to accept it (0.11.1-0.17.1) is unverified"

// DBOMessage starts the assertion vLLM raises for --enable-dbo with another
// backend.
const DBOMessage = "Microbatching currently only supports the deepep_low_latency"

// DBORequirement is what --enable-dbo needs in a release: a config-time
// assertion in vllm/config/vllm.py, so vLLM refuses to start otherwise.
type DBORequirement struct {
	// Available is whether --enable-dbo exists.
	Available Presence
	// Backends are the all-to-all backends the assertion certainly accepts
	// in the release; every one is a DeepEP backend, so DBO without DeepEP
	// is an error.
	Backends []string
	// MaybeBackends are backends the release may accept: a later release
	// is seen accepting them (Seen), but where the assertion began to is
	// not pinned, so for this release it cannot be verified either way.
	MaybeBackends []string
	// Seen is the first release a source shows MaybeBackends accepted in.
	Seen     Version
	Where    string
	Verified bool
	Source   string
}

// dboHT is when the assertion accepts deepep_high_throughput. Since: the
// 0.11.0 form reads VLLM_ALL2ALL_BACKEND and allows deepep_low_latency
// only, so 0.11.1 (the first release with --all2all-backend) is the
// earliest that may accept it. Confirmed: the third-party note that places
// the two-backend assertion in 0.17.1's vllm/config/vllm.py. It was
// recorded as "0.14.0 assumed" before, which made lint call it refused on
// every earlier release (issue #23); 0.11.1-0.17.0 are unknown, not refused.
var dboHT = Span{Since: v0111, Confirmed: v0171}

// DBORequirement returns the release's DBO precondition.
func (r Release) DBORequirement() DBORequirement {
	d := DBORequirement{Where: "vllm/config/vllm.py VllmConfig.__post_init__", Source: srcDBO,
		Backends: []string{BackendDeepEPLowLatency}}
	if f, ok := KnownFlagEver("enable-dbo"); ok {
		d.Available = f.In(r.Version)
	}
	switch dboHT.In(r.Version) {
	case Present:
		d.Backends = append(d.Backends, BackendDeepEPHighThroughput)
	case Maybe:
		d.MaybeBackends = append(d.MaybeBackends, BackendDeepEPHighThroughput)
		d.Seen = dboHT.FirstConfirmed()
	}
	return d
}

// Accepts reports whether the release certainly lets DBO run with the
// backend.
func (d DBORequirement) Accepts(backend string) bool {
	for _, b := range d.Backends {
		if b == backend {
			return true
		}
	}
	return false
}

// MayAccept reports whether the release may let DBO run with the backend
// although no source shows it for this release (MaybeBackends).
func (d DBORequirement) MayAccept(backend string) bool {
	for _, b := range d.MaybeBackends {
		if b == backend {
			return true
		}
	}
	return false
}
