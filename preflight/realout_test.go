package preflight

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vlaunch/vlaunch/spec"
)

// Real command outputs, each from a public listing (cited), run through the
// parser it feeds. Where a listing printed other columns than preflight
// asks for, the line is assembled from that listing's real values (said so
// beside it).

// gb10SMILine is a DGX Spark's GPU in the columns of smiGPUArgs: nvidia-smi
// prints "[N/A]" for memory.total and memory.used on the GB10
// ("0, NVIDIA GB10, [N/A], [N/A]" for index,name,memory.total,memory.free:
// unslothai/unsloth#10703; "[N/A], [N/A], 0" for memory.used,memory.total,
// utilization.memory: mostlygeek/llama-swap#782). The uuid is a GB10's
// (leptonai/gpud#1170), the driver the one its nvidia-smi table shows
// (snowflakedb/ArcticTraining#345: 580.126.09).
const gb10SMILine = "0, GPU-2dee1e25-b3b5-007e-2b55-79f2d0f2ebe5, NVIDIA GB10, [N/A], [N/A], 580.126.09"

// TestRealSMIGPUs: before, any "[N/A]" made the whole listing unreadable
// and every gpu.* check failed on a DGX Spark with "unexpected nvidia-smi
// line"; now the GPU is counted, named and its memory unknown.
func TestRealSMIGPUs(t *testing.T) {
	gs, err := parseSMIGPUs(gb10SMILine + "\n")
	if err != nil || len(gs) != 1 {
		t.Fatalf("GB10: %+v, %v", gs, err)
	}
	g := gs[0]
	if g.Name != "NVIDIA GB10" || !g.MemUnknown || g.UsedMiB != 0 || g.Driver != "580.126.09" || gpuInUse(g) {
		t.Errorf("GB10 read as %+v", g)
	}
	// Totals real listings print, against the catalog's nvidia-smi figure:
	// "NVIDIA H20, 97871 MiB" (an 8 x H20 snapshot, find_string id
	// 65846954299), "NVIDIA GB200, 189471 MiB" (4 x GB200, driver
	// 580.105.08, id 60167695339), "NVIDIA B200, 183,359 MiB" (a Nebius
	// B200, id 66855568803), "NVIDIA GH200 480GB, 97871 MiB" (a Lambda
	// GH200, id 63088167599). The names must match the catalog's too.
	for _, c := range []struct {
		line, gpu string
	}{
		{"0, GPU-x, NVIDIA H20, 97871, 28, 550.54.15", "h20-96g"},
		{"0, GPU-x, NVIDIA GB200, 189471, 0, 580.105.08", "gb200"},
		{"0, GPU-x, NVIDIA B200, 183359, 0, 580.126.09", "b200"},
		{"0, GPU-x, NVIDIA GH200 480GB, 97871, 0, 580.1", "gh200"},
	} {
		gs, err := parseSMIGPUs(c.line)
		if err != nil || len(gs) != 1 {
			t.Fatalf("%q: %v", c.line, err)
		}
		exp := expectedGPU{SMIMiB: catalogSMI(t, c.gpu)}
		d := loadSpec(t, "h20-roce")
		d.Hardware.GPU = spec.GPURef{Name: c.gpu}
		if name := resolved(t, d).GPU.Name; !sameGPUName(gs[0].Name, name) {
			t.Errorf("%s: nvidia-smi name %q, catalog %q", c.gpu, gs[0].Name, name)
		}
		if v := memVerdict(gs[0].MemMiB, exp); v != Pass {
			t.Errorf("%s: %.0f MiB against the catalog's %.0f: %s", c.gpu, gs[0].MemMiB, exp.SMIMiB, v)
		}
	}
}

// TestRealSMIApps: `nvidia-smi --query-compute-apps=gpu_uuid,pid,
// process_name,used_memory --format=csv,noheader,nounits` on a GB10 with a
// server up (mostlygeek/llama-swap#782; its uuid elided there as "GPU-...").
func TestRealSMIApps(t *testing.T) {
	apps := parseSMIApps("GPU-..., 114687, /usr/local/bin/python, 19135\n")
	if len(apps) != 1 || apps[0] != (gpuApp{GPUUUID: "GPU-...", PID: "114687", Name: "/usr/local/bin/python", UsedMiB: "19135"}) {
		t.Errorf("got %+v", apps)
	}
}

