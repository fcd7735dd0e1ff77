package vllm

// When a decode engine sees that a KV load has finished. The V1 engine
// learns it from a model step's output, not when the transfer ends: the
// worker starts a request's NIXL reads inside the step that scheduled it
// (kv_connector_model_runner_mixin.maybe_setup_kv_connector: "Background
// KV cache transfers happen here ... start_load_kv"; with nothing else to
// run the engine still steps, kv_connector_no_forward: "KV send/recv even
// if no work to do"), reports the finished ones in that step's output
// (KVConnectorBase_V1.get_finished: "returns ids of requests that have
// completed async sending/recving"), and the scheduler moves the request
// from WAITING_FOR_REMOTE_KVS to WAITING at the next schedule()
// (scheduler._update_from_kv_xfer_finished: "add to state so we can
// schedule the request during the next step"; _update_waiting_for_remote_kv:
// "populated on the previous steps()'s update_from_output"), where the step
// computes the prompt's last token and samples the first. Read in vLLM's API
// reference of v0.10.2 and v0.11.2 (docs.vllm.ai/en/<release>/api/vllm/v1/
// core/sched/scheduler, .../v1/worker/kv_connector_model_runner_mixin,
// .../distributed/kv_transfer/kv_connector/v1/base), the source those pages
// render.
const srcKVLoadNoticed = "vLLM v0.10.2 and v0.11.2: vllm/v1/core/sched/scheduler.py (_update_from_kv_xfer_finished, " +
	"_update_waiting_for_remote_kv), vllm/v1/worker/kv_connector_model_runner_mixin.py (maybe_setup_kv_connector, " +
	"kv_connector_no_forward), vllm/distributed/kv_transfer/kv_connector/v1/base.py (get_finished)"

// KVLoadNoticedAtStepEnd reports whether the release's decode engine
// notices a finished KV load only at the end of a model step and schedules
// the request at the step after it (srcKVLoadNoticed): every release with
// the V1 KV connector API, which P/D deployments need.
func (r Release) KVLoadNoticedAtStepEnd() bool { return !r.Version.Less(v090) }

// KVLoadNoticedSource cites KVLoadNoticedAtStepEnd.
func KVLoadNoticedSource() string { return srcKVLoadNoticed }

// Without --kv-transfer-config an engine has no KV connector, and a request
// that arrives with the prefill's kv_transfer_params (as a router or
// Dynamo's decode handler sends it) is prefilled from its first token like
// any other: the scheduler creates its connector only from the config
// (Scheduler.__init__: "self.connector = None" unless
// "self.vllm_config.kv_transfer_config is not None"), and every remote-KV
// path (get_num_new_matched_tokens, WAITING_FOR_REMOTE_KVS) sits behind
// "if self.connector is not None". Read in copies of
// vllm/v1/core/sched/scheduler.py from v0.9-era to 2026 main held by the
// search index (the same in all); no release's own file was pinned.
const srcNoConnector = "vllm/v1/core/sched/scheduler.py (Scheduler.__init__: the KV connector is created only when " +
	"kv_transfer_config is set), copies from v0.9-era to 2026 main; no release's own file pinned"

// NoConnectorRecomputes reports whether an engine of the release launched
// without a KV connector computes a request's whole prompt whatever
// kv_transfer_params the request carries (srcNoConnector): every release
// with the V1 KV connector API.
func (r Release) NoConnectorRecomputes() bool { return !r.Version.Less(v090) }

// NoConnectorSource cites NoConnectorRecomputes.
func NoConnectorSource() string { return srcNoConnector }
