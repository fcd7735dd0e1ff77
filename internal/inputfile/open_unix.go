//go:build unix

package inputfile

import "syscall"

// nonBlock makes open() of a FIFO return at once instead of waiting for a
// writer; it changes nothing for the regular files that are then read.
const nonBlock = syscall.O_NONBLOCK
