//go:build unix

package logs

import "syscall"

// nonBlock makes open() of a FIFO return at once instead of waiting for a writer.
const nonBlock = syscall.O_NONBLOCK
