package preflight

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// minShmBytes is the /dev/shm a host must have free for NCCL: NCCL creates
// its shared-memory segments there and fails to initialize when they do not
// fit ("failed to extend /dev/shm/nccl-… to 4194660 bytes"), and its guide
// sets --shm-size=1g for containers (NCCL User Guide, Troubleshooting,
// "Runtime and MPI issues" > "Shared memory",
// https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/troubleshooting/runtime_and_mpi_issues.html);
// segments of 9.6–190 MB per peer appear in NCCL and vLLM issue logs.
const minShmBytes = 1 << 30

// shmSource is where minShmBytes comes from, for the check's expectation.
const shmSource = "NCCL's shared-memory segments: its troubleshooting guide's --shm-size=1g"

// checkShm: on bare metal vLLM's processes and NCCL use the host's own
// /dev/shm, which no spec field sizes (runtime.docker.shm_size and
// runtime.kubernetes.shm_size size the containers vlaunch starts, and
// /dev/shm is a tmpfs capped at half the RAM by default), so the host must
// have NCCL's floor free. Docker and Kubernetes give the container its own
// /dev/shm of shm_size: skipped.
func checkShm(_ context.Context, e *env) Result {
	if k := e.d.Runtime.Kind; k == "docker" || k == "kubernetes" {
		return skip(fmt.Sprintf("runtime %s: the container gets its own /dev/shm (shm_size %s)", k, e.shmSpec()))
	}
	want := fmt.Sprintf("≥ %s free (%s)", gib(minShmBytes), shmSource)
	u, err := e.host.Disk.StatFS("/dev/shm")
	if err != nil {
		return fail("cannot stat /dev/shm: "+err.Error(), want, "mount a tmpfs on /dev/shm")
	}
	found := fmt.Sprintf("%s free of %s", gib(u.FreeBytes), gib(u.TotalBytes))
	if u.FreeBytes < minShmBytes {
		return fail(found, want, "NCCL cannot create its shared-memory segments: delete stale files in /dev/shm or enlarge it to at least 1 GiB "+
			"(`mount -o remount,size=1g /dev/shm`, and in /etc/fstab)")
	}
	return pass(found, want)
}

func (e *env) shmSpec() string {
	if e.d.Runtime.Kind == "kubernetes" && e.d.Runtime.Kubernetes.ShmSize != "" {
		return e.d.Runtime.Kubernetes.ShmSize
	}
	if s := e.d.Runtime.Docker.ShmSize; s != "" {
		return s
	}
	return "64g"
}

// meminfoBytes reads "MemTotal:       2113378304 kB".
func meminfoBytes(meminfo, key string) float64 {
	f := strings.Fields(procField(meminfo, key))
	if len(f) == 0 {
		return 0
	}
	v, _ := strconv.ParseFloat(f[0], 64)
	if len(f) > 1 && f[1] == "kB" {
		v *= 1024
	}
	return v
}

func checkHostDisk(_ context.Context, e *env) Result {
	loc := e.modelLocation()
	dir := loc.Dir
	if dir == "" {
		dir = e.opts.HFCacheDir
	}
	if dir == "" {
		return skip("no local model path and no Hugging Face cache directory")
	}
	exp, _ := e.checkpointBytes()
	var have float64
	if s, err := e.safetensors(dir); err == nil {
		have = s.Bytes
	}
	need := exp - have
	if need < 0 {
		need = 0
	}
	at := e.existingParent(dir)
	u, err := e.host.Disk.StatFS(at)
	want := fmt.Sprintf("≥ %s free at %s for the weights still missing", gib(need), at)
	if err != nil {
		return fail("cannot stat "+at+": "+err.Error(), want, "")
	}
	found := fmt.Sprintf("%s free of %s; %s of weights already there", gib(u.FreeBytes), gib(u.TotalBytes), gib(have))
	if u.FreeBytes < need {
		return fail(found, want, "free space or put the weights on a larger filesystem (model.path)")
	}
	return pass(found, want)
}

// existingParent walks up from dir to the first path that exists, which is
// the filesystem a download into dir would fill.
func (e *env) existingParent(dir string) string {
	p := filepath.ToSlash(filepath.Clean(dir))
	for p != "/" && p != "." && !e.exists(p) {
		p = path.Dir(p)
	}
	return p
}
