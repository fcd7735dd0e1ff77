package preflight

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// The NVIDIA driver options NVSHMEM's IBGDA transport needs, as vLLM's
// tools/ep_kernels/configure_system_drivers.sh writes them.
const (
	optStreamMemOps = "NVreg_EnableStreamMemOPs=1"
	optPeerMapping  = "PeerMappingOverride=1"
	driverOptsLine  = `options nvidia NVreg_EnableStreamMemOPs=1 NVreg_RegistryDwords="PeerMappingOverride=1;"`
)

// deepEPSkip skips checks only DeepEP needs.
func (e *env) deepEPSkip() (Result, bool) {
	if e.deepEP() {
		return Result{}, false
	}
	return skip(fmt.Sprintf("needed only by DeepEP (NVSHMEM IBGDA); all2all backend is %s", e.backend())), true
}

func checkDriverOptions(_ context.Context, e *env) Result {
	if r, ok := e.deepEPSkip(); ok {
		return r
	}
	want := "EnableStreamMemOPs=1 and PeerMappingOverride=1 in the loaded NVIDIA driver"
	fix := "write `" + driverOptsLine + "` to /etc/modprobe.d/nvidia-ibgda.conf, run `update-initramfs -u` and reboot (vLLM tools/ep_kernels/configure_system_drivers.sh)"
	conf := e.modprobeFileWithDriverOpts()
	params, err := e.readTrim("/proc/driver/nvidia/params")
	if err != nil {
		if conf != "" {
			return warn("set in "+conf+"; the NVIDIA driver is not loaded, so the active values are unknown", want, "load the driver and rerun")
		}
		return fail("NVIDIA driver not loaded and no modprobe.d file sets the options", want, fix)
	}
	if active(params) {
		return pass("EnableStreamMemOPs: 1, RegistryDwords has PeerMappingOverride=1", want)
	}
	found := fmt.Sprintf("EnableStreamMemOPs: %s, RegistryDwords: %s", orUnknown(procField(params, "EnableStreamMemOPs")), orUnknown(procField(params, "RegistryDwords")))
	if conf != "" {
		return fail(found+" (set in "+conf+" but not active)", want, "the options take effect only after `update-initramfs -u` and a reboot")
	}
	return fail(found, want, fix)
}

// active reads /proc/driver/nvidia/params ("EnableStreamMemOPs: 1",
// `RegistryDwords: "PeerMappingOverride=1;"`).
func active(params string) bool {
	return procField(params, "EnableStreamMemOPs") == "1" &&
		strings.Contains(procField(params, "RegistryDwords"), optPeerMapping)
}

// modprobeFileWithDriverOpts returns the /etc/modprobe.d file whose
// "options nvidia" lines set both options, or "".
func (e *env) modprobeFileWithDriverOpts() string {
	ents, err := fs.ReadDir(e.host.FS, fsPath("/etc/modprobe.d"))
	if err != nil {
		return ""
	}
	for _, ent := range ents {
		p := path.Join("/etc/modprobe.d", ent.Name())
		data, err := e.readFile(p)
		if err == nil && setsDriverOpts(string(data)) {
			return p
		}
	}
	return ""
}

func setsDriverOpts(conf string) bool {
	var opts string
	for _, line := range strings.Split(conf, "\n") {
		f := strings.Fields(line)
		if len(f) >= 2 && f[0] == "options" && f[1] == "nvidia" {
			opts += " " + line
		}
	}
	return strings.Contains(opts, optStreamMemOps) && strings.Contains(opts, optPeerMapping)
}

func checkGDRCopy(_ context.Context, e *env) Result {
	if r, ok := e.deepEPSkip(); ok {
		return r
	}
	const want = "gdrdrv module loaded"
	mods, err := e.readFile("/proc/modules")
	if err != nil {
		return unchecked("cannot read /proc/modules (a container or sandbox may hide it)", want, "run preflight on the host itself; `lsmod | grep gdrdrv` shows the module")
	}
	for _, line := range strings.Split(string(mods), "\n") {
		if strings.HasPrefix(line, "gdrdrv ") {
			return pass("gdrdrv loaded", want)
		}
	}
	return fail("gdrdrv not loaded", want, "install gdrcopy (vLLM tools/ep_kernels/install_system_libraries.sh) and `modprobe gdrdrv`")
}

func checkMemlock(_ context.Context, e *env) Result {
	if r, ok := e.rdmaSkip(); ok {
		return r
	}
	if k := e.d.Runtime.Kind; k == "docker" || k == "kubernetes" {
		return skip(fmt.Sprintf("runtime %s: the container's limit applies (docker --ulimit memlock=-1, or IPC_LOCK in Kubernetes), not this shell's", k))
	}
	const want = "unlimited (ulimit -l)"
	limits, err := e.readFile("/proc/self/limits")
	if err != nil {
		return unchecked("cannot read /proc/self/limits: "+err.Error(), want, "run `ulimit -l` in the shell that starts vLLM")
	}
	soft := lockedMemorySoftLimit(string(limits))
	if soft == "unlimited" {
		return pass("unlimited", want)
	}
	return fail(orUnknown(soft)+" bytes", want,
		"RDMA registers GPU and host buffers; a finite limit gives `cannot register cq buf`: set `* - memlock unlimited` in /etc/security/limits.conf (or LimitMEMLOCK=infinity for a systemd unit) and log in again")
}

// lockedMemorySoftLimit reads the soft column of "Max locked memory" in
// /proc/self/limits, whose columns are separated by runs of spaces.
func lockedMemorySoftLimit(limits string) string {
	for _, line := range strings.Split(limits, "\n") {
		if rest, ok := strings.CutPrefix(line, "Max locked memory"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}
