package preflight

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestSystemRunner(t *testing.T) {
	r := SystemRunner{}
	ctx := context.Background()
	out, err := r.Run(ctx, "sh", "-c", "echo ok")
	if err != nil || string(out) != "ok\n" {
		t.Fatalf("got %q, %v", out, err)
	}
	_, err = r.Run(ctx, "sh", "-c", "echo first >&2; echo 'No module named x' >&2; exit 3")
	var ee *ExitError
	if !errors.As(err, &ee) || ee.Code != 3 || ee.Error() != "No module named x" {
		t.Errorf("exit error %#v", err)
	}
	_, err = r.Run(ctx, "sh", "-c", "echo 'NVIDIA-SMI has failed'; exit 9")
	if !errors.As(err, &ee) || ee.Error() != "NVIDIA-SMI has failed" {
		t.Errorf("stdout message not kept: %v", err)
	}
	if _, err := r.Run(ctx, "vlaunch-no-such-program"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing program: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.Run(short, "sh", "-c", "sleep 5 & sleep 5"); err == nil {
		t.Error("no error after timeout")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("timed-out command returned after %v", d)
	}
}

// TestSystemNetworkLocal exercises the real lookups on loopback only.
func TestSystemNetworkLocal(t *testing.T) {
	n := SystemNetwork{}
	ifs, err := n.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	lo := netip.MustParseAddr("127.0.0.1")
	if name, ok := ifaceWithAddr(ifs, lo); !ok {
		t.Skipf("no interface carries 127.0.0.1 here: %v", ifs)
	} else if src, err := n.RouteSource(context.Background(), lo); err != nil || src != lo {
		t.Errorf("route source to %s via %s: %v, %v", lo, name, src, err)
	}
	l, err := net.Listen("tcp", ":0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	port := l.Addr().(*net.TCPAddr).Port
	if err := n.PortFree(port); err == nil || portProblem(err) != "in use" {
		t.Errorf("port %d held by the test: %v (%s)", port, err, portProblem(err))
	}
}

func TestSystemDisk(t *testing.T) {
	u, err := SystemDisk{}.StatFS("/")
	if err != nil || u.TotalBytes <= 0 || u.FreeBytes > u.TotalBytes {
		t.Errorf("statfs /: %+v, %v", u, err)
	}
	if _, err := (SystemDisk{}).StatFS("/no/such/dir"); err == nil {
		t.Error("statfs of a missing path succeeded")
	}
}
