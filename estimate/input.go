// Package estimate is vlaunch's feasibility engine: pure functions from an
// Input (a resolved deployment, see package resolve) to per-GPU memory,
// KV-cache capacity, step time and SLO verdicts. Nothing here prints, reads
// files or exits.
package estimate

import (
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// Layout is the parallel layout of the deployment (resolve.Layout).
type Layout = resolve.Layout

// Network is the resolved interconnect the performance model uses.
type Network = resolve.Network

// QuickOptions is the quick form of `vlaunch check` (no spec file).
type QuickOptions = resolve.QuickOptions

// Input is everything the models read (see package input).
type Input = input.Input

// FromResolved is the estimator's view of a resolved deployment.
func FromResolved(d *resolve.Deployment) Input { return input.FromResolved(d) }

// FromSpec resolves a loaded, defaulted spec (see resolve.FromSpec); for
// tests and tools: commands resolve through validate.
func FromSpec(d *spec.Deployment) (Input, diag.Diagnostics) { return input.FromSpec(d) }

// QuickInput resolves the quick form into an Input (see resolve.Quick).
func QuickInput(o QuickOptions) (Input, diag.Diagnostics) { return input.Quick(o) }
