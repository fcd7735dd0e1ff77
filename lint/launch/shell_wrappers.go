package launch

import (
	"strconv"
	"strings"
)

// wrappers are Python modules that start a vLLM engine from vLLM's own
// engine arguments plus flags of their own; the value names the front end.
var wrappers = map[string]string{
	// NVIDIA Dynamo's vLLM worker (ai-dynamo/dynamo
	// components/src/dynamo/vllm: backend_args.py adds --is-prefill-worker,
	// --is-decode-worker and others to vLLM's AsyncEngineArgs).
	"dynamo.vllm": "dynamo.vllm",
	// Dynamo's unified vLLM backend entry point (2026): the same argument
	// parser (components/src/dynamo/vllm/unified_main.py at 0b03b655:
	// "python -m dynamo.vllm.unified_main <vllm args>", config =
	// dynamo.vllm.args.parse_args(...)), so the same front end.
	"dynamo.vllm.unified_main": "dynamo.vllm",
}

// wrapped records a server started by a wrapper front end.
func (w *walker) wrapped(cc *cmdCtx, at Value, launcher, frontend string, args []Value) {
	inv := w.newInvocation(cc, KindServe, at, launcher, args)
	inv.Frontend = frontend
	w.fe.invs = append(w.fe.invs, inv)
}

// dockerExec follows `docker exec [opts] CONTAINER CMD...`: the command runs
// in a container started elsewhere, whose environment and image are unknown
// here except for the -e options.
func (w *walker) dockerExec(cc *cmdCtx, i int) {
	f := cc.fields
	c := &containerCtx{info: Container{Runtime: "docker", Pos: f[0].Pos, HostIPC: true, HostNetwork: true, HasShm: true}, envOpen: true}
	for ; i < len(f) && strings.HasPrefix(f[i].Text, "-"); i++ {
		name, val, hasVal := strings.Cut(strings.TrimLeft(f[i].Text, "-"), "=")
		v := f[i].Slice(len(f[i].Text)-len(val), len(f[i].Text))
		if !hasVal && execValueOpts[name] && i+1 < len(f) {
			i++
			v = f[i]
		}
		if name == "e" || name == "env" {
			c.env = append(c.env, w.dockerEnv(v))
		}
	}
	if i+1 >= len(f) {
		return
	}
	ctx := w.ctx
	ctx.container = c
	inner := &walker{fe: w.fe, src: w.src, sc: containerScope(c.env), ctx: ctx}
	inner.command(&cmdCtx{stmt: cc.stmt, fields: f[i+1:]}, 0)
}

// execValueOpts are `docker exec` options that take a value.
var execValueOpts = map[string]bool{"e": true, "env": true, "env-file": true, "u": true, "user": true, "w": true, "workdir": true, "detach-keys": true}

// runClusterScript is vLLM's examples/online_serving/run_cluster.sh.
const runClusterScript = "run_cluster.sh"

// runCluster models `run_cluster.sh IMAGE HEAD_ADDRESS --head|--worker
// HF_HOME [docker run options...]`: a container with host networking, all
// GPUs and a 10 GiB /dev/shm running `ray start --block --head
// --node-ip-address=HEAD_ADDRESS --port=6379` or `ray start --block
// --address=HEAD_ADDRESS:6379`; the options after HF_HOME (-e VLLM_HOST_IP=...)
// go to `docker run` (vllm-project/vllm examples/online_serving/run_cluster.sh).
// Older copies of the script started the head without --node-ip-address.
func (w *walker) runCluster(cc *cmdCtx, i int) {
	f := cc.fields
	if len(f) < i+5 {
		return
	}
	image, head, role := f[i+1], f[i+2], f[i+3].Text
	if role != "--head" && role != "--worker" {
		return
	}
	c := &containerCtx{image: image.Text, version: imageVersion(image.Text), gpus: 0, gpuSrc: "--gpus all"}
	c.info = Container{Runtime: "docker", Pos: f[i].Pos, HostNetwork: true, SharesHostNICs: true, HasShm: true}
	opts, _, _ := splitDockerRun(append(append([]Value{}, f[i+5:]...), knownValue("image", f[i].Pos)))
	_, envFile := w.dockerOptions(c, opts)
	c.envOpen = envFile
	ctx := w.ctx
	ctx.container = c
	inner := &walker{fe: w.fe, src: w.src, sc: containerScope(c.env), ctx: ctx}
	args := []Value{knownValue("--block", f[i].Pos)}
	kind := KindRayWorker
	if role == "--head" {
		kind = KindRayHead
		args = append(args, knownValue("--head", f[i+3].Pos), concatValues(knownValue("--node-ip-address=", head.Pos), head), knownValue("--port=6379", f[i].Pos))
	} else {
		args = append(args, concatValues(concatValues(knownValue("--address=", head.Pos), head), knownValue(":6379", head.Pos)))
	}
	inv := inner.newInvocation(&cmdCtx{stmt: cc.stmt}, kind, f[i], runClusterScript, args)
	w.fe.invs = append(w.fe.invs, inv)
}

