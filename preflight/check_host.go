package preflight

import (
	"context"
	"fmt"
	"math"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// minShmBytes is the floor below which NCCL's shared-memory transport fails
// to create its segments (Docker's 64 MiB default is the classic case;
// segments of 9.6–190 MB per peer appear in NCCL and vLLM issue logs, and
// 1 GiB is the usual smallest fix).
const minShmBytes = 1 << 30

func checkShm(_ context.Context, e *env) Result {
	if k := e.d.Runtime.Kind; k == "docker" || k == "kubernetes" {
		return skip(fmt.Sprintf("runtime %s: the container gets its own /dev/shm (shm_size %s)", k, e.shmSpec()))
	}
	wantBytes, err := parseSize(e.shmSpec())
	if err != nil {
		wantBytes = minShmBytes
	}
	want := fmt.Sprintf("≥ %s free (runtime.docker.shm_size, the size vlaunch gives containers)", gib(wantBytes))
	u, err := e.host.Disk.StatFS("/dev/shm")
	if err != nil {
		return fail("cannot stat /dev/shm: "+err.Error(), want, "mount a tmpfs on /dev/shm")
	}
	found := fmt.Sprintf("%s free of %s", gib(u.FreeBytes), gib(u.TotalBytes))
	fix := "enlarge it: `mount -o remount,size=" + e.shmSpec() + " /dev/shm` (and in /etc/fstab), and delete stale files in /dev/shm"
	switch {
	case u.FreeBytes < minShmBytes:
		return fail(found, want, "NCCL cannot create its shared-memory segments: "+fix)
	case u.FreeBytes < wantBytes:
		return warn(found, want, fix)
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

// parseSize reads Docker-style sizes: "64g", "512m", "1073741824" (binary units).
func parseSize(s string) (float64, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "ib"), "b")
	mult := 1.0
	if n := len(s); n > 0 {
		if i := strings.IndexByte("kmgt", s[n-1]); i >= 0 {
			mult = float64(uint64(1) << (10 * (i + 1)))
			s = s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v*mult, 0) {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return v * mult, nil
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
