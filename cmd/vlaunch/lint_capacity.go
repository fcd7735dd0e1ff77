package main

import (
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/lint"
)

// lintCapacity answers lint's KV-capacity question (VL125) with the
// estimator: lint states the layout, estimate sizes one rank's KV cache.
func lintCapacity(q lint.CapacityQuery) (lint.Capacity, bool) {
	in, ds := estimate.QuickInput(estimate.QuickOptions{Model: q.Model, GPU: q.GPU, TP: q.TP, PP: q.PP, DP: q.DP,
		EP: q.EP, MaxModelLen: q.MaxModelLen, GPUMemoryUtilization: q.GPUMemoryUtilization,
		KVCacheDType: q.KVCacheDType, VLLMVersion: q.VLLMVersion, GPUsPerNode: q.GPUsPerNode})
	if ds.HasErrors() {
		return lint.Capacity{}, false
	}
	c := estimate.Memory(&in).Capacity
	return lint.Capacity{OneSequenceFits: c.OneSequenceFits, LargestMaxModelLen: c.LargestMaxModelLen, AvailableGiB: c.AvailableGiB}, true
}
