package preflight

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/resolve"
)

// smiMemoryTolerance is how far nvidia-smi's total may sit from the catalog
// figure: the sources in gpus.md show one fixed total per part across
// drivers, so 1% only absorbs rounding while still telling an 80 GB part
// from a 94 GB variant.
const smiMemoryTolerance = 0.01

// idleUsedFraction: an idle GPU shows a few MiB used (0-4 MiB in the
// nvidia-smi listings gpus.md cites); more than 1% of the total is another
// process's allocation, possibly in a container nvidia-smi cannot see into.
const idleUsedFraction = 0.01

// expectedGPU is what hardware.gpu promises about each GPU.
type expectedGPU struct {
	Name    string
	SMIMiB  float64 // 0 = unknown (custom GPU)
	CUDAMiB float64
	Vendor  string // "" = nvidia
}

// expectedGPU is the resolved GPU as nvidia-smi should show it. A custom
// GPU (hardware.gpu figures) states only the CUDA total, and its name only
// when the spec gives one.
func (e *env) expectedGPU() expectedGPU {
	if c := e.d.Hardware.GPU.Custom; c != nil {
		return expectedGPU{Name: c.Name, CUDAMiB: c.MemoryMiB, Vendor: c.Vendor}
	}
	g := e.r.GPU
	return expectedGPU{Name: g.Name, SMIMiB: g.SMIMemoryMiB, CUDAMiB: g.MemoryMiB, Vendor: g.Vendor}
}

// gpuSkip skips the gpu.* checks for GPUs neither nvidia-smi nor amd-smi
// (rocm-smi) describe, so such a node is not told to install the NVIDIA
// driver.
func (e *env) gpuSkip() (Result, bool) {
	exp := e.expectedGPU()
	if exp.Vendor == "" || strings.EqualFold(exp.Vendor, "nvidia") || e.amd() {
		return Result{}, false
	}
	return skip(fmt.Sprintf("%s GPUs are not checked yet (preflight reads nvidia-smi, amd-smi and rocm-smi)", exp.Vendor)), true
}

// amd: the spec's GPUs are AMD's, listed by amd-smi (rocm-smi).
func (e *env) amd() bool { return strings.EqualFold(e.expectedGPU().Vendor, "amd") }

// gpuFail turns an inventory error into the fail every gpu check reports.
func gpuFail(err error, expected string) Result {
	fix := "run on a GPU node with the NVIDIA driver loaded; `nvidia-smi` must work"
	if msg := err.Error(); strings.Contains(msg, "Unable to determine the device handle") || strings.Contains(msg, "GPU is lost") {
		// nvidia-smi's answer when one GPU stopped responding, e.g. "Unable
		// to determine the device handle for GPU 0000:02:00.0: GPU is lost.
		// Reboot the system to recover this GPU" (JosephKJ/OWOD#81), "...:
		// Unknown Error" for a GPU that fell off the bus (NVIDIA/open-gpu-
		// kernel-modules#387): the driver is loaded, one GPU is not usable.
		fix = "a GPU stopped responding (the named bus id; dmesg shows Xid 79 \"fallen off the bus\" or similar): drain the node, reboot it or reseat the GPU, then run preflight again"
	}
	return fail(err.Error(), expected, fix)
}

// gpuFail is the package gpuFail with the fix for the node's GPU vendor.
func (e *env) gpuFail(err error, expected string) Result {
	if e.amd() {
		return fail(err.Error(), expected, amdToolFix)
	}
	return gpuFail(err, expected)
}

func checkGPUCount(ctx context.Context, e *env) Result {
	if r, ok := e.gpuSkip(); ok {
		return r
	}
	want := fmt.Sprintf("%d GPUs (hardware.nodes[%d].gpus)", e.node.GPUs, e.specIdx())
	if sh := e.share(); sh.Shared {
		return checkSharedGPUs(ctx, e, sh)
	}
	q, err := e.gpus(ctx)
	if err != nil {
		return e.gpuFail(err, want)
	}
	found := fmt.Sprintf("%d GPUs", len(q.GPUs))
	if len(q.GPUs) < e.node.GPUs {
		return fail(found, want, e.missingGPUFix())
	}
	if len(q.GPUs) > e.node.GPUs {
		found += fmt.Sprintf(" (the bundle uses %d)", e.node.GPUs)
	}
	return pass(found, want)
}

