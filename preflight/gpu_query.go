package preflight

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"regexp"
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
	// MemUnknown: the tool printed no memory total ("[N/A]"): nvidia-smi
	// on a unified-memory part (GB10, whose memory is the host's: NVIDIA's
	// DGX Spark known issues, "nvidia-smi reports memory usage not
	// supported").
	MemUnknown bool
}

// gpuQuery is the GPU inventory and where it came from.
type gpuQuery struct {
	GPUs []gpuInfo
	// FromSMI is false when nvidia-smi was missing and /proc/driver/nvidia was read.
	FromSMI bool
	// Tool is the command that listed the GPUs: "nvidia-smi" (or "" when
	// the driver's files were read), "amd-smi" or "rocm-smi".
	Tool string
}

// errNoGPUTooling is a clear fail, not a crash, on GPU-less hosts.
var errNoGPUTooling = errors.New("no NVIDIA GPU tooling: nvidia-smi is not on PATH and /proc/driver/nvidia does not exist")

// gpus asks nvidia-smi, falling back to the driver's /proc files; on a
// node of AMD GPUs it asks amd-smi (rocm-smi without it).
func (e *env) gpus(ctx context.Context) (gpuQuery, error) {
	if e.amd() {
		return e.amdGPUs(ctx)
	}
	out, err := e.run(ctx, "nvidia-smi", smiGPUArgs...)
	if err == nil {
		gs, perr := parseSMIGPUs(string(out))
		return gpuQuery{GPUs: gs, FromSMI: true, Tool: "nvidia-smi"}, perr
	}
	if !errors.Is(err, ErrNotFound) {
		return gpuQuery{}, fmt.Errorf("nvidia-smi failed: %v", err)
	}
	gs, perr := e.procGPUs()
	return gpuQuery{GPUs: gs}, perr
}

// parseSMIGPUs reads "0, GPU-5a4c..., NVIDIA H20, 97871, 4, 550.54.15"
// lines. A memory field nvidia-smi has no value for ("[N/A]", as a GB10
// prints for memory.total and memory.used; "[Not Supported]") is unknown,
// not an unreadable line: the GPU is still counted and named.
func parseSMIGPUs(out string) ([]gpuInfo, error) {
	var gs []gpuInfo
	for _, line := range nonEmptyLines(out) {
		f := splitCSV(line)
		if len(f) != 6 {
			return nil, fmt.Errorf("unexpected nvidia-smi line %q", line)
		}
		idx, err1 := strconv.Atoi(f[0])
		mem, memOK, err2 := smiNumber(f[3])
		used, _, err3 := smiNumber(f[4])
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("unexpected nvidia-smi line %q: %v", line, err)
		}
		gs = append(gs, gpuInfo{Index: idx, UUID: f[1], Name: f[2], MemMiB: mem, UsedMiB: used, Driver: f[5], MemUnknown: !memOK})
	}
	return gs, nil
}

// smiNumber reads a numeric nvidia-smi field; a bracketed placeholder
// ("[N/A]", "[Not Supported]", "[Unknown Error]": nvidia-smi(1) prints
// these for values it cannot query) or a bare "N/A" is no value (ok
// false), anything else must be a non-negative number.
func smiNumber(s string) (v float64, ok bool, err error) {
	if s == "N/A" || strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		return 0, false, nil
	}
	v, err = strconv.ParseFloat(s, 64)
	if err == nil && (v < 0 || math.IsNaN(v) || math.IsInf(v, 0)) {
		err = fmt.Errorf("%q is not a memory size", s)
	}
	return v, err == nil, err
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

// driverFromProc finds "550.54.15" in the first line of
// /proc/driver/nvidia/version: the proprietary module's "NVRM version:
// NVIDIA UNIX x86_64 Kernel Module  550.54.15  Tue ..." and the open
// module's "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64
// 565.57.01  Release Build ..." (its "for <arch>" comes before the
// version: NVIDIA's README, kernel_open.html; nix-community/nixGL#186).
// The version is the first dotted number after "Kernel Module".
func driverFromProc(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	_, rest, ok := strings.Cut(line, "Kernel Module")
	if !ok {
		return ""
	}
	for _, f := range strings.Fields(rest) {
		if driverVersionRE.MatchString(f) {
			return f
		}
	}
	return ""
}

// driverVersionRE is an NVIDIA driver version: 550.54.15, 550.67, 535.104.05.
var driverVersionRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)+$`)

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
