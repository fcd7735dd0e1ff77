package preflight

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// smiGPUArgs is the one nvidia-smi query every gpu.* check shares. The
// uuid ties a GPU's index to the processes --query-compute-apps lists,
// which name their GPU only by uuid (gpu_uuid; nvidia-smi(1), "--query-
// compute-apps", https://docs.nvidia.com/deploy/nvidia-smi).
var smiGPUArgs = []string{"--query-gpu=index,uuid,name,memory.total,memory.used,driver_version", "--format=csv,noheader,nounits"}

// smiAppsArgs lists the processes holding GPU memory, each with its GPU.
var smiAppsArgs = []string{"--query-compute-apps=gpu_uuid,pid,process_name,used_memory", "--format=csv,noheader,nounits"}

// gpuInfo is one GPU as nvidia-smi (or the driver's files) describe it.
type gpuInfo struct {
	Index int
	// UUID is nvidia-smi's GPU-... id ("" when only the driver's files
	// were read).
	UUID            string
	Name            string
	MemMiB, UsedMiB float64 // 0 when only the driver's files were read
	Driver          string
}

// gpuQuery is the GPU inventory and where it came from.
type gpuQuery struct {
	GPUs []gpuInfo
	// FromSMI is false when nvidia-smi was missing and /proc/driver/nvidia was read.
	FromSMI bool
}

// errNoGPUTooling is a clear fail, not a crash, on GPU-less hosts.
var errNoGPUTooling = errors.New("no NVIDIA GPU tooling: nvidia-smi is not on PATH and /proc/driver/nvidia does not exist")

// gpus asks nvidia-smi, falling back to the driver's /proc files.
func (e *env) gpus(ctx context.Context) (gpuQuery, error) {
	out, err := e.run(ctx, "nvidia-smi", smiGPUArgs...)
	if err == nil {
		gs, perr := parseSMIGPUs(string(out))
		return gpuQuery{GPUs: gs, FromSMI: true}, perr
	}
	if !errors.Is(err, ErrNotFound) {
		return gpuQuery{}, fmt.Errorf("nvidia-smi failed: %v", err)
	}
	gs, perr := e.procGPUs()
	return gpuQuery{GPUs: gs}, perr
}

// parseSMIGPUs reads "0, GPU-5a4c..., NVIDIA H20, 97871, 4, 550.54.15" lines.
func parseSMIGPUs(out string) ([]gpuInfo, error) {
	var gs []gpuInfo
	for _, line := range nonEmptyLines(out) {
		f := splitCSV(line)
		if len(f) != 6 {
			return nil, fmt.Errorf("unexpected nvidia-smi line %q", line)
		}
		idx, err1 := strconv.Atoi(f[0])
		mem, err2 := strconv.ParseFloat(f[3], 64)
		used, err3 := strconv.ParseFloat(f[4], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("unexpected nvidia-smi line %q: %v", line, err)
		}
		gs = append(gs, gpuInfo{Index: idx, UUID: f[1], Name: f[2], MemMiB: mem, UsedMiB: used, Driver: f[5]})
	}
	return gs, nil
}

// procGPUs reads /proc/driver/nvidia/gpus/*/information ("Model: NVIDIA H20")
// and the driver version from /proc/driver/nvidia/version.
func (e *env) procGPUs() ([]gpuInfo, error) {
	dirs, err := fs.ReadDir(e.host.FS, fsPath("/proc/driver/nvidia/gpus"))
	if err != nil {
		return nil, errNoGPUTooling
	}
	ver, _ := e.readTrim("/proc/driver/nvidia/version")
	driver := driverFromProc(ver)
	var gs []gpuInfo
	for i, d := range dirs {
		info, _ := e.readTrim("/proc/driver/nvidia/gpus/" + d.Name() + "/information")
		gs = append(gs, gpuInfo{Index: i, Name: procField(info, "Model"), Driver: driver})
	}
	return gs, nil
}

// driverFromProc finds "550.54.15" in "NVRM version: NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue ...".
func driverFromProc(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	_, rest, ok := strings.Cut(line, "Kernel Module")
	if !ok {
		return ""
	}
	if f := strings.Fields(rest); len(f) > 0 {
		return f[0]
	}
	return ""
}

// procField returns the value of "Key: value" in a /proc-style file.
func procField(s, key string) string {
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// gpuApp is one process holding GPU memory.
type gpuApp struct {
	GPUUUID string // the GPU it holds memory on (gpuInfo.UUID)
	PID     string
	Name    string
	UsedMiB string
}

// parseSMIApps reads "GPU-5a4c..., 1234, python3, 60000" lines (a process
// on several GPUs has a line per GPU).
func parseSMIApps(out string) []gpuApp {
	var apps []gpuApp
	for _, line := range nonEmptyLines(out) {
		f := splitCSV(line)
		if len(f) == 4 {
			apps = append(apps, gpuApp{GPUUUID: f[0], PID: f[1], Name: f[2], UsedMiB: f[3]})
		}
	}
	return apps
}

func splitCSV(line string) []string {
	f := strings.Split(line, ",")
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	return f
}

func nonEmptyLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return out
}
