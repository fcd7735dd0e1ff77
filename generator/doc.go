// Package generator turns a validated, defaulted deployment spec into a
// launch bundle: one script per node (bare metal or Docker) or a
// LeaderWorkerSet manifest (Kubernetes), a hosts file and a README.
//
// Generation has two stages. Plan works out the layout — which node runs
// which DP ranks, which multi-node mechanism the vLLM release supports, the
// all-to-all backend, every flag and environment variable — as plain data.
// Render feeds that data to text/templates (package templates, overridable
// file by file), where every value reaches the shell through shq, a quoting
// function built on mvdan.cc/sh/v3/syntax.Quote. Nothing here prints, reads
// the environment or depends on the clock: the same spec gives the same bytes.
package generator
