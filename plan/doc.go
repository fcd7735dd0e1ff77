// Package plan answers "what should I run on this hardware for this SLO?"
// for `vlaunch plan`: it enumerates what the spec's hardware and vLLM
// release allow and `vlaunch generate` can write (parallel layouts placed
// by resolve.Place, weight format, KV-cache dtype, all-to-all backend, DBO,
// scheduler limits, the draft length of the speculative decoding a spec
// enables), prunes by memory, bounds every survivor with the step
// model, simulates only the candidates whose bound can still reach the top,
// and ranks them by SLO attainment, then throughput per GPU. It also finds
// the Pareto front of throughput per GPU against TPOT, the SLOs no
// candidate meets (with the smallest hardware change that would), and how
// far each workload or hardware parameter may move before a verdict of the
// best candidate flips. Apply writes a candidate into the user's spec.
//
// Every figure comes from package estimate (the same models and verdicts
// as `vlaunch check`); plan only chooses what to evaluate and orders it.
package plan
