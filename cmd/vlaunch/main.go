// Command vlaunch validates, checks, generates and lints multi-node vLLM
// deployments. See README.md.
package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// gcPercent is the garbage collector's target when GOGC is not set. vlaunch
// is a short-lived command whose plan and check simulate many small
// request and step records; collecting at twice the live heap instead of
// once cut plan's CPU on the reference spec by about 7% (3.66 -> 3.41 s
// user, GOGC=100 vs 200, both near 150-170 MB peak RSS), where 400 cut a
// little more for +140 MB (speed41, measured under load; session 41).
const gcPercent = 200

// heapFloor is how large the heap may grow before the first collection
// when neither GOGC nor GOMEMLIMIT is set: a plan allocates far more than
// it keeps (the reference spec: about 380 MB allocated in all, 20-30 MB
// live), so at gcPercent alone it collected about ten times for nothing it
// needed back. Below the floor no collection runs (a memory limit with the
// percentage off); once a collection finds so much live that gcPercent's
// target passes the floor, gcPercent takes over as before, so a large plan
// (256 nodes: 80-230 MB live) collects no more often than it did. On the
// reference plan, 3 runs each on two otherwise idle cores (chrt, speed42):
// 3.10-3.21 s user -> 2.89-2.95 s, 1.80-1.85 s wall -> 1.63-1.68 s, peak
// RSS 170-205 MB -> 260 MB; check (45-50 MB) and the 256-node plan
// unchanged within the machine's noise.
const heapFloor = 256 << 20

func main() {
	switch {
	case os.Getenv("GOGC") != "":
	case os.Getenv("GOMEMLIMIT") != "":
		debug.SetGCPercent(gcPercent)
	default:
		floorHeap()
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// floorHeap sets the collector to heapFloor: no collection until the heap
// reaches it, then, from the first collection whose live heap puts
// gcPercent's target past it, gcPercent with no limit.
func floorHeap() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(heapFloor)
	afterGC(func() bool {
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 || float64(s[0].Value.Uint64())*(1+gcPercent/100.0) >= heapFloor {
			debug.SetGCPercent(gcPercent)
			debug.SetMemoryLimit(math.MaxInt64)
			return false
		}
		return true
	})
}

// afterGC calls f after each garbage collection (from a cleanup of an
// object nothing references, run once a collection found it unreachable)
// for as long as f returns true.
func afterGC(f func() bool) {
	runtime.AddCleanup(new([16]byte), func(f func() bool) {
		if f() {
			afterGC(f)
		}
	}, f)
}
