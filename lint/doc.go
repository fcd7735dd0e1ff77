// Package lint finds mistakes in hand-written vLLM launch configurations
// before a multi-minute start-up turns them into a hang or a crash.
//
// Front ends turn shell scripts (parsed with mvdan.cc/sh/v3) and Kubernetes
// manifests (parsed as yaml.v3 nodes to keep positions) into a list of
// Invocations: one per `vllm serve` (or api_server module, or vllm image
// container) and one per `ray start`. Each invocation carries its argv and
// environment with the source position of every byte, so a finding points at
// the flag the user wrote even when it came through a variable or a
// `sh -c "..."` string. Rules, listed in one explicit slice (Rules), then check
// each invocation and the deployment they form together, using package vllm
// for what the chosen vLLM version accepts.
package lint
