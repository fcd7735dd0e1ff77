package launch

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// dockerValueOpts are `docker run` options that take a value; everything
// else that starts with a dash is a switch. Knowing them is what lets the
// linter find the image among the arguments.
var dockerValueOpts = map[string]bool{
	"add-host": true, "annotation": true, "attach": true, "blkio-weight": true, "blkio-weight-device": true,
	"cap-add": true, "cap-drop": true, "cgroup-parent": true, "cgroupns": true, "cidfile": true,
	"cpu-period": true, "cpu-quota": true, "cpu-rt-period": true, "cpu-rt-runtime": true, "cpu-shares": true,
	"cpus": true, "cpuset-cpus": true, "cpuset-mems": true, "device": true, "device-cgroup-rule": true,
	"device-read-bps": true, "device-read-iops": true, "device-write-bps": true, "device-write-iops": true,
	"dns": true, "dns-option": true, "dns-search": true, "domainname": true, "entrypoint": true, "env": true,
	"env-file": true, "expose": true, "gpus": true, "group-add": true, "health-cmd": true,
	"health-interval": true, "health-retries": true, "health-start-period": true, "health-timeout": true,
	"hostname": true, "ip": true, "ip6": true, "ipc": true, "isolation": true, "kernel-memory": true,
	"label": true, "label-file": true, "link": true, "link-local-ip": true, "log-driver": true,
	"log-opt": true, "mac-address": true, "memory": true, "memory-reservation": true, "memory-swap": true,
	"memory-swappiness": true, "mount": true, "name": true, "network": true, "net": true,
	"network-alias": true, "net-alias": true, "oom-score-adj": true, "pid": true, "pids-limit": true,
	"platform": true, "publish": true, "pull": true, "restart": true, "runtime": true,
	"security-opt": true, "shm-size": true, "stop-signal": true, "stop-timeout": true,
	"storage-opt": true, "sysctl": true, "tmpfs": true, "ulimit": true, "user": true, "userns": true,
	"uts": true, "volume": true, "volume-driver": true, "volumes-from": true, "workdir": true,
}

// dockerShortValue are the single-letter options that take a value.
const dockerShortValue = "acehlmpuvw"

var dockerShortNames = map[byte]string{'a': "attach", 'c': "cpu-shares", 'e': "env", 'h': "hostname",
	'l': "label", 'm': "memory", 'p': "publish", 'u': "user", 'v': "volume", 'w': "workdir"}

// dockerOpt is one parsed option.
type dockerOpt struct {
	name  string
	value Value
	at    Value
}

// splitDockerRun separates options, image and command.
func splitDockerRun(f []Value) (opts []dockerOpt, image *Value, cmd []Value) {
	for i := 0; i < len(f); i++ {
		t := f[i].Text
		switch {
		case strings.HasPrefix(t, "--") && len(t) > 2:
			name, val, hasVal := strings.Cut(t[2:], "=")
			o := dockerOpt{name: name, at: f[i]}
			if hasVal {
				o.value = f[i].Slice(len(name)+3, len(t))
			} else if dockerValueOpts[name] && i+1 < len(f) {
				i++
				o.value = f[i]
			}
			_ = val
			opts = append(opts, o)
		case strings.HasPrefix(t, "-") && len(t) > 1:
			for k := 1; k < len(t); k++ {
				if strings.IndexByte(dockerShortValue, t[k]) < 0 {
					opts = append(opts, dockerOpt{name: string(t[k]), at: f[i]})
					continue
				}
				o := dockerOpt{name: dockerShortNames[t[k]], at: f[i]}
				if k+1 < len(t) {
					o.value = f[i].Slice(k+1, len(t))
				} else if i+1 < len(f) {
					i++
					o.value = f[i]
				}
				opts = append(opts, o)
				break
			}
		default:
			img := f[i]
			return opts, &img, f[i+1:]
		}
	}
	return opts, nil, nil
}