// TestRealProcVersion: /proc/driver/nvidia/version of both kernel module
// flavours. The open module's "for <arch>" made the old parser return
// "for", so gpu.driver passed with "driver for" on every host running the
// open modules (the default from driver 560 for Turing and later).
func TestRealProcVersion(t *testing.T) {
	for in, want := range map[string]string{
		// nix-community/nixGL#186 (Ubuntu 24.04, nvidia-driver-565-open)
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  (dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024\nGCC version:  gcc version 13.3.0 (Ubuntu 13.3.0-6ubuntu2~24.04)\n": "565.57.01",
		// nix-community/nixGL#121 (Arch, nvidia-open-dkms)
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  525.60.11  Release Build  (archlinux-builder@localhost)  \nGCC version:  gcc version 12.2.0 (GCC) \n": "525.60.11",
		// dylanaraps/neofetch#876 (proprietary module)
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  384.98  Thu Oct 26 15:16:01 PDT 2017\nGCC version:  gcc version 7.2.0 (Ubuntu 7.2.0-8ubuntu3) \n": "384.98",
	} {
		if got := driverFromProc(in); got != want {
			t.Errorf("driverFromProc(%q) = %q, want %q", in[:60], got, want)
		}
	}
}

// TestRealFabricBlocks: Fabric blocks of real `nvidia-smi -q` answers. The
// GPU header line is the gb200-nvl72 fixture's (the listings quote the
// block alone).
func TestRealFabricBlocks(t *testing.T) {
	const hdr = "GPU 00000008:01:00.0\n    Product Name                          : NVIDIA GB200\n"
	// Registered but unhealthy (kubernetes-sigs/dra-driver-nvidia-gpu#626).
	unhealthy := hdr + `    Fabric
        State                             : Completed
        Status                            : Success
        CliqueId                          : 2
        ClusterUUID                       : dc6e40c4-d722-4357-9ba6-5291dd461278
        Health
            Summary                       : Unhealthy
            Bandwidth                     : Full
`
	// Registration failed (Azure/azhpc-images#506).
	failed := hdr + `    Fabric
        State                             : Completed
        Status                            : Insufficient Resources
        CliqueId                          : 0
        ClusterUUID                       : 00000000-0000-0000-0000-000000000000
`
	g := parseFabric([]byte(unhealthy))
	if len(g) != 1 || g[0] != (gpuFabric{GPU: "00000008:01:00.0", State: "Completed", Status: "Success", Clique: "2", ClusterID: "dc6e40c4-d722-4357-9ba6-5291dd461278", Health: "Unhealthy"}) {
		t.Errorf("unhealthy block read as %+v", g)
	}
	g = parseFabric([]byte(failed))
	if len(g) != 1 || g[0].Status != "Insufficient Resources" || g[0].Clique != "0" {
		t.Errorf("failed block read as %+v", g)
	}
	for _, c := range []struct {
		out  string
		want Status
		says string
	}{
		{unhealthy, Warn, "Health Summary Unhealthy"},
		{failed, Fail, "Status Insufficient Resources"},
	} {
		rep := runFixtureOpts(t, "gb200-nvl72", "gb200-nvl72", "node0", nil, func(o *Options) {
			o.Host.Cmd = fakeRunner{"nvidia-smi -q": c.out}
		}, "gpu.fabric")
		wantResult(t, resultOf(t, rep, "gpu.fabric"), c.want, c.says)
	}
}

// TestRealROCmSMIJSON: `rocm-smi --showproductname --showuse --showmeminfo
// vram --json` on a Radeon RX 7900 XT (marimo-team/marimo#9237), verbatim.
func TestRealROCmSMIJSON(t *testing.T) {
	out := `{
  "card0": {
    "GPU use (%)": "0",
    "VRAM Total Memory (B)": "21458059264",
    "VRAM Total Used Memory (B)": "27856896",
    "Card Series": "Radeon RX 7900 XT",
    "Card Model": "0x744c",
    "Card Vendor": "Advanced Micro Devices, Inc. [AMD/ATI]",
    "Card SKU": "D70401XT",
    "Subsystem ID": "0x471e",
    "Device Rev": "0xcc",
    "Node ID": "1",
    "GUID": "26967",
    "GFX Version": "gfx1100"
  }
}`
	gs, err := parseROCmSMI([]byte(out))
	if err != nil || len(gs) != 1 {
		t.Fatalf("%+v, %v", gs, err)
	}
	// 21458059264 B = 20464 MiB; 27856896 B = 26.6 MiB.
	if g := gs[0]; g.Name != "Radeon RX 7900 XT" || g.MemMiB != 20464 || math.Abs(g.UsedMiB-26.566) > 0.01 || g.MemUnknown {
		t.Errorf("read as %+v", g)
	}
}

// TestAMDModelNames: product names real AMD tools print, against the
// catalog's names.
func TestAMDModelNames(t *testing.T) {
	for _, c := range []struct {
		found, want string
		same        bool
	}{
		{"AMD Instinct MI300X OAM", "AMD Instinct MI300X", true},              // rocm-smi -i, ROCm/legacy-rocm-build#4750
		{"AMD Instinct MI300X VF", "AMD Instinct MI300X", true},               // amd-smi static on an SR-IOV VF (find_string id 70352164058)
		{"AMD Instinct Mi325X VF", "AMD Instinct MI325X", true},               // amd-smi static on an MI325X VM (id 32264041627)
		{"AMD Instinct MI308X OAM", "AMD Instinct MI300X", false},             // amdsmi asic info, gpustack/gpustack#4123
		{"AMD Instinct MI350X", "AMD Instinct MI355X", false},                 // amd-smi static, ROCm/rocm-systems#2987
		{"AMD Instinct MI300A", "AMD Instinct MI300X", false},                 // the APU (amd-smi docs' static example)
		{"Arcturus GL-XL [AMD Instinct MI100]", "AMD Instinct MI300X", false}, // rocm-smi --showproductname, easybuilders/easybuild-framework#3978
		{"Radeon RX 7900 XT", "AMD Instinct MI300X", false},
	} {
		if got := sameAMDModel(c.found, c.want); got != c.same {
			t.Errorf("sameAMDModel(%q, %q) = %v", c.found, c.want, got)
		}
	}
}

// TestAMDSMIParsers: amd-smi's JSON in the layouts its source writes
// (amdsmi_cli/amdsmi_commands.py), both top-level forms, a warning line
// before the JSON, the text units, and an idle GPU's process list.
func TestAMDSMIParsers(t *testing.T) {
	static := "WARNING: User is missing the following required groups: render, video. Please add user to these groups.\n" +
		`[{"gpu": 1, "asic": {"market_name": "AMD Instinct MI300X OAM"}}, {"gpu": 0, "asic": {"market_name": "N/A"}}]`
	gs, err := parseAMDStatic([]byte(static))
	if err != nil || len(gs) != 2 || gs[0].Index != 0 || gs[1].Name != "AMD Instinct MI300X OAM" || gs[1].UUID != amdKey(1) {
		t.Fatalf("static: %+v, %v", gs, err)
	}
	mem, err := parseAMDMem([]byte(`{"gpu_data": [{"gpu": 0, "mem_usage": {"total_vram": {"value": 196288, "unit": "MB"}, "used_vram": "285 MB"}},
		{"gpu": 1, "mem_usage": {"total_vram": "N/A", "used_vram": {"value": 299687936, "unit": "B"}}}]}`))
	if err != nil || mem[0] != (amdMem{total: 196288, used: 285, totalOK: true}) || mem[1].totalOK || math.Abs(mem[1].used-285.8) > 0.1 {
		t.Fatalf("mem: %+v, %v", mem, err)
	}
	apps, err := parseAMDProcesses([]byte(`[{"gpu": 0, "process_list": [{"process_info": "No running processes detected"}]},
		{"gpu": 1, "process_list": [{"process_info": {"name": "python3", "pid": 4242, "memory_usage": {"vram_mem": {"value": 1073741824, "unit": "B"}}}}]}]`))
	if err != nil || len(apps) != 1 || apps[0] != (gpuApp{GPUUUID: amdKey(1), PID: "4242", Name: "python3", UsedMiB: "1024"}) {
		t.Fatalf("processes: %+v, %v", apps, err)
	}
	for _, bad := range []string{"", "amd-smi: command failed", `{"gpu": 0}`, `[{"gpu": -1}]`, `[{"asic": {}}]`} {
		if _, err := parseAMDStatic([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestMI300XNode: the gpu.* checks on AMD nodes, from amd-smi (mi300x,
// mi300x-broken) and rocm-smi (mi300x-rocm-smi).
func TestMI300XNode(t *testing.T) {
	gpuIDs := []string{"gpu.count", "gpu.model", "gpu.memory", "gpu.driver", "gpu.processes"}
	run := func(host string, edit func(*spec.Deployment)) Report {
		return runFixture(t, host, "mi300x", "node0", edit, gpuIDs...)
	}
	rep := run("mi300x", nil)
	wantResult(t, resultOf(t, rep, "gpu.count"), Pass, "8 GPUs")
	wantResult(t, resultOf(t, rep, "gpu.model"), Pass, "AMD Instinct MI300X OAM")
	wantResult(t, resultOf(t, rep, "gpu.memory"), Pass, "8 GPUs × 196288 MiB", "amd-smi")
	wantResult(t, resultOf(t, rep, "gpu.driver"), Skip, "amdgpu")
	wantResult(t, resultOf(t, rep, "gpu.processes"), Pass, "8 GPUs idle")

	// The same host against an MI325X spec: another part, less memory.
	rep = run("mi300x", func(d *spec.Deployment) { d.Hardware.GPU = spec.GPURef{Name: "mi325x"} })
	wantResult(t, resultOf(t, rep, "gpu.model"), Fail, "AMD Instinct MI300X OAM")
	wantResult(t, resultOf(t, rep, "gpu.memory"), Fail, "196288 MiB", "amd-smi static --partition")

	rep = run("mi300x-broken", nil)
	wantResult(t, resultOf(t, rep, "gpu.count"), Fail, "7 GPUs", "amd-smi list")
	wantResult(t, resultOf(t, rep, "gpu.model"), Fail, "AMD Instinct MI308X OAM")
	wantResult(t, resultOf(t, rep, "gpu.processes"), Fail, "pid 2266127", "GPU 0: 3072 MiB in use", "amd-smi process")

	rep = run("mi300x-rocm-smi", nil)
	wantResult(t, resultOf(t, rep, "gpu.count"), Fail, "1 GPUs")
	wantResult(t, resultOf(t, rep, "gpu.model"), Pass, "AMD Instinct MI300X OAM")
	wantResult(t, resultOf(t, rep, "gpu.memory"), Pass, "196288 MiB")
	// 62588792832 B = 59689.3 MiB in use, above 1% of the total: vLLM's.
	wantResult(t, resultOf(t, rep, "gpu.processes"), Fail, "GPU 0: 59689 MiB in use")
}

// catalogSMI is the catalog's nvidia-smi total of a GPU.
func catalogSMI(t *testing.T, id string) float64 {
	t.Helper()
	d := loadSpec(t, "h20-roce")
	d.Hardware.GPU = spec.GPURef{Name: id}
	return resolved(t, d).GPU.SMIMemoryMiB
}

func FuzzParseAMDSMI(f *testing.F) {
	f.Add(`[{"gpu": 0, "asic": {"market_name": "AMD Instinct MI300X OAM"}, "mem_usage": {"total_vram": {"value": 196288, "unit": "MB"}, "used_vram": "285 MB"}, "process_list": [{"process_info": "No running processes detected"}]}]`)
	f.Add(`{"gpu_data": [{"gpu": 1, "process_list": [{"process_info": {"pid": 1, "name": "x", "memory_usage": {"vram_mem": {"value": 1e300, "unit": "B"}}}}]}]}`)
	f.Add("WARNING: x\n[]")
	f.Add(`{"card0": {"VRAM Total Memory (B)": "205822885888", "Card Series": "AMD Instinct MI300X OAM"}, "system": {}}`)
	f.Fuzz(func(t *testing.T, s string) {
		b := []byte(s)
		if gs, err := parseAMDStatic(b); err == nil && len(gs) > strings.Count(s, "gpu") {
			t.Errorf("%d GPUs from %d \"gpu\" keys", len(gs), strings.Count(s, "gpu"))
		}
		if mem, err := parseAMDMem(b); err == nil {
			for _, m := range mem {
				if m.total < 0 || m.used < 0 || math.IsNaN(m.total) || math.IsInf(m.total, 0) {
					t.Errorf("memory %+v", m)
				}
			}
		}
		_, _ = parseAMDProcesses(b)
		if gs, err := parseROCmSMI(b); err == nil {
			for _, g := range gs {
				if g.MemMiB < 0 || math.IsNaN(g.MemMiB) {
					t.Errorf("rocm-smi memory %+v", g)
				}
			}
		}
		_ = sameAMDModel(s, "AMD Instinct MI300X")
	})
}

// TestRealGIDTables: GID tables of real bonded mlx5 NICs, as show_gids
// prints them from sysfs (ports/1/gids/N and gid_attrs/types/N; show_gids
// writes "v1"/"v2" for the types file's "IB/RoCE v1"/"RoCE v2").
func TestRealGIDTables(t *testing.T) {
	type gid struct{ gid, ver string }
	table := func(dev string, gids []gid) fstest.MapFS {
		m := fstest.MapFS{}
		for i, g := range gids {
			typ := map[string]string{"v1": "IB/RoCE v1", "v2": "RoCE v2"}[g.ver]
			dir := fmt.Sprintf("sys/class/infiniband/%s/ports/1/", dev)
			m[dir+fmt.Sprintf("gids/%d", i)] = &fstest.MapFile{Data: []byte(g.gid + "\n")}
			m[dir+fmt.Sprintf("gid_attrs/types/%d", i)] = &fstest.MapFile{Data: []byte(typ + "\n")}
		}
		return m
	}
	for _, c := range []struct {
		name, dev string
		gids      []gid
		want      int // -1: none
	}{
		// openucx/ucx#10420: mlx5_bond_0 on bond0, IPv4 10.16.29.13.
		{"bond0", "mlx5_bond_0", []gid{
			{"fe80:0000:0000:0000:a288:c2ff:feb4:87d6", "v1"}, {"fe80:0000:0000:0000:a288:c2ff:feb4:87d6", "v2"},
			{"0000:0000:0000:0000:0000:ffff:0a10:1d0d", "v1"}, {"0000:0000:0000:0000:0000:ffff:0a10:1d0d", "v2"},
		}, 3},
		// openucx/ucx#9484: a VXLAN device on the bond carries the same
		// IPv4 at index 3 before the bond's own at 5; NCCL's automatic
		// choice (net_ib.cc ncclUpdateGidIndex keeps the first IPv4 RoCE v2
		// GID) and this check both take 3.
		{"bond with vxlan", "mlx5_bond_0", []gid{
			{"fe80:0000:0000:0000:0ac0:ebff:fe79:391a", "v1"}, {"fe80:0000:0000:0000:0ac0:ebff:fe79:391a", "v2"},
			{"0000:0000:0000:0000:0000:ffff:1e99:0aaf", "v1"}, {"0000:0000:0000:0000:0000:ffff:1e99:0aaf", "v2"},
			{"0000:0000:0000:0000:0000:ffff:1e99:0aaf", "v1"}, {"0000:0000:0000:0000:0000:ffff:1e99:0aaf", "v2"},
		}, 3},
		// kvcache-ai/Mooncake#1617: an MI355X node's RoCE NIC with IPv6
		// GIDs only: no IPv4 RoCE v2 GID (NCCL/RCCL then need
		// NCCL_IB_ADDR_FAMILY=AF_INET6).
		{"ipv6 only", "rocep105s0", []gid{
			{"fe80:0000:0000:0000:0690:81ff:fe39:e3e8", "v2"}, {"fd93:16d3:59b6:010d:0690:81ff:fe39:e3e8", "v2"},
		}, -1},
	} {
		e := &env{host: Host{FS: table(c.dev, c.gids)}}
		idx, ok := roceV2IPv4GID(e, rdmaPort{Dev: c.dev, Port: "1"})
		if !ok {
			idx = -1
		}
		if idx != c.want {
			t.Errorf("%s: GID index %d, want %d", c.name, idx, c.want)
		}
	}
}

// TestRealLostGPU: nvidia-smi's answer when a GPU is lost fails the gpu.*
// checks with the lost GPU named and a fix that says so (the exit code of
// the fixture is arbitrary: the listings show the message only).
func TestRealLostGPU(t *testing.T) {
	for _, msg := range []string{
		"Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost. Reboot the system to recover this GPU", // JosephKJ/OWOD#81
		"Unable to determine the device handle for GPU 0000:0B:00.0: Unknown Error",                                      // NVIDIA/open-gpu-kernel-modules#387
	} {
		rep := runFixtureOpts(t, "h20-roce", "h20-roce", "node0", nil, func(o *Options) {
			o.Host.Cmd = fakeRunner{strings.Join(append([]string{"nvidia-smi"}, smiGPUArgs...), " "): "!exit 15 " + msg}
		}, "gpu.count")
		wantResult(t, resultOf(t, rep, "gpu.count"), Fail, msg[len(msg)-20:], "Xid 79", "reboot")
	}
}
