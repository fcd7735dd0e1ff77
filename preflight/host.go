package preflight

import (
	"context"
	"errors"
	"io/fs"
	"net/netip"
	"strconv"
)

// Host is every way the checks touch the machine. NewSystemHost returns the
// real one; tests build one from a fixture tree.
type Host struct {
	// FS is the host's filesystem rooted at "/" (paths without the leading
	// slash, as io/fs wants them): /proc, /sys, /etc, the model directory.
	FS fs.FS
	// Disk reports sizes of mounted filesystems (statfs).
	Disk DiskStater
	// Cmd runs read-only commands such as nvidia-smi.
	Cmd Runner
	// Net answers local network questions without sending traffic.
	Net Network
}

// DiskUsage is what statfs reports for the filesystem holding a path.
type DiskUsage struct {
	TotalBytes float64
	// FreeBytes is what an unprivileged user may still write (f_bavail).
	FreeBytes float64
}

// DiskStater reports the size of the filesystem that holds path.
type DiskStater interface {
	StatFS(path string) (DiskUsage, error)
}

// Runner runs a command and returns its standard output. It returns an
// error wrapping ErrNotFound when the program is not installed, and an
// *ExitError when it ran and failed.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
}

// ErrNotFound means the program is not on PATH.
var ErrNotFound = errors.New("command not found")

// ExitError is a command that ran and exited non-zero.
type ExitError struct {
	Code int
	// Stderr is the (trimmed) error output, for the report.
	Stderr string
}

// Error returns the command's last error line, or its exit status.
func (e *ExitError) Error() string {
	if e.Stderr != "" {
		return e.Stderr
	}
	return "exit status " + strconv.Itoa(e.Code)
}

// Interface is one network interface as the kernel reports it.
type Interface struct {
	Name string
	// Up is the administrative state (IFF_UP); Running means the link has
	// carrier (IFF_RUNNING).
	Up, Running bool
	Addrs       []netip.Prefix
}

// Network answers the local network questions. None of them sends a packet.
type Network interface {
	Interfaces() ([]Interface, error)
	// RouteSource returns the source address the kernel would pick to reach
	// dst (a connected UDP socket's local address; connecting sends nothing).
	RouteSource(ctx context.Context, dst netip.Addr) (netip.Addr, error)
	// PortFree reports nil when a TCP listener could bind port on all local
	// addresses right now; the probe listener is closed at once.
	PortFree(port int) error
}