// docker follows `docker run [opts] IMAGE [CMD...]` into the container.
func (w *walker) docker(cc *cmdCtx, i int) {
	opts, image, cmd := splitDockerRun(cc.fields[i:])
	if image == nil {
		return
	}
	c := &containerCtx{image: image.Text, version: imageVersion(image.Text)}
	c.info = Container{Runtime: "docker", Pos: cc.fields[0].Pos}
	entrypoint, envFile := w.dockerOptions(c, opts)
	c.envOpen = envFile
	if !envFile {
		c.hostOnly = w.hostOnly(cc, c.env)
	}
	if interactiveShell(opts, entrypoint, cmd) {
		w.fe.shellEnv = append(w.fe.shellEnv, c.env...)
	}
	ctx := w.ctx
	ctx.container = c
	inner := &walker{fe: w.fe, src: w.src, sc: containerScope(c.env), ctx: ctx}
	if entrypoint != nil {
		cmd = append([]Value{*entrypoint}, cmd...)
	} else if isVLLMImage(image.Text) || vllmArgsAfter(*image, cmd) {
		inner.imageServe(cc, *image, cmd)
		return
	} else if servesArgs(cmd) {
		inner.serve(&cmdCtx{stmt: cc.stmt}, *image, "docker image "+image.Text+" serve", cmd[1:])
		return
	}
	if len(cmd) > 0 {
		inner.command(&cmdCtx{stmt: cc.stmt, fields: cmd}, 0)
	}
}

// interactiveShell reports a `docker|podman run -it … IMAGE bash` (or an
// --entrypoint shell and no command): a shell for the user to type into,
// as documents start one before the commands that follow ("Launch the vLLM
// Container … drops you into an interactive shell", amd/playbooks'
// clustering-rccl README, whose later `ray start` and `vllm serve` run in
// it with the -e NCCL_SOCKET_IFNAME and GLOO_SOCKET_IFNAME it was given).
func interactiveShell(opts []dockerOpt, entrypoint *Value, cmd []Value) bool {
	if entrypoint != nil {
		cmd = append([]Value{*entrypoint}, cmd...)
	}
	if len(cmd) != 1 || !shells[base(cmd[0].Text)] {
		return false
	}
	for _, o := range opts {
		switch o.name {
		case "i", "t", "interactive", "tty":
			return true
		}
	}
	return false
}

// imageServe handles a vllm/vllm-openai container: its entrypoint already
// runs `vllm serve`, so the command is serve arguments.
func (w *walker) imageServe(cc *cmdCtx, image Value, cmd []Value) {
	if len(cmd) > 1 && shells[base(cmd[0].Text)] {
		sh := cmd[0]
		w.ctx.container.info.ShellAfterImage = &sh
		w.command(&cmdCtx{stmt: cc.stmt, fields: cmd}, 0)
		return
	}
	args := cmd
	if n := repeatedEntrypoint(cmd); n > 0 {
		rep := cmd[0]
		w.ctx.container.info.RepeatedEntrypoint = &rep
		args = cmd[n:]
	}
	w.serve(&cmdCtx{stmt: cc.stmt}, image, "docker image "+image.Text, args)
}

// repeatedEntrypoint returns how many leading words repeat the image's
// entrypoint (`vllm serve`, `python3 -m vllm.entrypoints.openai.api_server`).
func repeatedEntrypoint(cmd []Value) int {
	if len(cmd) >= 1 && cmd[0].Text == "serve" {
		return 1
	}
	if len(cmd) >= 2 && base(cmd[0].Text) == "vllm" && cmd[1].Text == "serve" {
		return 2
	}
	if len(cmd) >= 3 && strings.HasPrefix(base(cmd[0].Text), "python") && cmd[1].Text == "-m" && strings.HasPrefix(cmd[2].Text, "vllm.entrypoints") {
		if len(cmd) >= 4 && cmd[3].Text == "serve" {
			return 4
		}
		return 3
	}
	return 0
}

