package preflight

import (
	"context"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// sharedPD turns the 4-node H20 spec into a P/D spec whose two pools share
// node0 (SPEC126's same-node pools): preInst prefill instances of TP
// preTP, then one decode instance of TP 4, on node0's 8 GPUs. The split is
// resolve's (NodeShare: prefill first): prefill on GPUs 0 .. preInst×preTP-1,
// slots 0 .. preInst-1; decode after it.
func sharedPD(preInst, preTP int) func(*spec.Deployment) {
	return func(d *spec.Deployment) {
		d.Parallelism = spec.Parallelism{}
		d.VLLM.All2AllBackend = ""
		d.Disaggregation = &spec.Disaggregation{Connector: "nixl", Transport: "ucx",
			Router:  spec.Router{Kind: spec.RouterKindVLLM, Node: "node0", Port: 9000},
			Prefill: spec.Pool{Instances: preInst, Nodes: []string{"node0"}, Parallelism: spec.PoolParallelism{Tensor: preTP, Pipeline: 1, Data: 1}},
			Decode:  spec.Pool{Instances: 1, Nodes: []string{"node0"}, Parallelism: spec.PoolParallelism{Tensor: 4, Pipeline: 1, Data: 1}},
		}
	}
}

// runShared runs preflight on node0 of a sharedPD spec as the command
// does for a node both pools name: Roles lists both pools, Role and
// Deployment are the prefill pool's. host edits the fixture host.
func runShared(t *testing.T, edit func(*spec.Deployment), host func(*Host), only ...string) Report {
	t.Helper()
	d := loadSpec(t, "h20-roce")
	edit(d)
	r := resolved(t, d)
	if r.PD == nil || len(r.PD.Roles) != 2 || !r.PD.Roles[0].Deployment.SharesNode() {
		t.Fatalf("the spec does not share node0 between the pools: %+v", r.PD)
	}
	roles := []*resolve.Role{&r.PD.Roles[0], &r.PD.Roles[1]}
	h := fixtureHost(t, "h20-roce")
	if host != nil {
		host(&h)
	}
	rep, err := Run(context.Background(), Options{Deployment: roles[0].Deployment, Role: roles[0], Roles: roles, Node: "node0",
		Only: only, Host: h, WorkDir: "/srv", HFCacheDir: "/root/.cache/huggingface/hub", Timeout: fastTimeout * 10})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// poolResult is the result of check id for pool; it fails the test unless
// there is exactly one.
func poolResult(t *testing.T, rep Report, id, pool string) Result {
	t.Helper()
	var out []Result
	for _, r := range rep.Results {
		if r.ID == id && r.Pool == pool {
			out = append(out, r)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s (pool %q): %d results, want 1: %+v", id, pool, len(out), rep.Results)
	}
	return out[0]
}

// busyPorts marks ports in use on the fixture host.
func busyPorts(ports ...int) func(*Host) {
	return func(h *Host) {
		n := h.Net.(fakeNetwork)
		for _, p := range ports {
			n.inUse[p] = true
		}
	}
}

// TestSharedNodeChecksEachPool: on node0 shared by one TP 4 prefill and one
// TP 4 decode instance, the pool checks run for each pool against its own
// GPUs, ports and side channel (vLLM 0.11.0's side-channel base 5557, TP 4
// ports per instance: prefill 5557-5560, decode 5561-5564; API ports
// vllm.port 8000 + slot: 8000, 8001), and the host-wide checks once.
func TestSharedNodeChecksEachPool(t *testing.T) {
	rep := runShared(t, sharedPD(1, 4), busyPorts(5561))
	wantResult(t, poolResult(t, rep, "ports.nixl_side_channel", "prefill"), Pass, "5557, 5558, 5559, 5560", "prefill pool, base 5557")
	dec := poolResult(t, rep, "ports.nixl_side_channel", "decode")
	wantResult(t, dec, Fail, "5561 in use", "free: 5561, 5562, 5563, 5564", "decode pool, base 5561", "shared with the prefill pool")
	if dec.Path != "disaggregation.decode" {
		t.Errorf("decode side channel path %q, want disaggregation.decode", dec.Path)
	}
	wantResult(t, poolResult(t, rep, "ports.free", "prefill"), Pass, "free: 8000", "prefill instance on GPUs 0-3 (vllm.port + 0)")
	wantResult(t, poolResult(t, rep, "ports.free", "decode"), Pass, "free: 8001", "decode instance on GPUs 4-7 (vllm.port + 1)")
	pre, de := poolResult(t, rep, "gpu.count", "prefill"), poolResult(t, rep, "gpu.count", "decode")
	wantResult(t, pre, Pass, "GPUs 0-3, the prefill pool's share of the node's 8")
	wantResult(t, de, Pass, "GPUs 4-7, the decode pool's share of the node's 8")
	if pre.Path != "disaggregation.prefill.nodes[0]" || de.Path != "disaggregation.decode.nodes[0]" {
		t.Errorf("gpu.count paths %q, %q: want each pool's node entry", pre.Path, de.Path)
	}
	// Host-wide checks: once, naming no pool.
	for _, id := range []string{"gpu.model", "net.interface", "host.memory", "sw.nixl"} {
		poolResult(t, rep, id, "")
	}
	if got, want := len(rep.Results), len(checks)+4; got != want {
		t.Errorf("%d results, want %d (every check, the four pool checks twice)", got, want)
	}
	// The finding says which pool it concerns.
	var found bool
	for _, f := range rep.Findings() {
		if f.Code == dec.Code {
			found = strings.Contains(f.Message, "ports.nixl_side_channel (decode pool): 5561 in use")
		}
	}
	if !found {
		t.Errorf("no side-channel finding naming the decode pool: %v", rep.Findings())
	}
}

// TestSharedNodeSeveralInstances: two TP 2 prefill instances (GPUs 0-1 and
// 2-3, slots 0 and 1) before one TP 4 decode instance (GPUs 4-7, slot 2):
// each prefill instance's side channel starts past the one before (5557-
// 5558, 5559-5560), decode's past both (5561-5564), its API port is
// vllm.port + 2; a busy 8002 and 5560 are the decode's and prefill's.
func TestSharedNodeSeveralInstances(t *testing.T) {
	rep := runShared(t, sharedPD(2, 2), busyPorts(8002, 5560), "ports")
	wantResult(t, poolResult(t, rep, "ports.free", "prefill"), Pass, "free: 8000, 8001", "GPUs 2-3 (vllm.port + 1)")
	wantResult(t, poolResult(t, rep, "ports.free", "decode"), Fail, "8002 in use", "decode instance on GPUs 4-7 (vllm.port + 2)")
	wantResult(t, poolResult(t, rep, "ports.nixl_side_channel", "prefill"), Fail, "5560 in use", "5557, 5558, 5559, 5560", "bases 5557, 5559")
	wantResult(t, poolResult(t, rep, "ports.nixl_side_channel", "decode"), Pass, "5561, 5562, 5563, 5564")
}

// TestSharedNodeMissingGPUs: a host showing 6 of the node's 8 GPUs holds
// the prefill pool's GPUs 0-3 but not the decode pool's 6 and 7: the
// decode pool's gpu.count fails, the prefill pool's passes.
func TestSharedNodeMissingGPUs(t *testing.T) {
	six := func(h *Host) {
		r := h.Cmd.(fakeRunner)
		key := "nvidia-smi " + strings.Join(smiGPUArgs, " ")
		lines := nonEmptyLines(r[key])
		if len(lines) != 8 {
			t.Fatalf("fixture lists %d GPUs, want 8", len(lines))
		}
		r[key] = strings.Join(lines[:6], "\n") + "\n"
	}
	rep := runShared(t, sharedPD(1, 4), six, "gpu.count")
	wantResult(t, poolResult(t, rep, "gpu.count", "prefill"), Pass, "6 GPUs; the pool's GPUs 0-3 present")
	wantResult(t, poolResult(t, rep, "gpu.count", "decode"), Fail, "missing the pool's GPU 6, 7", "GPUs 4-7")
}

// gpuLoad sets the fixture host's nvidia-smi answers: the GPUs in used
// with 60003 MiB in use (the h20-broken fixture's busy GPU: 60000 MiB of a
// process plus the idle few) and one compute app per entry of apps
// (GPU index -> pid; index -1 names a uuid nvidia-smi's GPU list lacks).
// Every app holds 60000 MiB.
func gpuLoad(t *testing.T, used []int, apps map[int]string) func(*Host) {
	return func(h *Host) {
		r := h.Cmd.(fakeRunner)
		key := "nvidia-smi " + strings.Join(smiGPUArgs, " ")
		lines := nonEmptyLines(r[key])
		if len(lines) != 8 {
			t.Fatalf("fixture lists %d GPUs, want 8", len(lines))
		}
		uuid := map[int]string{-1: "GPU-ffffffff-0000-4000-8000-000000000000"}
		for i, l := range lines {
			f := splitCSV(l)
			uuid[i] = f[1]
			for _, u := range used {
				if u == i {
					f[4] = "60003"
				}
			}
			lines[i] = strings.Join(f, ", ")
		}
		r[key] = strings.Join(lines, "\n") + "\n"
		var out []string
		for i := -1; i < 8; i++ {
			if pid, ok := apps[i]; ok {
				out = append(out, uuid[i]+", "+pid+", python3, 60000")
			}
		}
		r["nvidia-smi "+strings.Join(smiAppsArgs, " ")] = strings.Join(out, "\n") + "\n"
	}
}

// TestSharedNodeGPUProcesses: on node0 shared by one TP 4 prefill
// instance (GPUs 0-3) and one TP 4 decode instance (GPUs 4-7),
// gpu.processes checks each pool's own GPUs. vLLM starts one worker per
// GPU, so a running TP 4 instance shows 4 processes, one on each of its
// GPUs (pids here are illustrative): the other pool's are reported, never
// failed; a process or unexplained memory on the pool's own GPU fails.
func TestSharedNodeGPUProcesses(t *testing.T) {
	decodeUp := map[int]string{4: "5004", 5: "5005", 6: "5006", 7: "5007"}
	prefillUp := map[int]string{0: "5000", 1: "5001", 2: "5002", 3: "5003"}
	with := func(m map[int]string, i int, pid string) map[int]string {
		out := map[int]string{i: pid}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	type want struct {
		status   Status
		mentions []string
		absent   []string
	}
	for _, c := range []struct {
		name            string
		edit            func(*spec.Deployment)
		used            []int
		apps            map[int]string
		prefill, decode want
	}{
		{name: "idle", edit: sharedPD(1, 4),
			prefill: want{Pass, []string{"the pool's GPUs 0-3 idle", "no process holding memory on GPUs 0-3, the prefill pool's share of the node's 8 (the decode pool has the others)"}, []string{"expected if"}},
			decode:  want{Pass, []string{"the pool's GPUs 4-7 idle", "GPUs 4-7, the decode pool's share"}, []string{"expected if"}}},
		{name: "decode running", edit: sharedPD(1, 4), used: []int{4, 5, 6, 7}, apps: decodeUp,
			prefill: want{Pass, []string{"the pool's GPUs 0-3 idle; the decode pool's GPUs 4-7 hold 4 processes: expected if that pool is running"}, []string{"pid"}},
			decode:  want{Fail, []string{"pid 5004 python3 (60000 MiB) on GPU 4", "pid 5007 python3 (60000 MiB) on GPU 7", "GPU 6: 60003 MiB in use", "only the decode pool's GPUs must be free"}, []string{"GPU 0", "expected if"}}},
		{name: "prefill running", edit: sharedPD(1, 4), used: []int{0, 1, 2, 3}, apps: prefillUp,
			prefill: want{Fail, []string{"pid 5000 python3 (60000 MiB) on GPU 0", "GPU 3: 60003 MiB in use"}, []string{"GPU 4"}},
			decode:  want{Pass, []string{"the pool's GPUs 4-7 idle; the prefill pool's GPUs 0-3 hold 4 processes: expected if that pool is running"}, nil}},
		{name: "decode running, a stray process on prefill's GPU 2", edit: sharedPD(1, 4), used: []int{2, 4, 5, 6, 7}, apps: with(decodeUp, 2, "999"),
			prefill: want{Fail, []string{"pid 999 python3 (60000 MiB) on GPU 2; GPU 2: 60003 MiB in use; the decode pool's GPUs 4-7 hold 4 processes: expected if that pool is running"}, nil},
			decode:  want{Fail, []string{"on GPU 4", "the prefill pool's GPUs 0-3 hold 1 process: expected"}, nil}},
		{name: "memory in use on prefill's GPU 1, no process listed", edit: sharedPD(1, 4), used: []int{1},
			prefill: want{Fail, []string{"GPU 1: 60003 MiB in use"}, []string{"pid"}},
			decode:  want{Pass, []string{"the prefill pool's GPUs 0-3 hold memory in use with no process listed on GPU 1: expected if that pool is running"}, nil}},
		// One process on two of decode's GPUs (one line per GPU) is one process.
		{name: "one process on two GPUs", edit: sharedPD(1, 4), used: []int{4, 5}, apps: map[int]string{4: "6000", 5: "6000"},
			prefill: want{Pass, []string{"the decode pool's GPUs 4-7 hold 1 process: expected if that pool is running"}, nil},
			decode:  want{Fail, []string{"pid 6000 python3 (60000 MiB) on GPU 4; pid 6000 python3 (60000 MiB) on GPU 5"}, nil}},
		{name: "a process on a GPU nvidia-smi does not list counts against both", edit: sharedPD(1, 4), apps: map[int]string{-1: "777"},
			prefill: want{Fail, []string{"pid 777 python3 (60000 MiB) on GPU GPU-ffffffff-0000-4000-8000-000000000000, not in nvidia-smi's list"}, nil},
			decode:  want{Fail, []string{"pid 777"}, nil}},
		// One TP 2 prefill instance (GPUs 0-1) and one TP 4 decode
		// instance (GPUs 2-5) leave GPUs 6 and 7 to neither pool.
		{name: "GPUs in neither share", edit: sharedPD(1, 2), used: []int{6, 7}, apps: map[int]string{7: "888"},
			prefill: want{Pass, []string{"the pool's GPUs 0-1 idle; GPUs 6, 7, in neither pool's share, hold 1 process and memory in use with no process listed on GPU 6: the bundle does not use them"}, []string{"expected if"}},
			decode:  want{Pass, []string{"the pool's GPUs 2-5 idle; GPUs 6, 7, in neither pool's share"}, nil}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := runShared(t, c.edit, gpuLoad(t, c.used, c.apps), "gpu.processes")
			for pool, w := range map[string]want{"prefill": c.prefill, "decode": c.decode} {
				r := poolResult(t, rep, "gpu.processes", pool)
				wantResult(t, r, w.status, w.mentions...)
				for _, s := range w.absent {
					if strings.Contains(r.Found, s) {
						t.Errorf("%s pool: %q mentions %q", pool, r.Found, s)
					}
				}
			}
		})
	}
}

// TestSharedNodeOtherGPUChecksIgnoreRunningPool: the other gpu.* checks
// read what a running pool does not change — gpu.memory compares
// memory.total (not memory.used or free) with hardware.gpu, gpu.model and
// gpu.driver the names and driver version, gpu.count which GPUs exist — so
// with the decode pool running on GPUs 4-7 (60003 MiB used on each) they
// all pass, and the only fail is the decode pool's own gpu.processes.
func TestSharedNodeOtherGPUChecksIgnoreRunningPool(t *testing.T) {
	rep := runShared(t, sharedPD(1, 4), gpuLoad(t, []int{4, 5, 6, 7}, map[int]string{4: "5004", 5: "5005", 6: "5006", 7: "5007"}), "gpu")
	for _, r := range rep.Results {
		switch {
		case r.ID == "gpu.processes" && r.Pool == "decode":
			wantResult(t, r, Fail, "on GPU 4")
		case r.ID == "gpu.fabric" || r.ID == "gpu.imex_channel":
			wantResult(t, r, Skip) // no multi-node NVLink domain in the spec
		default:
			wantResult(t, r, Pass)
		}
	}
	wantResult(t, poolResult(t, rep, "gpu.memory", ""), Pass, "8 GPUs × 97871 MiB")
}

// TestSharedNodeOnePool: Options.Pool (--pool) checks one pool of a shared
// node: only its per-pool results, the host-wide ones as its, its own GPU
// workers and front end in the host memory need (the other pool, if
// running, already holds its memory); an unknown pool is a usage error.
func TestSharedNodeOnePool(t *testing.T) {
	d := loadSpec(t, "h20-roce")
	sharedPD(1, 4)(d)
	r := resolved(t, d)
	roles := []*resolve.Role{&r.PD.Roles[0], &r.PD.Roles[1]}
	run := func(pool string) (Report, error) {
		return Run(context.Background(), Options{Deployment: roles[0].Deployment, Role: roles[0], Roles: roles, Node: "node0", Pool: pool,
			Host: fixtureHost(t, "h20-roce"), WorkDir: "/srv", HFCacheDir: "/root/.cache/huggingface/hub", Timeout: fastTimeout * 10})
	}
	rep, err := run("decode")
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range rep.Results {
		if res.Pool == "prefill" {
			t.Errorf("--pool decode ran a prefill check: %+v", res)
		}
	}
	wantResult(t, poolResult(t, rep, "gpu.count", "decode"), Pass, "GPUs 4-7")
	both, err := run("")
	if err != nil {
		t.Fatal(err)
	}
	one, all := resultOf(t, rep, "host.memory"), resultOf(t, both, "host.memory")
	if !strings.Contains(one.Expected, "4 GPU workers + the front end") || !strings.Contains(all.Expected, "8 GPU workers + 2 front ends") {
		t.Errorf("host.memory need: --pool decode %q, both pools %q", one.Expected, all.Expected)
	}
	if _, err := run("router"); err == nil || !strings.Contains(err.Error(), "no such pool on this node (prefill, decode)") {
		t.Errorf("--pool router: %v", err)
	}
}
