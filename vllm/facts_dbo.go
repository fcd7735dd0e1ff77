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

// srcDBOSchedule: vLLM's DBO design doc, docs/design/dbo.md (stored copies
// at commits 0621454 and 07eff72; the release each shipped in is not
// pinned): the UBatchWrapper runs the model once per micro-batch, each in
// its own CPU thread, and the two threads ping-pong at yield points in
// FusedMoEModularKernel.forward; the later copy draws the schedule per MoE
// layer as D₁, D₀, C₁, C₀ on the communication side.
const srcDBOSchedule = "vllm docs/design/dbo.md (stored copies at 0621454 and 07eff72; release not pinned): UBatchWrapper runs the model once per micro-batch thread; schedule D1, D0, C1, C0 per MoE layer"

// DBOMicroBatches is the number of micro-batches DBO splits a step into;
// each runs its own all-to-all dispatch and combine in every MoE layer
// (srcDBOSchedule), so a layer makes DBOMicroBatches calls of each.
const DBOMicroBatches = 2

// DBOScheduleSource cites DBOMicroBatches.
const DBOScheduleSource = srcDBOSchedule

// DBOMessage starts the assertion vLLM raises for --enable-dbo with another
// backend.
const DBOMessage = "Microbatching currently only supports the deepep_low_latency"

// DBORequirement is what --enable-dbo needs in a release: a config-time
// assertion in vllm/config/vllm.py, so vLLM refuses to start otherwise.
type DBORequirement struct {
	// Available is whether --enable-dbo exists.
	Available Presence
	// Backends are the all-to-all backends the assertion may accept in the
	// release (lenient, like a flag's Since: no consumer calls a backend
	// refused where the release may take it); every one is a DeepEP
	// backend, so DBO without DeepEP is an error.
	Backends []string
	// MaybeBackends is the part of Backends no source shows for this
	// release: a later release is seen accepting them (Seen), but where the
	// assertion began to is not pinned, so it cannot be verified here.
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
// every earlier release (issue #23); 0.11.1-0.17.0 are unknown, not refused:
// they accept it leniently (Accepts) and say it is unverified (MayAccept).
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
		d.Backends = append(d.Backends, BackendDeepEPHighThroughput)
		d.MaybeBackends = append(d.MaybeBackends, BackendDeepEPHighThroughput)
		d.Seen = dboHT.FirstConfirmed()
	}
	return d
}

// Accepts reports whether the release may let DBO run with the backend
// (Backends): an unverified backend counts, as vLLM may well take it.
func (d DBORequirement) Accepts(backend string) bool { return contains(d.Backends, backend) }

// MayAccept reports whether the release's acceptance of the backend is
// unverified (MaybeBackends): a source shows it only in a later release.
func (d DBORequirement) MayAccept(backend string) bool { return contains(d.MaybeBackends, backend) }

// CertainBackends are the Backends a source shows the release accepting.
func (d DBORequirement) CertainBackends() []string {
	var out []string
	for _, b := range d.Backends {
		if !d.MayAccept(b) {
			out = append(out, b)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