// dockerOptions applies the options that matter to the container context.
func (w *walker) dockerOptions(c *containerCtx, opts []dockerOpt) (entrypoint *Value, envFile bool) {
	for _, o := range opts {
		v := o.value
		switch o.name {
		case "e", "env":
			c.env = append(c.env, w.dockerEnv(v))
		case "env-file":
			envFile = true
		case "gpus":
			c.gpus, c.gpuSrc = dockerGPUs(v.Text), "--gpus"
			c.info.HostDevices = dockerDevices(v.Text)
			c.info.AllGPUs = strings.Trim(v.Text, `"'`) == "all"
		case "device":
			c.marks = append(c.marks, v.Text)
		case "network", "net":
			c.info.HostNetwork = v.Text == "host"
			c.info.SharesHostNICs = c.info.HostNetwork
		case "d", "detach":
			c.info.Detached = true
		case "ipc":
			c.info.HostIPC = v.Text == "host"
		case "shm-size":
			c.info.HasShm = true
		case "volume", "v", "mount":
			if strings.Contains(v.Text, "/dev/shm") {
				c.info.HasShm = true
			}
			parse := parseVolume
			if o.name == "mount" {
				parse = parseMountOpt
			}
			if m, ok := parse(v.Text); ok {
				c.mounts = append(c.mounts, m)
			}
		case "entrypoint":
			ep := v
			entrypoint = &ep
		}
	}
	return entrypoint, envFile
}

// dockerEnv reads -e NAME=value, or -e NAME (the host's value).
func (w *walker) dockerEnv(v Value) EnvVar {
	name, _, hasVal := strings.Cut(v.Text, "=")
	if hasVal {
		return EnvVar{Name: name, Value: v.Slice(len(name)+1, len(v.Text)), Pos: v.Pos, Source: "docker -e"}
	}
	val := unknownValue("$"+name, v.Pos, name)
	if sv, ok := w.sc.vars[name]; ok && sv.exported {
		val = sv.val
	}
	return EnvVar{Name: name, Value: val, Pos: v.Pos, Source: "docker -e"}
}

// hostOnly lists launch-relevant variables the host sets that the
// container does not receive.
func (w *walker) hostOnly(cc *cmdCtx, inside []EnvVar) []EnvVar {
	in := map[string]bool{}
	for _, e := range inside {
		in[e.Name] = true
	}
	var out []EnvVar
	for _, e := range append(w.exported(), cc.env...) {
		if !in[e.Name] && IsLaunchEnv(e.Name) && e.Pos.Line > 0 {
			out = append(out, e)
		}
	}
	return out
}

