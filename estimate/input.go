// Package estimate is vlaunch's feasibility engine: pure functions from a
// resolved deployment (package resolve) to per-GPU memory, KV-cache
// capacity, step time and SLO verdicts. Nothing here prints, reads files or
// exits; package report renders the result.
//
// This package is the facade other packages use: Check and AddPerformance
// build a Report, SearchLayout answers `parallelism: auto`. The models live
// in its subpackages, each importing only those below it:
//
//	input   the flat view of a resolve.Deployment the models read
//	perf    step-time model (roofline, network, routing, FLOPs)
//	sim     continuous-batching simulator over lock-step DP ranks
//	memory  per-GPU memory, KV capacity, EST1xx verdicts, memory notes
//	slo     performance section, SLO verdicts, what-if, advice (EST201)
//	search  the layout search of `parallelism: auto` (EST301)
//	pd      prefill/decode disaggregation: pools, KV hand-off, composed TTFT
package estimate

import (
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// Input is everything the models read (see package input).
type Input = input.Input

// FromResolved is the estimator's view of a resolved deployment.
func FromResolved(d *resolve.Deployment) Input { return input.FromResolved(d) }
