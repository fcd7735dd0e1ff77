package vllm

// srcDBO: VllmConfig.__post_init__ asserts the all-to-all backend when
// micro-batching (DBO) is on, read at every release tag v0.11.0-v0.24.0
// (qa44a F8). v0.11.0 (vllm/config/__init__.py:480-488) reads
// VLLM_ALL2ALL_BACKEND and allows deepep_low_latency or
// deepep_high_throughput; v0.11.1-v0.23.0 (vllm/config/vllm.py, e.g.
// v0.11.1:681-688) read parallel_config.all2all_backend and allow the same
// two; v0.24.0 (vllm/config/vllm.py:1427-1440) adds nixl_ep, which
// v0.23.0's assertion lacks.
const srcDBO = "vllm/config/vllm.py VllmConfig.__post_init__ assertion read at the release tags (" + srcKzTags + "): " +
	"v0.11.0 vllm/config/__init__.py:480-488 (VLLM_ALL2ALL_BACKEND in deepep_low_latency, deepep_high_throughput); " +
	"v0.11.1-v0.23.0 vllm/config/vllm.py (parallel_config.all2all_backend, the same two); v0.24.0 vllm/config/vllm.py:1427-1440 adds nixl_ep; PR #23693 (DBO)"

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

// dboNixlEP is when the assertion accepts nixl_ep: read at v0.24.0,
// absent at v0.23.0 (srcDBO).
var dboNixlEP = Span{Since: v0240}

// dboTagsRead is the newest release whose assertion was read at its tag;
// later releases follow the newest form but are not verified.
var dboTagsRead = v0240

// DBORequirement returns the release's DBO precondition.
func (r Release) DBORequirement() DBORequirement {
	d := DBORequirement{Where: "vllm/config/vllm.py VllmConfig.__post_init__", Source: srcDBO,
		Backends: []string{BackendDeepEPLowLatency, BackendDeepEPHighThroughput},
		Verified: !r.Version.Base().Less(v0110) && !dboTagsRead.Less(r.Version.Base())}
	if f, ok := KnownFlagEver("enable-dbo"); ok {
		d.Available = f.In(r.Version)
	}
	if dboNixlEP.In(r.Version) != Absent {
		d.Backends = append(d.Backends, BackendNixlEP)
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
