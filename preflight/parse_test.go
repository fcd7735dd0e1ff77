package preflight

import (
	"math"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
)

func TestParseSMIGPUs(t *testing.T) {
	gs, err := parseSMIGPUs("0, GPU-a0, NVIDIA H20, 97871, 4, 550.54.15\n\n1, GPU-a1, NVIDIA H20, 97871, 60000, 550.54.15\n")
	if err != nil || len(gs) != 2 || gs[1].UsedMiB != 60000 || gs[0].Name != "NVIDIA H20" || gs[0].Driver != "550.54.15" || gs[1].UUID != "GPU-a1" {
		t.Fatalf("got %+v, %v", gs, err)
	}
	for _, bad := range []string{"0, GPU-a0, NVIDIA H20, 97871", "0, NVIDIA H20, 97871, 4, 550.54.15", "x, GPU-a0, NVIDIA H20, 97871, 4, 550", "0, GPU-a0, NVIDIA H20, lots, 4, 550", "0, GPU-a0, NVIDIA H20, -1, 4, 550"} {
		if _, err := parseSMIGPUs(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseSMIApps(t *testing.T) {
	apps := parseSMIApps("GPU-a4, 4242, python3, 60000\n\nGPU-a5, 4242, python3, 512\n")
	if len(apps) != 2 || apps[0] != (gpuApp{GPUUUID: "GPU-a4", PID: "4242", Name: "python3", UsedMiB: "60000"}) || apps[1].GPUUUID != "GPU-a5" {
		t.Fatalf("got %+v", apps)
	}
}

func TestProcParsers(t *testing.T) {
	if v := driverFromProc("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue Mar  5 22:23:56 UTC 2024\nGCC"); v != "550.54.15" {
		t.Errorf("driver %q", v)
	}
	if v := driverFromProc("garbage"); v != "" {
		t.Errorf("driver from garbage %q", v)
	}
	limits := "Limit  Soft Limit  Hard Limit  Units\nMax locked memory         65536                65536                bytes\n"
	if v := lockedMemorySoftLimit(limits); v != "65536" {
		t.Errorf("memlock %q", v)
	}
	if v := meminfoBytes("MemTotal:  2 kB\nMemAvailable:   1 kB\n", "MemAvailable"); v != 1024 {
		t.Errorf("meminfo %v", v)
	}
	if !active("EnableStreamMemOPs: 1\nRegistryDwords: \"PeerMappingOverride=1;RmFoo=2\"") {
		t.Error("options not seen as active")
	}
	if active("EnableStreamMemOPs: 1\nRegistryDwords: \"\"") {
		t.Error("missing PeerMappingOverride seen as active")
	}
	if !setsDriverOpts("options nvidia NVreg_EnableStreamMemOPs=1\noptions nvidia NVreg_RegistryDwords=\"PeerMappingOverride=1;\"\n") {
		t.Error("options over two lines not seen")
	}
	if setsDriverOpts("options nvidia_drm modeset=1 NVreg_EnableStreamMemOPs=1 PeerMappingOverride=1") {
		t.Error("options for another module counted")
	}
}

func TestVersionMatch(t *testing.T) {
	for _, c := range []struct {
		got, want string
		s         Status
	}{
		{"0.11.0", "0.11.0", Pass}, {"0.11.0+cu128", "0.11.0", Pass}, {"0.11.0", "v0.11.0", Pass},
		{"0.11.1", "0.11.0", Warn}, {"0.10.1.1", "0.11.0", Fail}, {"1.11.0", "0.11.0", Fail},
	} {
		if s := versionMatch(c.got, c.want); s != c.s {
			t.Errorf("versionMatch(%q, %q) = %s, want %s", c.got, c.want, s, c.s)
		}
	}
}

// TestFallbackCheckpointBytes anchors the fallback on published figures:
// DeepSeek-V3's card says the Hugging Face checkpoint holds 685B
// parameters (671B main model + 14B MTP), stored as block FP8 with BF16
// embeddings; Llama-3.1-8B is 8.03B BF16 parameters.
func TestFallbackCheckpointBytes(t *testing.T) {
	ds, err := catalog.LookupModel("deepseek-v3")
	if err != nil {
		t.Fatal(err)
	}
	pc := ds.ParamCounts()
	if params := pc.Total + mtpParams(ds, pc); math.Abs(params-685e9)/685e9 > 0.01 {
		t.Errorf("DeepSeek-V3 checkpoint parameters %.4g, want 685B ±1%%", params)
	}
	// One byte per FP8 parameter, a second byte for the BF16 embedding and LM head.
	want := 685e9 + pc.Embedding + pc.LMHead
	if b := fallbackCheckpointBytes(ds); math.Abs(b-want)/want > 0.01 {
		t.Errorf("DeepSeek-V3 FP8 checkpoint %.4g bytes, want %.4g ±1%%", b, want)
	}
	ll, err := catalog.LookupModel("llama-3.1-8b")
	if err != nil {
		t.Fatal(err)
	}
	if b := fallbackCheckpointBytes(ll); math.Abs(b-2*8.03e9)/(2*8.03e9) > 0.01 {
		t.Errorf("Llama-3.1-8B BF16 checkpoint %.4g bytes, want 16.06 GB ±1%%", b)
	}
}

func FuzzParseSMIGPUs(f *testing.F) {
	f.Add("0, NVIDIA H20, 97871, 4, 550.54.15\n")
	f.Add("0, NVIDIA H20, [N/A], [N/A], 550\n1,,,,\n")
	f.Add("0, GPU-5a4c0f1e-0000-4000-8000-000000000000, NVIDIA H20, 97871, 1, 550.54.15\n")
	f.Add(gb10SMILine + "\n")
	f.Fuzz(func(t *testing.T, out string) {
		gs, err := parseSMIGPUs(out)
		if err == nil && len(gs) > strings.Count(out, "\n")+1 {
			t.Errorf("%d GPUs from %d lines", len(gs), strings.Count(out, "\n")+1)
		}
	})
}

// FuzzHostFiles feeds arbitrary content to every parser of host files: none
// may panic, whatever a broken /proc or a damaged index holds.
func FuzzHostFiles(f *testing.F) {
	f.Add("MemTotal:       2113378304 kB\nMemAvailable: 1 kB\n")
	f.Add("Max locked memory         unlimited            unlimited            bytes\n")
	f.Add("NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue\n")
	f.Add(`{"metadata": {"total_size": 10}, "weight_map": {"a": "x.safetensors"}}`)
	f.Add("options nvidia NVreg_EnableStreamMemOPs=1\n:\n")
	f.Fuzz(func(t *testing.T, s string) {
		_ = meminfoBytes(s, "MemTotal")
		_ = lockedMemorySoftLimit(s)
		_ = driverFromProc(s)
		_ = setsDriverOpts(s)
		_ = active(s)
		_ = parseSMIApps(s)
		var set shardSet
		_ = set.applyIndex([]byte(s), map[string]bool{})
	})
}
