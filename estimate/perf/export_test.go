package perf

// The catalog helpers of the internal tests, for the calibration tests
// (package perf_test, which also runs the simulator of package sim).
var (
	CatalogModel = perfModel
	CatalogGPU   = perfGPU
)
