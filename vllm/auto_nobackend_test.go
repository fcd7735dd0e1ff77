package vllm

import "testing"

// TestAutoBeforeBackends: releases without selectable backends get none
// (a VLLM_ALL2ALL_BACKEND they do not read would be noise at best).
func TestAutoBeforeBackends(t *testing.T) {
	r, _, err := ResolveString("0.8.5")
	if err != nil {
		t.Fatal(err)
	}
	if b, why := r.AutoAll2All(AutoContext{DP: 16, EP: true, MultiNode: true, GPUDirectRDMA: true}); b != "" {
		t.Errorf("0.8.5 auto = %q (%s), want none", b, why)
	}
}
