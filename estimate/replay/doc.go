// Package replay reproduces published benchmark runs (package calibration's
// rows) through the estimator: each row becomes a step-model setup and a
// load (steady decode, steady prefill, or a simulated benchmark run: closed
// loop, burst, Poisson, offline batch), and every figure the source
// published that the estimator predicts becomes a Target with the
// published value, the prediction and the regime it belongs to. The
// calibration tests (docs/calibration-throughput*.md) and the prediction
// bands are built on it.
package replay
