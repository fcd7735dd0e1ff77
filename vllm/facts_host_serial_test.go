package vllm

import "testing"

func TestHostSerialFor(t *testing.T) {
	f, ok := HostSerialFor("v0.15.0")
	if !ok || !f.AsyncDefault || f.SerialShare(true) != 0 || f.SerialShare(false) != 1 {
		t.Fatalf("0.15.0: %+v %v", f, ok)
	}
	if f, _ := HostSerialFor("0.11.0"); f.AsyncDefault {
		t.Fatalf("0.11.0 async scheduling was off by default (scheduler.py:138)")
	}
	if _, ok := HostSerialFor("0.99.0"); ok {
		t.Fatalf("unread release reported as read")
	}
	if _, ok := HostSerialFor(""); ok {
		t.Fatalf("empty release reported as read")
	}
}

func TestHostSerialStepTime(t *testing.T) {
	f, _ := HostSerialFor("0.15.0")
	cases := []struct {
		gpu, host float64
		async     bool
		want      float64
	}{
		{10e-3, 5e-3, true, 10e-3},  // chain hides behind the GPU step
		{10e-3, 12e-3, true, 12e-3}, // chain longer: host-bound, not the sum
		{10e-3, 5e-3, false, 15e-3}, // sync: in series
		{-1, 5e-3, true, 5e-3},      // bad input clamps
	}
	for _, c := range cases {
		if got := f.StepTime(c.gpu, c.host, c.async); got < c.want-1e-12 || got > c.want+1e-12 {
			t.Errorf("StepTime(%g,%g,%v)=%g want %g", c.gpu, c.host, c.async, got, c.want)
		}
	}
}
