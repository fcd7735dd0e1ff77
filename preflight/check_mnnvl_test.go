package preflight

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// smiQ is the recorded `nvidia-smi -q` of a fixture host.
func smiQ(t testing.TB, host string) []byte {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "hosts", host, "commands.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "nvidia-smi -q" {
			return f.Data
		}
	}
	t.Fatalf("%s: no nvidia-smi -q", host)
	return nil
}

// Every GPU's Fabric block is read, and nothing outside it: the Health
// block's lines and the next GPU's do not leak into the previous GPU.
func TestParseFabric(t *testing.T) {
	got := parseFabric(smiQ(t, "gb200-fabric-broken"))
	if len(got) != 4 {
		t.Fatalf("%d GPUs, want 4: %+v", len(got), got)
	}
	want := []gpuFabric{
		{GPU: "00000008:01:00.0", State: "Completed", Status: "Success", Clique: "32766", ClusterID: "8f6f0a4e-3c2b-4b0a-9d1e-5a7c2e1b9f30"},
		{GPU: "00000009:01:00.0", State: "In Progress", Status: "N/A", Clique: "N/A", ClusterID: "N/A"},
		{GPU: "00000018:01:00.0", State: "Completed", Status: "Success", Clique: "32766", ClusterID: "8f6f0a4e-3c2b-4b0a-9d1e-5a7c2e1b9f30"},
		{GPU: "00000019:01:00.0", State: "Completed", Status: "Success", Clique: "1", ClusterID: "8f6f0a4e-3c2b-4b0a-9d1e-5a7c2e1b9f30"},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("GPU %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// GPUs that all registered but sit in two partitions fail with both named.
func TestFabricSplitPartition(t *testing.T) {
	out := strings.Replace(string(smiQ(t, "gb200-fabric-broken")), "In Progress", "Completed", 1)
	out = strings.Replace(out, "Status                            : N/A", "Status                            : Success", 1)
	rep := runFixtureOpts(t, "gb200-fabric-broken", "gb200-nvl72", "node0", nil,
		func(o *Options) { o.Host.Cmd = fakeRunner{"nvidia-smi -q": out} }, "gpu.fabric")
	wantResult(t, resultOf(t, rep, "gpu.fabric"), Fail, "several NVLink partitions", "clique 1", "clique 32766")
}

// FuzzParseFabric: whatever nvidia-smi prints, parsing never panics and
// finds at most one GPU per "GPU" header line.
func FuzzParseFabric(f *testing.F) {
	for _, h := range []string{"gb200-nvl72", "gb200-fabric-broken"} {
		data, err := os.ReadFile(filepath.Join("testdata", "hosts", h, "commands.txtar"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("GPU 0:0:0.0\n    Fabric\nState : x\n  Fabric\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if n := len(parseFabric(b)); n > strings.Count(string(b), "GPU ") {
			t.Fatalf("%d GPUs from %d headers", n, strings.Count(string(b), "GPU "))
		}
	})
}
