//go:build unix

package logs

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used (user + system): the
// work the analysis did, independent of how busy the machine is.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
