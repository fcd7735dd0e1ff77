// Package fitter is a generic bounded fitter: a vector of bounded constants,
// the measured targets and a function predicting every target from the
// constants. It minimises the worst |log(predicted/measured)| over the
// targets (a cluster's few results, `vlaunch calibrate`), or the typical
// error (Options.Typical: the global fit of docs/calibration-throughput.md),
// and refuses to move a constant the targets do not depend on.
//
// This package knows nothing of the estimator: package calibrate builds the
// targets and the predict function from a cluster's benchmark results and a
// resolved deployment, and package estimate/replay from published runs.
package fitter
