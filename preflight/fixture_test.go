package preflight

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// hostFile is testdata/hosts/<name>/host.json: what the network and statfs
// interfaces answer on the recorded host.
type hostFile struct {
	Interfaces []struct {
		Name        string
		Up, Running bool
		Addrs       []string
	}
	// Routes maps a peer address to the source address the kernel picks.
	Routes     map[string]string
	PortsInUse []int `json:"ports_in_use"`
	// Statfs maps a mount point to its sizes; the longest prefix wins.
	Statfs map[string]struct{ Total, Free float64 }
}

// fixtureHost builds a Host from testdata/hosts/<name>: root/ is the
// filesystem, host.json the network and statfs answers, commands.txtar the
// recorded command output.
func fixtureHost(t testing.TB, name string) Host {
	t.Helper()
	dir := filepath.Join("testdata", "hosts", name)
	var hf hostFile
	data, err := os.ReadFile(filepath.Join(dir, "host.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &hf); err != nil {
		t.Fatalf("%s/host.json: %v", dir, err)
	}
	ar, err := txtar.ParseFile(filepath.Join(dir, "commands.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	return Host{
		FS:   sizedFS{os.DirFS(filepath.Join(dir, "root"))},
		Disk: fakeDisk(hf.Statfs),
		Cmd:  newFakeRunner(ar),
		Net:  fakeNet(t, hf),
	}
}

// sizedFS reports the size a fake *.safetensors file declares
// ("vlaunch-fixture-size N") instead of its few bytes, so fixtures can hold
// a 690 GB checkpoint.
type sizedFS struct{ fs.FS }

func (s sizedFS) ReadDir(name string) ([]fs.DirEntry, error) {
	ents, err := fs.ReadDir(s.FS, name)
	if err != nil {
		return nil, err
	}
	for i, e := range ents {
		if strings.HasSuffix(e.Name(), ".safetensors") {
			data, _ := fs.ReadFile(s.FS, filepath.ToSlash(filepath.Join(name, e.Name())))
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimPrefix(string(data), "vlaunch-fixture-size")), 10, 64)
			ents[i] = sizedEntry{e, n}
		}
	}
	return ents, nil
}

// ReadLink keeps symlink support of the wrapped os.DirFS.
func (s sizedFS) ReadLink(name string) (string, error) {
	return s.FS.(fs.ReadLinkFS).ReadLink(name)
}

// Lstat completes fs.ReadLinkFS.
func (s sizedFS) Lstat(name string) (fs.FileInfo, error) { return s.FS.(fs.ReadLinkFS).Lstat(name) }

type sizedEntry struct {
	fs.DirEntry
	size int64
}

func (e sizedEntry) Info() (fs.FileInfo, error) {
	fi, err := e.DirEntry.Info()
	return sizedInfo{fi, e.size}, err
}

type sizedInfo struct {
	fs.FileInfo
	size int64
}

func (i sizedInfo) Size() int64 { return i.size }

// fakeDisk answers statfs from host.json.
type fakeDisk map[string]struct{ Total, Free float64 }

func (d fakeDisk) StatFS(path string) (DiskUsage, error) {
	best := ""
	for mount := range d {
		if (path == mount || strings.HasPrefix(path, strings.TrimSuffix(mount, "/")+"/")) && len(mount) > len(best) {
			best = mount
		}
	}
	if best == "" {
		return DiskUsage{}, fmt.Errorf("statfs %s: %w", path, fs.ErrNotExist)
	}
	return DiskUsage{TotalBytes: d[best].Total, FreeBytes: d[best].Free}, nil
}

// fakeRunner answers from commands.txtar; "!exit N msg" fails, "!hang"
// blocks until the context ends, a missing section is not installed.
type fakeRunner map[string]string

func newFakeRunner(ar *txtar.Archive) fakeRunner {
	r := fakeRunner{}
	for _, f := range ar.Files {
		r[f.Name] = string(f.Data)
	}
	return r
}

func (r fakeRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	out, ok := r[strings.Join(append([]string{name}, args...), " ")]
	switch {
	case !ok:
		return nil, fmt.Errorf("%s: %w", name, ErrNotFound)
	case strings.HasPrefix(out, "!hang"):
		<-ctx.Done()
		return nil, ctx.Err()
	case strings.HasPrefix(out, "!exit "):
		code, msg, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(out, "!exit ")), " ")
		n, _ := strconv.Atoi(code)
		return nil, &ExitError{Code: n, Stderr: msg}
	}
	return []byte(out), nil
}

// fakeNetwork answers from host.json.
type fakeNetwork struct {
	ifs    []Interface
	routes map[netip.Addr]netip.Addr
	inUse  map[int]bool
}

func fakeNet(t testing.TB, hf hostFile) fakeNetwork {
	n := fakeNetwork{routes: map[netip.Addr]netip.Addr{}, inUse: map[int]bool{}}
	for _, i := range hf.Interfaces {
		ifc := Interface{Name: i.Name, Up: i.Up, Running: i.Running}
		for _, a := range i.Addrs {
			ifc.Addrs = append(ifc.Addrs, netip.MustParsePrefix(a))
		}
		n.ifs = append(n.ifs, ifc)
	}
	for dst, src := range hf.Routes {
		n.routes[netip.MustParseAddr(dst)] = netip.MustParseAddr(src)
	}
	for _, p := range hf.PortsInUse {
		n.inUse[p] = true
	}
	return n
}

func (n fakeNetwork) Interfaces() ([]Interface, error) { return n.ifs, nil }

func (n fakeNetwork) RouteSource(_ context.Context, dst netip.Addr) (netip.Addr, error) {
	if src, ok := n.routes[dst]; ok {
		return src, nil
	}
	return netip.Addr{}, errors.New("connect: network is unreachable")
}

func (n fakeNetwork) PortFree(port int) error {
	if n.inUse[port] {
		return &os.SyscallError{Syscall: "bind", Err: syscall.EADDRINUSE}
	}
	return nil
}

// fastTimeout keeps tests of hanging checks short.
const fastTimeout = 200 * time.Millisecond
