// Package calfile is the calibration file that `vlaunch calibrate` writes
// and `check`, `plan` and `generate` read (a spec's calibration: or
// --calibration): a named, versioned set of the estimator's efficiency
// constants with the provenance of their fit, and the registry of those
// constants (Constants: each one's name, meaning and physical bounds), so
// new constants can be added without breaking files written before.
//
// It is a leaf: resolve reads the file through it without depending on the
// fitter or the estimator.
package calfile
