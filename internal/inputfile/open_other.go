//go:build !unix

package inputfile

// nonBlock is 0 where open() has no non-blocking mode; there the regular-
// file check after opening still refuses devices and pipes.
const nonBlock = 0
