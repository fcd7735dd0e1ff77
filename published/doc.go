// Package calibration holds the published measurements vlaunch's estimator
// is calibrated and validated against, embedded so that a clone of the
// repository carries them (nothing outside the repository is needed):
//
//   - throughput.yaml: serving throughput and latency (TTFT, TPOT, ITL) of
//     published deployments, one row per benchmark run, each citing its
//     source and carrying the split (calibration or holdout) of that source;
//   - vllm-memory-logs.yaml: vLLM start-up memory figures from public logs.
//
// Throughput parses and validates the throughput rows; MemoryLogsYAML returns
// the memory cases for the estimator's own decoder. README.md describes the
// fields, units, the held-out protocol and how speculative decoding settings
// are normalised.
package published
