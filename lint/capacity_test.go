package lint

import "github.com/vlaunch/vlaunch/estimate"

// testCapacity is what cmd/vlaunch passes: the estimator behind lint's
// capacity question. Tests import estimate; the package itself does not.
func testCapacity(q CapacityQuery) (Capacity, bool) {
	in, ds := estimate.QuickInput(estimate.QuickOptions{Model: q.Model, GPU: q.GPU, TP: q.TP, PP: q.PP, DP: q.DP,
		EP: q.EP, MaxModelLen: q.MaxModelLen, GPUMemoryUtilization: q.GPUMemoryUtilization,
		KVCacheDType: q.KVCacheDType, VLLMVersion: q.VLLMVersion, GPUsPerNode: q.GPUsPerNode})
	if ds.HasErrors() {
		return Capacity{}, false
	}
	c := estimate.Memory(&in).Capacity
	return Capacity{OneSequenceFits: c.OneSequenceFits, LargestMaxModelLen: c.LargestMaxModelLen, AvailableGiB: c.AvailableGiB}, true
}
