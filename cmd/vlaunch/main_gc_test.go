package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcSettings reads the collector's percentage (-1: off) and memory limit.
func gcSettings() (percent int64, limit uint64) {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64()), s[1].Value.Uint64()
}

// TestHeapFloorHandsOver holds the floor's two states: no percentage
// under heapFloor while little is live, then, once a collection finds
// enough live that gcPercent's target passes the floor, gcPercent with
// no limit.
func TestHeapFloorHandsOver(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC()
	floorHeap()
	if p, l := gcSettings(); p != -1 || l != heapFloor {
		t.Fatalf("after floorHeap: GOGC %d, limit %d; want off (-1) and %d", p, l, heapFloor)
	}
	runtime.GC() // little live: the floor stays
	time.Sleep(50 * time.Millisecond)
	if p, l := gcSettings(); p != -1 || l != heapFloor {
		t.Fatalf("with little live: GOGC %d, limit %d; want the floor kept", p, l)
	}
	var keep [][]byte
	for range heapFloor/(1+gcPercent/100)/(1<<20) + 8 {
		keep = append(keep, make([]byte, 1<<20))
	}
	runtime.GC()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p, l := gcSettings()
		if p == gcPercent && l == math.MaxInt64 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("with %d MiB live: GOGC %d, limit %d; want %d and no limit", len(keep), p, l, gcPercent)
		}
		time.Sleep(10 * time.Millisecond)
	}
	runtime.KeepAlive(keep)
}
