//go:build !unix

package logs

import "time"

var processStart = time.Now()

// cpuTime falls back to wall time where rusage is not available.
func cpuTime() time.Duration { return time.Since(processStart) }
