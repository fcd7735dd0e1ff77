package preflight

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/vlaunch/vlaunch/spec"
)

// hangingFS never answers, like a read on a dead NFS mount, and ignores
// every context.
type hangingFS struct{ block chan struct{} }

func (h hangingFS) Open(string) (fs.File, error) { <-h.block; return nil, fs.ErrNotExist }

// panicRunner stands for a bug in a check.
type panicRunner struct{}

func (panicRunner) Run(context.Context, string, ...string) ([]byte, error) { panic("boom") }

func TestRunNeverHangs(t *testing.T) {
	h := fixtureHost(t, "h20-roce")
	h.FS = hangingFS{make(chan struct{})}
	h.Cmd = fakeRunner{strings.Join(append([]string{"nvidia-smi"}, smiGPUArgs...), " "): "!hang"}
	start := time.Now()
	rep, err := Run(context.Background(), Options{Deployment: resolved(t, loadSpec(t, "h20-roce")), Node: "node0", Host: h,
		Only: []string{"gpu.count", "model.path", "rdma.gdrcopy"}, Timeout: fastTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*fastTimeout {
		t.Errorf("run took %v with a %v timeout per check", d, fastTimeout)
	}
	for _, r := range rep.Results {
		if r.Status != Fail {
			t.Errorf("%s: %s, want fail on timeout (found %q)", r.ID, r.Status, r.Found)
		}
	}
	wantResult(t, resultOf(t, rep, "model.path"), Fail, "no answer within 200ms", "--timeout")
}

func TestPanickingCheckFails(t *testing.T) {
	h := fixtureHost(t, "h20-roce")
	h.Cmd = panicRunner{}
	rep, err := Run(context.Background(), Options{Deployment: resolved(t, loadSpec(t, "h20-roce")), Node: "node0", Host: h, Only: []string{"gpu", "sw"}})
	if err != nil {
		t.Fatal(err)
	}
	wantResult(t, resultOf(t, rep, "gpu.count"), Fail, "internal error: boom")
	wantResult(t, resultOf(t, rep, "sw.vllm_version"), Fail, "internal error")
}

func TestUsageErrors(t *testing.T) {
	d := resolved(t, loadSpec(t, "h20-roce"))
	h := fixtureHost(t, "h20-roce")
	for _, c := range []struct {
		name string
		opts Options
		msg  string
	}{
		{"no spec", Options{Node: "node0", Host: h}, "no spec"},
		{"no node", Options{Deployment: d, Host: h}, "--node is required (one of: node0, node1, node2, node3)"},
		{"unknown node", Options{Deployment: d, Node: "node9", Host: h}, `node "node9" is not in hardware.nodes`},
		{"unknown id", Options{Deployment: d, Node: "node0", Host: h, Only: []string{"gpu.cuont"}}, "did you mean gpu.count"},
		{"unknown skip", Options{Deployment: d, Node: "node0", Host: h, Skip: []string{"disk"}}, `unknown check id "disk"`},
		{"no host", Options{Deployment: d, Node: "node0"}, "incomplete host"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), c.opts)
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v, want a UsageError", err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%q does not mention %q", err, c.msg)
			}
		})
	}
}

func TestSelect(t *testing.T) {
	ids := func(cs []Check) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.ID)
		}
		return strings.Join(s, ",")
	}
	for _, c := range []struct {
		only, skip []string
		want       string
	}{
		{[]string{"gpu"}, []string{"gpu.processes"}, "gpu.count,gpu.model,gpu.memory,gpu.driver,gpu.fabric,gpu.imex_channel"},
		{[]string{"sw.vllm_version", "ports"}, nil, "ports.free,ports.nixl_side_channel,sw.vllm_version"},
		{nil, []string{"gpu", "net", "rdma", "host", "model", "sw"}, "ports.free,ports.nixl_side_channel"},
	} {
		got, err := Select(c.only, c.skip)
		if err != nil {
			t.Fatal(err)
		}
		if ids(got) != c.want {
			t.Errorf("Select(%v, %v) = %s, want %s", c.only, c.skip, ids(got), c.want)
		}
	}
	if all, _ := Select(nil, nil); len(all) != len(IDs()) {
		t.Errorf("no selection ran %d of %d checks", len(all), len(IDs()))
	}
}