// checkSharedGPUs is gpu.count for a pool on a node both P/D pools share:
// the host must have the GPUs the pool's instances are given (its share,
// resolve.NodeShare: consecutive GPUs, prefill's first), a subset of the
// node's.
func checkSharedGPUs(ctx context.Context, e *env, sh resolve.NodeShare) Result {
	last := sh.FirstGPU + sh.GPUs - 1
	want := fmt.Sprintf("GPUs %d-%d, the %s pool's share of the node's %d (hardware.nodes[%d].gpus; the %s pool has the others)",
		sh.FirstGPU, last, e.opts.Role.Name, e.node.GPUs, e.specIdx(), sh.With)
	q, err := e.gpus(ctx)
	if err != nil {
		return e.gpuFail(err, want)
	}
	have := map[int]bool{}
	for _, g := range q.GPUs {
		have[g.Index] = true
	}
	var missing []string
	for i := sh.FirstGPU; i <= last; i++ {
		if !have[i] {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	found := fmt.Sprintf("%d GPUs", len(q.GPUs))
	if len(missing) > 0 {
		return fail(found+"; missing the pool's GPU "+strings.Join(missing, ", "), want, e.missingGPUFix())
	}
	return pass(fmt.Sprintf("%s; the pool's GPUs %d-%d present", found, sh.FirstGPU, last), want)
}

func checkGPUModel(ctx context.Context, e *env) Result {
	if r, ok := e.gpuSkip(); ok {
		return r
	}
	exp := e.expectedGPU()
	if exp.Name == "" {
		return skip("hardware.gpu is custom and has no name to compare")
	}
	q, err := e.gpus(ctx)
	if err != nil {
		return e.gpuFail(err, exp.Name)
	}
	names := distinctNames(q.GPUs)
	found := strings.Join(names, ", ")
	same := sameGPUName
	if e.amd() {
		same = sameAMDModel
	}
	if len(names) == 1 && same(names[0], exp.Name) {
		return pass(found, exp.Name)
	}
	return fail(found, exp.Name, "set hardware.gpu to the GPU this node has, or run this node's bundle on the right host")
}

func checkGPUMemory(ctx context.Context, e *env) Result {
	if r, ok := e.gpuSkip(); ok {
		return r
	}
	exp := e.expectedGPU()
	q, err := e.gpus(ctx)
	if err != nil {
		return e.gpuFail(err, memExpectText(exp))
	}
	if len(q.GPUs) == 0 {
		return fail("no GPUs listed", memExpectText(exp), e.listFix())
	}
	if !q.FromSMI {
		return fail("nvidia-smi is not installed; the driver's files do not report memory", memExpectText(exp), "install nvidia-smi (part of the NVIDIA driver utilities)")
	}
	var low, high, unknown []string
	for _, g := range q.GPUs {
		if g.MemUnknown {
			unknown = append(unknown, fmt.Sprint(g.Index))
			continue
		}
		switch memVerdict(g.MemMiB, exp) {
		case Fail:
			low = append(low, fmt.Sprintf("GPU %d: %.0f MiB", g.Index, g.MemMiB))
		case Warn:
			high = append(high, fmt.Sprintf("GPU %d: %.0f MiB", g.Index, g.MemMiB))
		}
	}
	if len(low) > 0 {
		fix := "the spec's memory figure is larger than this host's GPUs: fix hardware.gpu, or check for a MIG partition (`nvidia-smi -L`)"
		if e.amd() {
			fix = "the spec's memory figure is larger than this host's GPUs: fix hardware.gpu, or check the memory partition mode (`amd-smi static --partition`: NPS4/CPX splits a GPU's memory)"
		}
		return fail(strings.Join(low, "; "), memExpectText(exp), fix)
	}
	if len(unknown) > 0 {
		// Only unified-memory parts print no total (GB10); nothing to compare.
		return skip(fmt.Sprintf("%s reports no memory total for GPU %s (a unified-memory part: its memory is the host's)", q.Tool, strings.Join(unknown, ", ")))
	}
	if len(high) > 0 {
		return warn(strings.Join(high, "; "), memExpectText(exp), "GPUs have more memory than the spec assumes; estimates are conservative — set hardware.gpu to match")
	}
	return pass(fmt.Sprintf("%d GPUs × %.0f MiB", len(q.GPUs), q.GPUs[0].MemMiB), memExpectText(exp))
}

// memVerdict compares one GPU's nvidia-smi total with the expectation.
func memVerdict(found float64, exp expectedGPU) Status {
	if exp.SMIMiB == 0 {
		// Custom GPUs state the CUDA total, which is below nvidia-smi's.
		if found < exp.CUDAMiB {
			return Fail
		}
		return Pass
	}
	switch rel := (found - exp.SMIMiB) / exp.SMIMiB; {
	case rel < -smiMemoryTolerance:
		return Fail
	case rel > smiMemoryTolerance:
		return Warn
	}
	return Pass
}

func memExpectText(exp expectedGPU) string {
	if exp.SMIMiB == 0 {
		return fmt.Sprintf("≥ %.0f MiB per GPU (hardware.gpu.memory_mib)", exp.CUDAMiB)
	}
	tool := "nvidia-smi reports"
	if strings.EqualFold(exp.Vendor, "amd") {
		tool = "amd-smi and rocm-smi report"
	}
	return fmt.Sprintf("%.0f MiB per GPU as %s it (±%.0f%%)", exp.SMIMiB, tool, smiMemoryTolerance*100)
}

func checkGPUDriver(ctx context.Context, e *env) Result {
	if r, ok := e.gpuSkip(); ok {
		return r
	}
	if e.amd() {
		return skip("the amdgpu driver's version is not checked (this check reads NVIDIA's)")
	}
	q, err := e.gpus(ctx)
	if err != nil {
		return gpuFail(err, "an NVIDIA driver version")
	}
	vers := map[string]bool{}
	for _, g := range q.GPUs {
		vers[g.Driver] = true
	}
	if len(q.GPUs) == 0 || vers[""] {
		return fail("no driver version reported", "an NVIDIA driver version", "reinstall the NVIDIA driver; check `cat /proc/driver/nvidia/version`")
	}
	return pass("driver "+strings.Join(sortedKeys(vers), ", "), "an NVIDIA driver version")
}

func checkGPUProcesses(ctx context.Context, e *env) Result {
	if r, ok := e.gpuSkip(); ok {
		return r
	}
	want := "no process holding GPU memory"
	sh := e.share()
	if sh.Shared {
		want = fmt.Sprintf("no process holding memory on GPUs %d-%d, the %s pool's share of the node's %d (the %s pool has the others)",
			sh.FirstGPU, sh.FirstGPU+sh.GPUs-1, e.opts.Role.Name, e.node.GPUs, sh.With)
	}
	q, err := e.gpus(ctx)
	if err != nil {
		return e.gpuFail(err, want)
	}
	if !q.FromSMI {
		return fail("nvidia-smi is not installed; cannot list GPU processes", want, "install nvidia-smi")
	}
	var apps []gpuApp
	if q.Tool == "amd-smi" || q.Tool == "rocm-smi" {
		if apps, err = e.amdApps(ctx, q); err != nil {
			return e.gpuFail(err, want)
		}
	} else {
		out, err := e.run(ctx, "nvidia-smi", smiAppsArgs...)
		if err != nil {
			return gpuFail(fmt.Errorf("nvidia-smi --query-compute-apps failed: %v", err), want)
		}
		apps = parseSMIApps(string(out))
	}
	if sh.Shared {
		return checkSharedProcesses(e, sh, q, apps, want)
	}
	var held []string
	for _, a := range apps {
		held = append(held, fmt.Sprintf("pid %s %s (%s MiB)", a.PID, a.Name, a.UsedMiB))
	}
	for _, g := range q.GPUs {
		if gpuInUse(g) {
			held = append(held, fmt.Sprintf("GPU %d: %.0f MiB in use", g.Index, g.UsedMiB))
		}
	}
	if len(held) > 0 {
		return fail(strings.Join(held, "; "), want, e.processesFix())
	}
	return pass(fmt.Sprintf("%d GPUs idle", len(q.GPUs)), want)
}

// processesFix is processesFix with the listing command of the node's GPUs.
func (e *env) processesFix() string {
	if e.amd() {
		return amdProcessesFix
	}
	return processesFix
}

const processesFix = "stop the processes (`nvidia-smi` lists them; memory used with no process listed belongs to another container) — vLLM sizes its KV cache from total memory and fails or OOMs"

// gpuInUse: more memory used than an idle GPU shows (idleUsedFraction).
func gpuInUse(g gpuInfo) bool { return g.MemMiB > 0 && g.UsedMiB > idleUsedFraction*g.MemMiB }

// checkSharedProcesses is gpu.processes for a pool on a node both P/D
// pools share: only the pool's own GPUs (its share, by nvidia-smi's index:
// the numbering CUDA_VISIBLE_DEVICES and docker's --gpus device= are given
// in the bundle) must be free. A process is placed on its GPU by the uuid
// --query-compute-apps names; one whose uuid matches no listed GPU counts
// against the pool, as every process does on a node of its own. What the
// other pool's GPUs hold is reported, never failed: that pool may already
// be running, and its instances see only their own GPUs.
func checkSharedProcesses(e *env, sh resolve.NodeShare, q gpuQuery, apps []gpuApp, want string) Result {
	last := sh.FirstGPU + sh.GPUs - 1
	own := func(i int) bool { return i >= sh.FirstGPU && i <= last }
	byUUID := map[string]int{}
	for _, g := range q.GPUs {
		if g.UUID != "" {
			byUUID[g.UUID] = g.Index
		}
	}
	var held []string
	others := map[int][]string{} // another pool's (or no pool's) GPU -> pids on it
	for _, a := range apps {
		i, ok := byUUID[a.GPUUUID]
		switch {
		case !ok:
			held = append(held, fmt.Sprintf("pid %s %s (%s MiB) on GPU %s, not in nvidia-smi's list", a.PID, a.Name, a.UsedMiB, a.GPUUUID))
		case own(i):
			held = append(held, fmt.Sprintf("pid %s %s (%s MiB) on GPU %d", a.PID, a.Name, a.UsedMiB, i))
		default:
			others[i] = append(others[i], a.PID)
		}
	}
	inUse := map[int]bool{} // another pool's (or no pool's) GPU with memory in use
	for _, g := range q.GPUs {
		switch {
		case !gpuInUse(g):
		case own(g.Index):
			held = append(held, fmt.Sprintf("GPU %d: %.0f MiB in use", g.Index, g.UsedMiB))
		default:
			inUse[g.Index] = true
		}
	}
	found := fmt.Sprintf("the pool's GPUs %d-%d idle", sh.FirstGPU, last)
	if len(held) > 0 {
		found = strings.Join(held, "; ")
	}
	if info := e.otherPoolsGPUs(sh, others, inUse); info != "" {
		found += "; " + info
	}
	if len(held) > 0 {
		return fail(found, want, e.processesFix()+"; only the "+e.opts.Role.Name+" pool's GPUs must be free")
	}
	return pass(found, want)
}

// otherPoolsGPUs says what the GPUs outside the pool's share hold: the
// other pool's share (from Options.Roles; the whole rest of the node when
// it is unknown) as info, since that pool may be running, and GPUs neither
// pool is given (a split that leaves some idle, or a host with more GPUs
// than the spec) as unused by the bundle; "" when they are all idle.
func (e *env) otherPoolsGPUs(sh resolve.NodeShare, procs map[int][]string, inUse map[int]bool) string {
	first, last := -1, -1
	for _, r := range e.roles() {
		if r.Name != sh.With {
			continue
		}
		if pe, err := e.forRole(r); err == nil && pe.share().Shared {
			o := pe.share()
			first, last = o.FirstGPU, o.FirstGPU+o.GPUs-1
		}
	}
	busy := map[int]bool{}
	for i := range procs {
		busy[i] = true
	}
	for i := range inUse {
		busy[i] = true
	}
	var theirs, neither []int
	for i := range busy {
		if first < 0 || i >= first && i <= last {
			theirs = append(theirs, i)
		} else {
			neither = append(neither, i)
		}
	}
	// holds says what GPUs hold: their processes (a process on several
	// GPUs counted once), and the GPUs with memory in use but no process
	// listed (another container's).
	holds := func(gpus []int) string {
		sort.Ints(gpus)
		pids, silent := map[string]bool{}, []string(nil)
		for _, i := range gpus {
			for _, p := range procs[i] {
				pids[p] = true
			}
			if len(procs[i]) == 0 {
				silent = append(silent, fmt.Sprint(i))
			}
		}
		var what []string
		if n := len(pids); n > 0 {
			what = append(what, plural(n, "process", "processes"))
		}
		if len(silent) > 0 {
			what = append(what, "memory in use with no process listed on GPU "+strings.Join(silent, ", "))
		}
		return strings.Join(what, " and ")
	}
	var parts []string
	if len(theirs) > 0 {
		name := fmt.Sprintf("the %s pool's GPUs %d-%d", sh.With, first, last)
		if first < 0 {
			name = fmt.Sprintf("the node's other GPUs (the %s pool's)", sh.With)
		}
		parts = append(parts, fmt.Sprintf("%s hold %s: expected if that pool is running", name, holds(theirs)))
	}
	if len(neither) > 0 {
		sort.Ints(neither)
		ids := make([]string, len(neither))
		for k, i := range neither {
			ids[k] = fmt.Sprint(i)
		}
		which, verb := "GPU "+strings.Join(ids, ", "), "holds"
		if len(ids) > 1 {
			which, verb = "GPUs "+strings.Join(ids, ", "), "hold"
		}
		parts = append(parts, fmt.Sprintf("%s, in neither pool's share, %s %s: the bundle does not use them", which, verb, holds(neither)))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// sameGPUName compares names ignoring case and spacing.
func sameGPUName(a, b string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }
	return norm(a) == norm(b)
}

func distinctNames(gs []gpuInfo) []string {
	seen := map[string]bool{}
	for _, g := range gs {
		seen[g.Name] = true
	}
	return sortedKeys(seen)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// gib renders bytes for reports: GiB, or MiB below one GiB so that a
// 64 MiB /dev/shm does not read "0.1 GiB".
func gib(b float64) string {
	if b < math.Exp2(30) {
		return fmt.Sprintf("%.0f MiB", b/math.Exp2(20))
	}
	return fmt.Sprintf("%.1f GiB", b/math.Exp2(30))
}

func sortStrings(s []string) { sort.Strings(s) }
