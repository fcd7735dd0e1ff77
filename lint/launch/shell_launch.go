package launch

import (
	"strings"
)

// containerCtx is the container a command runs in.
type containerCtx struct {
	info    Container
	image   string
	version string
	env     []EnvVar
	gpus    int
	gpuSrc  string
	// hostOnly lists exported host variables the container does not receive.
	hostOnly []EnvVar
	// envOpen marks --env-file / envFrom: more variables than listed.
	envOpen bool
	// marks are device files and options that tell the platform (/dev/kfd).
	marks []string
	// mounts are the host paths bound into the container (docker -v/--mount).
	mounts []mount
	// sharesCwd marks a container whose working directory is the host's
	// (apptainer binds $PWD unless --contain, --containall, --no-mount or
	// --pwd): a relative path is the host file of that name.
	sharesCwd bool
}

// serve records a vLLM server invocation.
func (w *walker) serve(cc *cmdCtx, at Value, launcher string, args []Value) {
	inv := w.newInvocation(cc, KindServe, at, launcher, args)
	w.noteConfigFile(inv)
	w.fe.invs = append(w.fe.invs, inv)
}

// ray records `ray start --head` or `ray start --address=...`.
func (w *walker) ray(cc *cmdCtx, at Value, args []Value) {
	kind := KindRayWorker
	for _, a := range args {
		if a.Text == "--head" {
			kind = KindRayHead
		}
	}
	w.fe.invs = append(w.fe.invs, w.newInvocation(cc, kind, at, "ray start", args))
}

// rayHelpers are the scripts that start Ray for an LWS group: vLLM's
// examples/online_serving/multi-node-serving.sh, and its origin, LWS's
// docs/examples/vllm/build/ray_init.sh (kubernetes-sigs/lws@0102370e,
// copied to /ray_init.sh by that example's Dockerfile). Both take
// "leader --ray_cluster_size=N" (`ray start --head --port=6379`, then
// wait for N nodes) or "worker --ray_address=HOST" (`ray start
// --address=HOST:6379 --block`).
var rayHelpers = map[string]bool{"multi-node-serving.sh": true, "ray_init.sh": true}

// rayHelper records a rayHelpers script, which runs `ray start --head` for
// "leader" and `ray start --address` for "worker" (the LWS example in
// vLLM's docs starts Ray this way).
func (w *walker) rayHelper(cc *cmdCtx, at Value, script string, leader bool, args []Value) {
	kind := KindRayWorker
	if leader {
		kind = KindRayHead
	}
	w.fe.invs = append(w.fe.invs, w.newInvocation(cc, kind, at, script, args))
}

func (w *walker) newInvocation(cc *cmdCtx, kind Kind, at Value, launcher string, args []Value) *Invocation {
	var opArgs []Value
	if kind == KindServe && len(w.ctx.operatorArgs) > 0 {
		args = append(append([]Value{}, args...), w.ctx.operatorArgs...)
		opArgs = w.ctx.operatorArgs
	}
	inv := &Invocation{
		Kind: kind, File: w.fe.file, Pos: at.Pos, Launcher: launcher, Args: args,
		Host: w.ctx.host, Role: w.ctx.role, Background: cc.stmt.Background || w.ctx.background,
		OperatorArgs: opArgs, Arms: w.ctx.arms,
	}
	if c := w.ctx.container; c != nil {
		inv.Env = append(append(append([]EnvVar{}, c.env...), w.scriptExports()...), cc.env...)
		inv.Image, inv.ImageVersion = c.image, c.version
		inv.GPUs, inv.GPUSource = c.gpus, c.gpuSrc
		info := c.info
		inv.Container = &info
		inv.HostOnlyEnv = c.hostOnly
		inv.EnvOpen = c.envOpen
		// a script the container runs (`sh -c 'X=1; vllm serve ...'`) can
		// assign without exporting as a host script can; the container's
		// own environment is inherited, exported
		inv.Unexported = w.unexported()
	} else {
		inv.Env = append(w.exported(), cc.env...)
		inv.Unexported = w.unexported()
		inv.EnvOpen = w.fe.sourced
	}
	inv.ParentOnlyRefs = parentOnlyRefs(w.fe.cmdHidden)
	inv.devicesFromEnv()
	var marks []string
	if c := w.ctx.container; c != nil {
		marks = c.marks
	}
	inv.Platform = detectPlatform(inv, marks)
	return inv
}

// containerScope is the shell state a container starts with: its
// environment (docker -e, a manifest's env), and nothing of the host
// script's variables, which the container does not see.
func containerScope(env []EnvVar) *scope {
	sc := newScope()
	for _, e := range env {
		sc.vars[e.Name] = &shVar{val: e.Value, exported: true, setAt: e.Pos, inherited: true}
	}
	return sc
}

// scriptExports are the variables a script running in a container exports
// itself (`bash -c 'export NCCL_SOCKET_IFNAME=eth0; vllm serve ...'`): the
// container's own environment is inherited in its scope and listed apart.
func (w *walker) scriptExports() []EnvVar {
	var out []EnvVar
	for _, e := range w.exported() {
		if v := w.sc.vars[e.Name]; v != nil && !v.inherited {
			out = append(out, e)
		}
	}
	return out
}

// devicesFromEnv counts the GPUs a device-visibility variable of the
// invocation's environment leaves it (the last such variable set wins).
func (inv *Invocation) devicesFromEnv() {
	if inv.Container != nil && inv.GPUSource == "" {
		inv.nvidiaVisibleDevices()
	}
	for _, name := range visibleDeviceVars {
		if e, ok := inv.LookupEnv(name); ok && e.Value.Known {
			inv.GPUs, inv.GPUSource = countDevices(e.Value.Text), name
		}
	}
}

// nvidiaVisibleDevices reads NVIDIA_VISIBLE_DEVICES in a container that
// no other device limit names: the NVIDIA container runtime exposes the
// devices it lists (an index or UUID list; "all", "none", "void" and
// unset leave the count unknown). --gpus, a Compose device reservation and
// a device-plugin resource decide instead when present, so it is read only
// without them.
func (inv *Invocation) nvidiaVisibleDevices() {
	e, ok := inv.LookupEnv("NVIDIA_VISIBLE_DEVICES")
	if !ok || !e.Value.Known {
		return
	}
	switch v := strings.ToLower(strings.Trim(strings.TrimSpace(e.Value.Text), `"'`)); v {
	case "", "all", "none", "void":
	default:
		inv.GPUs, inv.GPUSource = countDevices(v), "NVIDIA_VISIBLE_DEVICES"
	}
}

// visibleDeviceVars limit the devices a process sees, per platform; the
// last one set wins.
var visibleDeviceVars = []string{"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"}

// countDevices counts the entries of a CUDA_VISIBLE_DEVICES-style list.
func countDevices(s string) int {
	s = strings.Trim(strings.TrimSpace(s), `"'`)
	if s == "" {
		return 0
	}
	return len(strings.Split(s, ","))
}

// parentOnlyRefs lists, once per name, the references the command's words
// make to variables a parent shell assigned without exporting
// (scope.hidden, collected while the words were expanded): the child shell
// running the command sees them unset. A reference through a variable the
// child itself holds is not one: the parent expanded it (P_HEAD="${nodes[0]}"
// srun bash -c "$WORKLOAD").
func parentOnlyRefs(hits []ParentOnlyRef) []ParentOnlyRef {
	var out []ParentOnlyRef
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.Name] {
			seen[h.Name] = true
			out = append(out, h)
		}
	}
	return out
}
