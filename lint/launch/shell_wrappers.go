package launch

import "strings"

// wrappers are Python modules that start a vLLM engine from vLLM's own
// engine arguments plus flags of their own; the value names the front end.
var wrappers = map[string]string{
	// NVIDIA Dynamo's vLLM worker (ai-dynamo/dynamo
	// components/src/dynamo/vllm: backend_args.py adds --is-prefill-worker,
	// --is-decode-worker and others to vLLM's AsyncEngineArgs).
	"dynamo.vllm": "dynamo.vllm",
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
	inner := &walker{fe: w.fe, src: w.src, sc: w.sc, ctx: ctx}
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
	inner := &walker{fe: w.fe, src: w.src, sc: w.sc, ctx: ctx}
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