// IsLaunchEnv reports whether vLLM, NCCL, Gloo or NVSHMEM read the variable.
func IsLaunchEnv(n string) bool {
	for _, p := range []string{"VLLM_", "NCCL_", "GLOO_", "NVSHMEM_", "CUDA_VISIBLE_DEVICES", "TP_SOCKET_IFNAME", "UCX_"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// deviceList matches --gpus device=0,1 or device=GPU-<uuid>,... (the
// value may carry the quotes docker's CSV syntax needs: '"device=0,1"').
var deviceList = regexp.MustCompile(`device=([0-9A-Za-z,:-]+)`)

// dockerGPUs reads --gpus all | N | "device=0,1".
func dockerGPUs(s string) int {
	s = strings.Trim(s, `"'`)
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if m := deviceList.FindStringSubmatch(s); m != nil {
		return len(strings.Split(strings.Trim(m[1], ","), ","))
	}
	return 0
}

// dockerDevices reads the device list of --gpus "device=0,1" (nil for
// all, a count or anything else).
func dockerDevices(s string) []string {
	m := deviceList.FindStringSubmatch(strings.Trim(s, `"'`))
	if m == nil {
		return nil
	}
	var out []string
	for _, d := range strings.Split(m[1], ",") {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// isVLLMImage reports whether the image's entrypoint is `vllm serve`.
func isVLLMImage(image string) bool {
	name, _, _ := strings.Cut(lastSegment(image), ":")
	name, _, _ = strings.Cut(name, "@")
	return name == "vllm-openai"
}

func lastSegment(image string) string {
	if i := strings.LastIndex(image, "/"); i >= 0 {
		return image[i+1:]
	}
	return image
}

// imageVersion extracts a vLLM release from a container image's name.
// A vLLM image's tag is its release ("vllm/vllm-openai:v0.10.1.1" ->
// "0.10.1.1", "v0.6.3.post1" -> "0.6.3.post1"), read by vllm.ParseVersion,
// the parser --vllm-version uses, a build suffix after '-' or '_' dropped
// when the whole tag is not one ("v0.10.1-cu128", a re-commit's
// "vllm/vllm-openai-rocm:v0.20.1_2"). Otherwise a release written after
// the word vllm anywhere in the name is read (embeddedRelease): AMD's
// "rocm/vllm:rocm6.4.1_vllm_0.9.1_20250715", an Apptainer file
// "rocm_vllm_rocm7.0.0_vllm_0.11.1_20251103.sif" or, digits run together,
// "vllm0141rocm72.sif". A wrapper's image (Dynamo's vllm-runtime) numbers
// the wrapper, and an image whose name does not say vLLM (SGLang's
// "lmsysorg/sglang:v0.5.6-cu129") another program: neither is read.
func imageVersion(image string) string {
	if wrapperImage(image) {
		return ""
	}
	seg, _, _ := strings.Cut(lastSegment(image), "@")
	name, tag, ok := strings.Cut(seg, ":")
	if ok && strings.Contains(strings.ToLower(name), "vllm") {
		if v := tagRelease(tag); v != "" {
			return v
		}
	}
	return embeddedRelease(seg)
}

// ImageReleaseInferred reports an image whose release imageVersion reads
// from its name rather than from a vLLM image's tag: "vllm_0.9.1" in AMD's
// tags, "vllm0141rocm72.sif". A vLLM image's tag is the release by
// construction; a release written into a name is the builder's word,
// worth saying it was used.
func ImageReleaseInferred(image string) bool {
	if imageVersion(image) == "" {
		return false
	}
	seg, _, _ := strings.Cut(lastSegment(image), "@")
	name, tag, ok := strings.Cut(seg, ":")
	return !ok || !strings.Contains(strings.ToLower(name), "vllm") || tagRelease(tag) == ""
}

// tagRelease reads a vLLM image's tag as a release, "" if it is none.
func tagRelease(tag string) string {
	v, err := vllm.ParseVersion(tag)
	if err != nil {
		i := strings.IndexAny(tag, "-_")
		if i < 0 {
			return ""
		}
		if v, err = vllm.ParseVersion(tag[:i]); err != nil {
			return ""
		}
	}
	return releaseNumber(v)
}

// releaseNumber is v as a vLLM release, "" for numbering vLLM never
// used. vLLM releases are 0.x from 0.1.0 (vllm-openai images from 0.2);
// other numbering belongs to a private image. A release older than the
// table is still that release: the linter notes it (VL006) rather than
// lint the file as the newest one.
func releaseNumber(v vllm.Version) string {
	if v.Major != 0 || v.Minor < 1 {
		return ""
	}
	return v.String()
}

// vllmWordRelease is a release written after the word vllm in an image's
// name: "vllm_0.9.1", "vllm-v0.10.2", "vllm0.11.0", "vllm0141".
var vllmWordRelease = regexp.MustCompile(`(?i)vllm[-_]?v?(\d[\d.]*(?:rc\d+|\.post\d+|\.dev\d+)?)`)

// embeddedRelease reads the first release written after the word vllm in
// an image's name or tag. Dotted ("vllm_0.9.1") it is read as written;
// run together ("vllm0141", "vllm0202") it is the one way of splitting
// the digits after the leading 0 into minor and patch that names a
// release in vlaunch's table (0.14.1, not 0.1.41; 0.20.2), else nothing:
// a guess would lint the file for a release nobody named.
func embeddedRelease(s string) string {
	for _, m := range vllmWordRelease.FindAllStringSubmatch(s, -1) {
		num := strings.TrimRight(m[1], ".")
		if strings.Contains(num, ".") {
			if v, err := vllm.ParseVersion(num); err == nil {
				if r := releaseNumber(v); r != "" {
					return r
				}
			}
			continue
		}
		if r := compactRelease(num); r != "" {
			return r
		}
	}
	return ""
}

// compactRelease splits "0MMP" / "0MP" digits into a release of the
// table; "" when no split or more than one names one.
func compactRelease(d string) string {
	if len(d) < 3 || len(d) > 5 || d[0] != '0' {
		return ""
	}
	found := ""
	for i := 2; i < len(d); i++ {
		minor, patch := d[1:i], d[i:]
		if (len(minor) > 1 && minor[0] == '0') || (len(patch) > 1 && patch[0] == '0') {
			continue
		}
		cand := "0." + minor + "." + patch
		r, _, err := vllm.ResolveString(cand)
		if err != nil || !r.Exact() {
			continue
		}
		if found != "" {
			return ""
		}
		found = cand
	}
	return found
}

// modelWord reports a word that names a model as `vllm serve` takes it
// first: a hub id (org/repo) or a path, not a flag or a subcommand.
func modelWord(v Value) bool {
	return v.Known && !strings.HasPrefix(v.Text, "-") && strings.Contains(v.Text, "/") && !strings.ContainsAny(v.Text, " =")
}

// wrapperImage reports an image whose tag numbers the wrapper that ships
// vLLM, not vLLM: NVIDIA Dynamo's vllm-runtime (nvcr.io/nvidia/ai-dynamo/
// vllm-runtime:0.7.1 is Dynamo 0.7.1, which ships vLLM 0.11.x).
func wrapperImage(image string) bool {
	name, _, _ := strings.Cut(lastSegment(image), ":")
	return name == "vllm-runtime" || strings.Contains(image, "ai-dynamo/")
}

// vllmArgsAfter reports an image the script does not name (`docker run
// $IMAGE`, set by the caller) or one whose name says vLLM (a vendor or
// private build: `registry/team/vllm-cuda:2`), followed by vLLM serve flags
// and nothing else first: the image's entrypoint is vLLM's server, as the
// vllm-openai image's is (issue 25). The first word must be a flag some
// release of vLLM has, and most of the command's long flags must be, so
// that another server's image with its own flags is not read as vLLM.
func vllmArgsAfter(image Value, cmd []Value) bool {
	if image.Known && !strings.Contains(strings.ToLower(lastSegment(image.Text)), "vllm") {
		return false
	}
	if len(cmd) > 1 && modelWord(cmd[0]) {
		cmd = cmd[1:] // the model, positional, before the flags (`vllm serve <model> --flags`)
	}
	if len(cmd) == 0 || !cmd[0].Known || !strings.HasPrefix(cmd[0].Text, "--") {
		return false
	}
	if _, ok := vllm.KnownFlagEver(cmd[0].Text); !ok {
		return false
	}
	known, flags := 0, 0
	for _, a := range cmd {
		if !a.Known || !strings.HasPrefix(a.Text, "--") || len(a.Text) < 3 {
			continue
		}
		flags++
		if _, ok := vllm.KnownFlagEver(a.Text); ok {
			known++
		}
	}
	return 2*known > flags
}

// servesArgs reports a container command that is `serve MODEL ...` with no
// program in front: the image's entrypoint is vLLM's CLI (a custom or
// vendor build, or an image given by ID), so these are serve arguments.
func servesArgs(cmd []Value) bool {
	return len(cmd) > 1 && cmd[0].Known && cmd[0].Text == "serve"
}
