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
package lint
