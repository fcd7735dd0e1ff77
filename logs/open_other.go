//go:build !unix

package logs

// nonBlock is not needed where FIFOs do not block open().
const nonBlock = 0
