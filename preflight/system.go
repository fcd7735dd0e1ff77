package preflight

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// maxOutputBytes bounds what one command may print into memory.
const maxOutputBytes = 1 << 20

// NewSystemHost returns the Host for the machine the binary runs on.
func NewSystemHost() Host {
	return Host{FS: os.DirFS("/"), Disk: SystemDisk{}, Cmd: SystemRunner{}, Net: SystemNetwork{}}
}

// SystemDisk answers StatFS with statfs(2).
type SystemDisk struct{}

// StatFS reports the filesystem holding path.
func (SystemDisk) StatFS(path string) (DiskUsage, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return DiskUsage{}, err
	}
	bs := float64(st.Bsize)
	return DiskUsage{TotalBytes: float64(st.Blocks) * bs, FreeBytes: float64(st.Bavail) * bs}, nil
}

// SystemRunner runs real programs, killing them when ctx ends.
type SystemRunner struct{}

// Run executes name with args and returns its standard output.
func (SystemRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var out, errb limitedBuffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	// A child that leaves a grandchild holding the pipes must not block us.
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() != nil {
		return out.Bytes(), ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		// nvidia-smi prints "NVIDIA-SMI has failed because ..." on stdout.
		msg := lastLine(errb.String())
		if msg == "" {
			msg = lastLine(out.String())
		}
		return out.Bytes(), &ExitError{Code: ee.ExitCode(), Stderr: msg}
	}
	return out.Bytes(), err
}

// limitedBuffer keeps the first maxOutputBytes and drops the rest.
type limitedBuffer struct{ bytes.Buffer }

// Write keeps what fits and reports everything as written, so the child
// never blocks on a full pipe.
func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := maxOutputBytes - b.Len(); room > 0 {
		if len(p) > room {
			b.Buffer.Write(p[:room])
		} else {
			b.Buffer.Write(p)
		}
	}
	return len(p), nil
}

// lastLine is the last non-empty line: Python tracebacks end with the error.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// SystemNetwork asks the local kernel; it never sends a packet.
type SystemNetwork struct{}

// Interfaces lists the interfaces with their addresses.
func (SystemNetwork) Interfaces() ([]Interface, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil, err
	}
	out := make([]Interface, 0, len(ifs))
	for _, ifc := range ifs {
		it := Interface{Name: ifc.Name, Up: ifc.Flags&net.FlagUp != 0, Running: ifc.Flags&net.FlagRunning != 0}
		addrs, _ := ifc.Addrs()
		for _, a := range addrs {
			if p, err := netip.ParsePrefix(a.String()); err == nil {
				it.Addrs = append(it.Addrs, netip.PrefixFrom(p.Addr().Unmap(), p.Bits()))
			}
		}
		out = append(out, it)
	}
	return out, nil
}

// RouteSource connects a UDP socket to dst and reads its local address.
// connect(2) on UDP only asks the routing table; no datagram is sent.
func (SystemNetwork) RouteSource(ctx context.Context, dst netip.Addr) (netip.Addr, error) {
	var d net.Dialer
	// Port 9 (discard) is arbitrary: nothing is sent to it.
	c, err := d.DialContext(ctx, "udp", netip.AddrPortFrom(dst, 9).String())
	if err != nil {
		return netip.Addr{}, err
	}
	defer c.Close()
	ap, err := netip.ParseAddrPort(c.LocalAddr().String())
	if err != nil {
		return netip.Addr{}, err
	}
	return ap.Addr().Unmap(), nil
}

// PortFree binds port on all addresses (as vLLM's --host 0.0.0.0 does) and
// closes the listener at once.
func (SystemNetwork) PortFree(port int) error {
	l, err := net.Listen("tcp", fmt.Sprintf(":%d", port))
	if err != nil {
		return err
	}
	return l.Close()
}
