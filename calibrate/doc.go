// Package calibrate fits the estimator's efficiency constants to a user's
// own benchmark results and reads and writes the calibration file that
// `check`, `plan` and `generate` accept.
//
// The fitter is generic: a vector of bounded constants, the measured
// targets and a function predicting every target from the constants. It
// minimises the worst |log(predicted/measured)| over the targets — the
// criterion of the global calibration (docs/calibration-throughput.md) —
// and refuses to move a constant the targets do not depend on. The file
// format holds a named, versioned set of constants, so new constants can be
// added without breaking files written before.
//
// This package knows nothing of the estimator: package calibrate/cluster
// builds the targets and the predict function from benchmark results and a
// resolved deployment.
package calibrate
