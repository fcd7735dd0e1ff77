// Package lint finds mistakes in hand-written vLLM launch configurations
// before a multi-minute start-up turns them into a hang or a crash.
//
// Front ends turn inputs into Invocations: one per vLLM server (`vllm
// serve`, the api_server module, or a vllm/vllm-openai container) and one per
// `ray start`.
//   - Shell scripts are parsed with mvdan.cc/sh/v3 and interpreted just
//     enough: variables (with ${X:-d}, ${X#p}, arrays, $((...)), $(seq)),
//     exports and prefix assignments, loops, branches, case, functions, and
//     wrappers (nohup, env, sudo, numactl, ssh, bash -c, here-documents,
//     docker run/exec, apptainer exec).
//   - Kubernetes manifests (Deployment, StatefulSet, LeaderWorkerSet, Pod)
//     and Docker Compose files are read as yaml.v3 nodes; LeaderWorkerSets
//     and StatefulSets are expanded into one invocation per pod, and
//     `sh -c` bodies are parsed as shell with their YAML positions.
//
// Every byte of an argument keeps its source position, so a finding points at
// the flag the user wrote even when it came through a variable or a quoted
// script. Rules, listed in one explicit slice (Rules), check each invocation,
// the deployment the invocations form together, the shell text itself and,
// optionally, the hardware of a vlaunch spec, using package vllm for what the
// chosen vLLM release accepts.
package lint
