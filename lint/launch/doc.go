// Package launch is lint's front end: it turns launch files into
// Invocations, one per vLLM server (`vllm serve`, the api_server module, or
// a vllm/vllm-openai container) and one per `ray start`, each with its
// arguments, environment, container, host and node name.
//   - Shell scripts are parsed with mvdan.cc/sh/v3 and interpreted just
//     enough: variables (with ${X:-d}, ${X#p}, arrays, $((...)), $(seq)),
//     exports and prefix assignments, loops, branches, case, functions, and
//     wrappers (nohup, env, sudo, numactl, ssh, bash -c, here-documents,
//     docker run/exec, apptainer exec).
//   - Kubernetes manifests (Deployment, StatefulSet, LeaderWorkerSet, Pod)
//     and Docker Compose files are read as yaml.v3 nodes; LeaderWorkerSets
//     and StatefulSets are expanded into one invocation per pod, and
//     `sh -c` bodies are parsed as shell with their YAML positions.
//   - Markdown documents: their ```bash/```sh/```console blocks are read as
//     one shell session, their ```yaml blocks as manifests, at the
//     document's lines and columns; data files (hosts tables) are skipped.
//
// Every byte of an argument keeps its source position, so a finding points at
// the flag the user wrote even when it came through a variable or a quoted
// script. The package knows nothing of vLLM's flags: package lint reads the
// arguments against a release and runs the rules.
package launch