// TestIDsStable guards the ids users put in scripts (--only/--skip) and tests.
func TestIDsStable(t *testing.T) {
	want := "gpu.count gpu.model gpu.memory gpu.driver gpu.processes gpu.fabric gpu.imex_channel net.interface net.address net.route " +
		"net.primary_loopback ports.free ports.nixl_side_channel rdma.devices rdma.port_state rdma.gid rdma.nic_vendor rdma.driver_options " +
		"rdma.gdrcopy rdma.memlock host.shm host.memory host.disk model.path model.config model.size sw.vllm_version sw.backend_packages sw.nixl sw.router"
	if got := strings.Join(IDs(), " "); got != want {
		t.Errorf("ids changed:\n got %s\nwant %s", got, want)
	}
	for _, c := range Checks() {
		if c.Title == "" {
			t.Errorf("%s has no title", c.ID)
		}
	}
}

func TestJSONReport(t *testing.T) {
	rep := runFixture(t, "h20-broken", "broken", "node0", nil, "gpu.count", "ports.free", "sw.backend_packages")
	ds := rep.Findings()
	loadSpec(t, "broken").Locate(ds)
	var buf bytes.Buffer
	if err := WriteJSON(&buf, rep, ds); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Node        string
		Results     []Result
		Summary     map[string]int
		Diagnostics []struct {
			Code, Severity, File, Path, Message, Hint string
			Line                                      int
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if got.Node != "node0" || len(got.Results) != 3 || got.Summary["fail"] != 3 || got.Summary["pass"] != 0 {
		t.Errorf("unexpected JSON report: %s", buf.String())
	}
	if r := got.Results[0]; r.ID != "gpu.count" || r.Status != Fail || r.Found != "7 GPUs" || r.Fix == "" {
		t.Errorf("first result %+v", r)
	}
	if len(got.Diagnostics) != 3 {
		t.Fatalf("want a diagnostic per failed check:\n%s", buf.String())
	}
	if d := got.Diagnostics[0]; d.Code != "PF101" || d.Severity != "error" || d.Path != "hardware.nodes[0].gpus" ||
		d.Line == 0 || !strings.HasSuffix(d.File, "broken.yaml") || d.Message != "node0 gpu.count: 7 GPUs; expected 8 GPUs (hardware.nodes[0].gpus)" || d.Hint == "" {
		t.Errorf("gpu.count diagnostic %+v", d)
	}
	if !strings.Contains(buf.String(), `"status": "fail"`) {
		t.Errorf("status is not written by name:\n%s", buf.String())
	}
}

// mapHost is a host whose filesystem is an in-memory map.
func mapHost(t *testing.T, files fstest.MapFS) Host {
	h := fixtureHost(t, "empty")
	h.FS = files
	return h
}

func runMap(t *testing.T, files fstest.MapFS, edit func(*spec.Deployment), id string) Result {
	t.Helper()
	d := loadSpec(t, "h20-roce")
	if edit != nil {
		edit(d)
	}
	rep, err := Run(context.Background(), Options{Deployment: resolved(t, d), Node: "node0", Host: mapHost(t, files), Only: []string{id}})
	if err != nil {
		t.Fatal(err)
	}
	return resultOf(t, rep, id)
}

func TestNICVendorFromDriverLink(t *testing.T) {
	dev := func(driver string) fstest.MapFS {
		return fstest.MapFS{
			"sys/class/infiniband/mlx5_0/ports/1/state": {Data: []byte("4: ACTIVE\n")},
			"sys/class/infiniband/mlx5_0/device/driver": {Data: []byte("../../../../bus/pci/drivers/" + driver), Mode: fs.ModeSymlink},
		}
	}
	one := func(d *spec.Deployment) { d.Hardware.Nodes[0].RDMADevices = []string{"mlx5_0"} }
	wantResult(t, runMap(t, dev("mlx5_core"), one, "rdma.nic_vendor"), Pass)
	wantResult(t, runMap(t, dev("bnxt_en"), one, "rdma.nic_vendor"), Fail, "driver bnxt_en")
}

func TestDriverOptionsConfiguredButNotLoaded(t *testing.T) {
	files := fstest.MapFS{"etc/modprobe.d/ibgda.conf": {Data: []byte(driverOptsLine + "\n")}}
	wantResult(t, runMap(t, files, nil, "rdma.driver_options"), Warn, "ibgda.conf", "not loaded")
	files["etc/modprobe.d/ibgda.conf"] = &fstest.MapFile{Data: []byte("# " + driverOptsLine + "\n")}
	wantResult(t, runMap(t, files, nil, "rdma.driver_options"), Fail, "no modprobe.d file")
}

func TestTruncatedShards(t *testing.T) {
	cfg, err := fs.ReadFile(fixtureHost(t, "h20-roce").FS, "models/DeepSeek-V3/config.json")
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{
		"models/DeepSeek-V3/config.json":                      {Data: cfg},
		"models/DeepSeek-V3/model-00001-of-00001.safetensors": {Data: make([]byte, 100)},
		"models/DeepSeek-V3/model.safetensors.index.json": {Data: []byte(
			`{"metadata": {"total_size": 1000}, "weight_map": {"a": "model-00001-of-00001.safetensors"}}`)},
	}
	wantResult(t, runMap(t, files, nil, "model.size"), Fail, "truncated")
	files["models/DeepSeek-V3/model.safetensors.index.json"] = &fstest.MapFile{Data: []byte("{not json")}
	wantResult(t, runMap(t, files, nil, "model.size"), Fail, "index.json")
}

func TestShardsBehindSymlinks(t *testing.T) {
	cfg, err := fs.ReadFile(fixtureHost(t, "h20-roce").FS, "models/DeepSeek-V3/config.json")
	if err != nil {
		t.Fatal(err)
	}
	snap := "hf/models--deepseek-ai--DeepSeek-V3/snapshots/abc/"
	files := fstest.MapFS{
		snap + "config.json":                            {Data: cfg},
		snap + "model.safetensors":                      {Data: []byte("../../blobs/f00"), Mode: fs.ModeSymlink},
		"hf/models--deepseek-ai--DeepSeek-V3/blobs/f00": {Data: make([]byte, 4<<20)},
	}
	edit := func(d *spec.Deployment) { d.Model.Path = "/" + snap }
	wantResult(t, runMap(t, files, edit, "model.size"), Fail, "1 safetensors files, 4 MiB")
}

// recordingRunner remembers every command line a run issues.
type recordingRunner struct {
	Runner
	lines *[]string
}

func (r recordingRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	*r.lines = append(*r.lines, strings.Join(append([]string{name}, args...), " "))
	return r.Runner.Run(ctx, name, args...)
}

// TestCommandsAreReadOnly: preflight changes nothing on the host, so the
// only programs it may start are queries.
func TestCommandsAreReadOnly(t *testing.T) {
	var lines []string
	h := fixtureHost(t, "h20-roce")
	h.Cmd = recordingRunner{h.Cmd, &lines}
	if _, err := Run(context.Background(), Options{Deployment: resolved(t, loadSpec(t, "h20-roce")), Node: "node0", Host: h}); err != nil {
		t.Fatal(err)
	}
	allowed := []string{"nvidia-smi --query-", "vllm --version", "python3 -c " + pyImport("")}
	for _, l := range lines {
		ok := false
		for _, a := range allowed {
			ok = ok || strings.HasPrefix(l, a)
		}
		if !ok {
			t.Errorf("unexpected command %q", l)
		}
	}
	if len(lines) != 5 {
		t.Errorf("%d commands (nvidia-smi is queried once per kind): %q", len(lines), lines)
	}
}

// TestSummaryPlural: "1 warning", as diag's own summary counts
// (QA session 37 found "1 warnings").
func TestSummaryPlural(t *testing.T) {
	one := Report{Results: []Result{{Status: Warn}, {Status: Pass}}}
	if got, want := one.Summary(), "1 passed, 1 warning, 0 failed, 0 skipped"; got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
	two := Report{Results: []Result{{Status: Warn}, {Status: Warn}}}
	if got, want := two.Summary(), "0 passed, 2 warnings, 0 failed, 0 skipped"; got != want {
		t.Errorf("Summary() = %q, want %q", got, want)
	}
}
