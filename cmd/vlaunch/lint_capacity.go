package main

import (
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/lint"
	"github.com/vlaunch/vlaunch/resolve"
)

// lintCapacity answers lint's KV-capacity question (VL125) with the
// estimator: lint states the layout, estimate sizes one rank's KV cache.
func lintCapacity(q lint.CapacityQuery) (lint.Capacity, bool) { return capacityOn(nil, q) }

// specCapacity answers it on the --spec's resolved hardware (its GPU,
// catalog or custom figures, and its network).
func specCapacity(r *resolve.Deployment) lint.CapacityFunc {
	return func(q lint.CapacityQuery) (lint.Capacity, bool) { return capacityOn(r, q) }
}

func capacityOn(hw *resolve.Deployment, q lint.CapacityQuery) (lint.Capacity, bool) {
	d, err := resolve.Quick(resolve.QuickOptions{Model: q.Model, GPU: q.GPU, TP: q.TP, PP: q.PP, DP: q.DP,
		EP: q.EP, MaxModelLen: q.MaxModelLen, GPUMemoryUtilization: q.GPUMemoryUtilization,
		KVCacheDType: q.KVCacheDType, VLLMVersion: q.VLLMVersion, GPUsPerNode: q.GPUsPerNode, Hardware: hw})
	if err != nil {
		return lint.Capacity{}, false
	}
	in := estimate.FromResolved(d)
	c := estimate.Memory(&in).Capacity
	return lint.Capacity{OneSequenceFits: c.OneSequenceFits, LargestMaxModelLen: c.LargestMaxModelLen, AvailableGiB: c.AvailableGiB}, true
}
