package lint

import (
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/resolve"
)

// testCapacity is what cmd/vlaunch passes without --spec: the estimator
// behind lint's capacity question. Tests import estimate; the package
// itself does not.
func testCapacity(q CapacityQuery) (Capacity, bool) { return capacityOn(nil, q) }

// specCapacity is what cmd/vlaunch passes with --spec: the same question
// on the spec's resolved hardware (its GPU, catalog or custom, and network).
func specCapacity(hw *resolve.Deployment) CapacityFunc {
	return func(q CapacityQuery) (Capacity, bool) { return capacityOn(hw, q) }
}

func capacityOn(hw *resolve.Deployment, q CapacityQuery) (Capacity, bool) {
	d, err := resolve.Quick(resolve.QuickOptions{Model: q.Model, GPU: q.GPU, TP: q.TP, PP: q.PP, DP: q.DP,
		EP: q.EP, MaxModelLen: q.MaxModelLen, GPUMemoryUtilization: q.GPUMemoryUtilization,
		KVCacheDType: q.KVCacheDType, VLLMVersion: q.VLLMVersion, GPUsPerNode: q.GPUsPerNode, Hardware: hw})
	if err != nil {
		return Capacity{}, false
	}
	in := estimate.FromResolved(d)
	c := estimate.Memory(&in).Capacity
	return Capacity{OneSequenceFits: c.OneSequenceFits, LargestMaxModelLen: c.LargestMaxModelLen, AvailableGiB: c.AvailableGiB}, true
}
