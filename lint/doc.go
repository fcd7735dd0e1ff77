// Package lint finds mistakes in hand-written vLLM launch configurations
// before a multi-minute start-up turns them into a hang or a crash.
//
// Package launch (the front end) turns shell scripts, Kubernetes manifests
// and Compose files into invocations. Lint reads each server's arguments
// against the vLLM release it targets (package vllm) and runs the rules,
// listed in one explicit slice (Rules) and filed by code family: VL0xx the
// front end and the linter itself, VL1xx one server, VL2xx the deployment the
// servers form together, VL3xx the shell and container text, VL4xx the
// hardware of a vlaunch spec. A KV-capacity check (VL125) uses the function
// the caller passes in Options, so lint depends on no estimator.
//
// Servers are grouped into deployments before the VL2xx rules (group.go):
// one model, DP size, role and manifest object, then one DP coordinator.
// Prefill/decode disaggregation runs several independent engines joined by
// a KV connector; each primary server of such an engine heads an instance
// of its own (pd_instances.go), and --kv-transfer-config is read as vLLM
// reads it (kvconfig.go) for the P/D rules (VL132-VL133, VL222-VL227).
package lint