// onlineDPScript is vllm-ascend's examples/external_online_dp/launch_online_dp.py.
const onlineDPScript = "launch_online_dp.py"

// maxLauncherRanks caps the servers one launcher line expands to.
const maxLauncherRanks = 64

// launchOnlineDP models `python launch_online_dp.py --dp-size S [--tp-size T]
// [--dp-size-local L] [--dp-rank-start R] --dp-address A [--dp-rpc-port P]
// [--vllm-start-port Q]` (vllm-project/vllm-ascend
// examples/external_online_dp, added in PR #2685, Sep 2025): for each of
// its L local ranks (default S) it runs run_dp_template.sh, a `vllm serve`
// with ASCEND_RT_VISIBLE_DEVICES = the rank's T devices, --port Q+i,
// --data-parallel-size S, --data-parallel-rank R+i, --data-parallel-address A,
// --data-parallel-rpc-port P and --tensor-parallel-size T (defaults T=1,
// R=0, P=12345, Q=9000). The template's model and other flags are not in
// the command, so the model is unresolved and the environment open.
func (w *walker) launchOnlineDP(cc *cmdCtx, at Value, args []Value) {
	opts := map[string]Value{}
	for k := 0; k < len(args); k++ {
		name, val, hasVal := strings.Cut(args[k].Text, "=")
		if !strings.HasPrefix(name, "--") {
			continue
		}
		v := args[k].Slice(len(args[k].Text)-len(val), len(args[k].Text))
		if !hasVal {
			if k+1 >= len(args) {
				break
			}
			k++
			v = args[k]
		}
		opts[strings.TrimPrefix(name, "--")] = v
	}
	size, ok := opts["dp-size"]
	if !ok {
		return
	}
	opt := func(name, def string) Value {
		if v, ok := opts[name]; ok {
			return v
		}
		return knownValue(def, at.Pos)
	}
	tp, start, rpc, port := opt("tp-size", "1"), opt("dp-rank-start", "0"), opt("dp-rpc-port", "12345"), opt("vllm-start-port", "9000")
	local := opt("dp-size-local", "-1")
	if local.Known && local.Text == "-1" {
		local = size
	}
	addr, hasAddr := opts["dp-address"]
	n, nOK := atoiValue(local)
	r0, rOK := atoiValue(start)
	q0, qOK := atoiValue(port)
	t, tOK := atoiValue(tp)
	if !nOK || n < 1 || n > maxLauncherRanks {
		n, nOK = 1, false
	}
	for i := 0; i < n; i++ {
		rank, p := start, port
		if nOK && rOK {
			rank = knownValue(strconv.Itoa(r0+i), start.Pos)
		} else if i > 0 || !nOK {
			rank = unresolvedValue("$dp_rank", start.Pos)
		}
		if qOK {
			p = knownValue(strconv.Itoa(q0+i), port.Pos)
		}
		a := []Value{unresolvedValue("model_path", at.Pos),
			knownValue("--port", at.Pos), p,
			knownValue("--data-parallel-size", size.Pos), size,
			knownValue("--data-parallel-rank", rank.Pos), rank,
			knownValue("--data-parallel-rpc-port", rpc.Pos), rpc,
			knownValue("--tensor-parallel-size", tp.Pos), tp}
		if hasAddr {
			a = append(a, knownValue("--data-parallel-address", addr.Pos), addr)
		}
		inv := w.newInvocation(cc, KindServe, at, onlineDPScript, a)
		if tOK && t > 0 && nOK {
			devs := make([]string, t)
			for d := range devs {
				devs[d] = strconv.Itoa(i*t + d)
			}
			inv.Env = append(inv.Env, EnvVar{Name: "ASCEND_RT_VISIBLE_DEVICES", Value: knownValue(strings.Join(devs, ","), at.Pos), Pos: at.Pos, Source: "launcher"})
			inv.GPUs, inv.GPUSource = t, "ASCEND_RT_VISIBLE_DEVICES"
		}
		inv.EnvOpen = true
		inv.Platform = PlatformAscend
		w.fe.invs = append(w.fe.invs, inv)
	}
}

// atoiValue reads a known integer value.
func atoiValue(v Value) (int, bool) {
	if !v.Known {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(v.Text))
	return n, err == nil
}

// unresolvedValue is a value the linter cannot know, shown as text.
func unresolvedValue(text string, p Pos) Value {
	return Value{Text: text, Pos: p, Unresolved: []string{text}}
}
