package launch

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
	"mvdan.cc/sh/v3/syntax"
)

// kubeRef matches a kubelet $(VAR) reference.
var kubeRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// container turns one container into invocations, once per LWS index.
func (fe *frontEnd) container(src *source, r podRole, c *yaml.Node, tag string) {
	indexes := r.indexes
	if len(indexes) == 0 && r.role == "" {
		indexes = []int{-1}
	}
	for _, i := range indexes {
		before := len(fe.invs)
		fe.containerAt(src, r, c, i)
		for _, inv := range fe.invs[before:] {
			inv.Deployment, inv.Role = tag, r.role
			inv.Node = strings.TrimSpace(fe.file + ":" + r.label() + scalar(c, "name"))
			if i >= 0 {
				inv.Node += "[" + strconv.Itoa(i) + "]"
			}
		}
	}
}

// containerAt lints the container as the pod with LWS worker index i sees it.
func (fe *frontEnd) containerAt(src *source, r podRole, c *yaml.Node, i int) {
	w, cmd, refs := fe.containerWalker(src, r, c, i)
	cc := w.ctx.container
	argv := cmd.fields
	before := len(fe.invs)
	switch {
	case r.op != nil && r.op.script != nil && get(c, "command") == nil && scalar(c, "name") == r.op.main:
		w.subScript(r.op.commandLine(cc.env, argv), w.sc, w.ctx)
	case get(c, "command") == nil && isVLLMImage(cc.image):
		w.imageServe(cmd, knownValue(cc.image, cc.info.Pos), argv)
	case get(c, "command") == nil && cc.image != "" && vllmArgsAfter(knownValue(cc.image, cc.info.Pos), argv):
		// an image built on vLLM's (its name or tag says vllm) whose
		// entrypoint serves: the args are the model and vLLM flags
		w.imageServe(cmd, knownValue(cc.image, cc.info.Pos), argv)
	case get(c, "command") == nil && servesArgs(argv):
		w.serve(cmd, knownValue(cc.image, cc.info.Pos), "image "+cc.image+" serve", argv[1:])
	case get(c, "command") == nil && !r.strict && len(argv) == 1 && looksLikeScript(argv[0]):
		// A custom resource's operator runs a one-string args through a
		// shell (Dynamo's `args: ["python3 -m dynamo.vllm ..."]`).
		w.subScript(argv[0], w.sc, w.ctx)
	case len(argv) > 0:
		w.command(cmd, 0)
	}
	if !r.strict {
		return // the platform may inject variables this file does not show
	}
	for _, inv := range fe.invs[before:] {
		inv.UndefinedRefs = append(inv.UndefinedRefs, refs...)
		inv.UndefinedRefs = append(inv.UndefinedRefs, *w.sc.undef...)
	}
}

// containerWalker sets up the walk of one container: its environment (with
// what the workload kind injects), image, GPUs and kubelet-expanded argv.
func (fe *frontEnd) containerWalker(src *source, r podRole, c *yaml.Node, i int) (*walker, *cmdCtx, []Value) {
	env, open := containerEnvFrom(src, c, fe.configMaps)
	if r.op != nil {
		env = append(append([]EnvVar{}, r.op.env...), env...)
	}
	switch {
	case r.podName != "":
		env = append(env, statefulSetValues(r, i)...)
	case r.lws:
		env = append(env, lwsValues(r, i)...)
	}
	cc := &containerCtx{image: scalar(c, "image"), env: env}
	cc.version = imageVersion(cc.image)
	cc.envOpen = get(c, "envFrom") != nil || !r.strict
	cc.info = Container{Runtime: "kubernetes", Pos: src.at(0), HostNetwork: true, HostIPC: true, HasShm: true}
	cc.info.SharesHostNICs = scalar(r.spec, "hostNetwork") == "true"
	if n := get(c, "name"); n != nil {
		cc.info.Pos = Pos{Line: n.Line, Col: n.Column}
	}
	cc.gpus, cc.gpuSrc = containerGPUs(c)
	if cc.gpus == 0 {
		cc.gpus, cc.gpuSrc = tpuDevices(c, r.spec)
	}
	if cc.gpus == 0 && r.op != nil && r.op.gpus > 0 {
		cc.gpus, cc.gpuSrc = r.op.gpus, r.op.gpuSrc
	}
	argv, refs := fe.kubeArgv(src, c, env)
	if !r.strict || open { // the operator, or an envFrom source not in the file, may define what the file does not show
		argv = openRefs(argv, refs)
		refs = nil
	}
	sc := containerScope(env)
	sc.strict, sc.undef = r.strict && !open, &sc.undefined
	w := &walker{fe: fe, src: src, sc: sc, ctx: walkCtx{container: cc, role: r.role}}
	if r.op != nil && c == r.op.extraOn {
		w.ctx.operatorArgs = r.op.extra
	}
	return w, &cmdCtx{stmt: &syntax.Stmt{}, fields: argv}, refs
}

// acceleratorResources are the device-plugin resources that count as GPUs
// (or NPUs): NVIDIA, AMD, Intel, Habana Gaudi and Huawei Ascend plugins.
// GKE's google.com/tpu counts chips, not devices (tpuDevices).
var acceleratorResources = []string{"nvidia.com/gpu", "amd.com/gpu", "gpu.intel.com/i915", "habana.ai/gaudi",
	"huawei.com/ascend-1980", "huawei.com/Ascend910", "huawei.com/Ascend910B", "huawei.com/Ascend310P"}

// tpuCoresPerChip are the devices (TensorCores, what vLLM's TP counts) per
// chip of the GKE TPU accelerators whose count is known: TPU v6e has one
// and TPU7x two (llm-d guides/pd-disaggregation/README.tpu.md: TP 8 on a
// 4-chip tpu7x pod); v5e one (kubernetes-sigs/lws docs/examples/vllm/TPU:
// TP 16 over four 4-chip tpu-v5-lite-podslice pods). Other accelerators'
// chips are not read as devices.
var tpuCoresPerChip = map[string]int{"tpu-v5-lite-podslice": 1, "tpu-v6e-slice": 1, "tpu7x": 2}

// tpuDevices reads a TPU pod's device count: its google.com/tpu chips
// times the cores per chip of the accelerator its nodeSelector names (0
// when either is unknown).
func tpuDevices(c, spec *yaml.Node) (int, string) {
	acc := scalar(spec, "nodeSelector", "cloud.google.com/gke-tpu-accelerator")
	per := tpuCoresPerChip[acc]
	for _, part := range []string{"limits", "requests"} {
		chips, err := strconv.Atoi(scalar(c, "resources", part, "google.com/tpu"))
		if err != nil || per == 0 {
			continue
		}
		if per == 1 {
			return chips, "google.com/tpu"
		}
		return chips * per, fmt.Sprintf("google.com/tpu: %d chips x %d cores (%s)", chips, per, acc)
	}
	return 0, ""
}

// containerGPUs reads the accelerator count from resources.limits (or
// requests) and names the resource it came from.
func containerGPUs(c *yaml.Node) (int, string) {
	for _, part := range []string{"limits", "requests"} {
		for _, key := range acceleratorResources {
			if g := scalar(c, "resources", part, key); g != "" {
				n, _ := strconv.Atoi(g)
				return n, key
			}
		}
	}
	return 0, ""
}

// lwsValues are the LWS variables for worker index i (-1 = unknown).
func lwsValues(r podRole, i int) []EnvVar {
	out := []EnvVar{{Name: "LWS_LEADER_ADDRESS", Value: unknownValue("$LWS_LEADER_ADDRESS", Pos{}, "LWS_LEADER_ADDRESS"), Source: "leaderworkerset"},
		{Name: "LWS_NAME", Value: unknownValue("$LWS_NAME", Pos{}, "LWS_NAME"), Source: "leaderworkerset"},
		{Name: "LWS_GROUP_INDEX", Value: unknownValue("$LWS_GROUP_INDEX", Pos{}, "LWS_GROUP_INDEX"), Source: "leaderworkerset"}}
	size := unknownValue("$LWS_GROUP_SIZE", Pos{}, "LWS_GROUP_SIZE")
	if r.size > 0 {
		size = knownValue(strconv.Itoa(r.size), Pos{})
	}
	idx := unknownValue("$LWS_WORKER_INDEX", Pos{}, "LWS_WORKER_INDEX")
	if i >= 0 {
		idx = knownValue(strconv.Itoa(i), Pos{})
	}
	return append(out, EnvVar{Name: "LWS_GROUP_SIZE", Value: size, Source: "leaderworkerset"},
		EnvVar{Name: "LWS_WORKER_INDEX", Value: idx, Source: "leaderworkerset"})
}

// SourceFieldRef is the EnvVar.Source of a variable a manifest sets from
// the downward API (valueFrom.fieldRef).
const SourceFieldRef = "fieldRef"

// containerEnv reads env: value literals are known (expanded as the
// kubelet does, against the variables defined above them), valueFrom is
// defined but unknown.
func containerEnv(src *source, c *yaml.Node) []EnvVar {
	env, _ := containerEnvFrom(src, c, nil)
	return env
}

// containerEnvFrom reads a container's environment as the kubelet builds
// it: the envFrom sources first (a ConfigMap of the file, cms, gives its
// data keys, with the entry's prefix), then env, whose entries win and may
// reference earlier ones; `valueFrom.configMapKeyRef` takes the key of a
// ConfigMap of the file. open reports an envFrom source the file does not
// define (a Secret, a ConfigMap elsewhere): it may set more variables.
func containerEnvFrom(src *source, c *yaml.Node, cms map[string]*yaml.Node) (out []EnvVar, open bool) {
	defined := map[string]Value{}
	if l := get(c, "envFrom"); l != nil && l.Kind == yaml.SequenceNode {
		for _, ef := range l.Content {
			data := cms[scalar(ef, "configMapRef", "name")]
			if data == nil {
				open = true
				continue
			}
			prefix := scalar(ef, "prefix")
			source := "configMap " + scalar(ef, "configMapRef", "name")
			for i := 0; i+1 < len(data.Content); i += 2 {
				k, v := data.Content[i], data.Content[i+1]
				if !isName(prefix+k.Value) || v.Kind != yaml.ScalarNode {
					continue
				}
				val := scalarValue(src, v)
				defined[prefix+k.Value] = val
				out = append(out, EnvVar{Name: prefix + k.Value, Value: val, Pos: Pos{Line: k.Line, Col: k.Column}, Source: source})
			}
		}
	}
	l := get(c, "env")
	if l == nil || l.Kind != yaml.SequenceNode {
		return out, open
	}
	for _, e := range l.Content {
		name := scalar(e, "name")
		if name == "" {
			continue
		}
		at := Pos{}
		if n := get(e, "name"); n != nil {
			at = Pos{Line: n.Line, Col: n.Column}
		}
		v := unknownValue("$"+name, at, name)
		source := "manifest"
		if vn := get(e, "value"); vn != nil && vn.Kind == yaml.ScalarNode {
			v, _ = expandKubeRefs(scalarValue(src, vn), defined)
		} else if ref := get(e, "valueFrom", "configMapKeyRef"); ref != nil {
			if data := cms[scalar(ref, "name")]; data != nil {
				if vn := get(data, scalar(ref, "key")); vn != nil && vn.Kind == yaml.ScalarNode {
					v = scalarValue(src, vn)
				}
			}
		} else if get(e, "valueFrom", "fieldRef") != nil {
			// The downward API (status.podIP, metadata.name …): the
			// kubelet sets it when the pod starts, as LeaderWorkerSet
			// sets LWS_* (InjectedEnv): unknown, but no value the user
			// left out (VL004 stays quiet on it).
			source = SourceFieldRef
		}
		defined[name] = v
		out = append(out, EnvVar{Name: name, Value: v, Pos: at, Source: source})
	}
	return out, open
}

// configMaps collects the data of the ConfigMaps among a file's documents,
// by name; a name defined twice (two namespaces) is left out.
func configMaps(docs []*yaml.Node) map[string]*yaml.Node {
	out := map[string]*yaml.Node{}
	seen := map[string]bool{}
	for _, d := range docs {
		if d == nil || scalar(d, "kind") != "ConfigMap" {
			continue
		}
		name, data := scalar(d, "metadata", "name"), get(d, "data")
		if name == "" || data == nil || data.Kind != yaml.MappingNode {
			continue
		}
		if seen[name] {
			out[name] = nil
			continue
		}
		seen[name], out[name] = true, data
	}
	return out
}

// kubeArgv builds command + args, expanding $(VAR) as the kubelet does.
// References to names the container does not define are returned.
func (fe *frontEnd) kubeArgv(src *source, c *yaml.Node, env []EnvVar) ([]Value, []Value) {
	defined := map[string]Value{}
	for _, e := range env {
		defined[e.Name] = e.Value
	}
	var argv, undefined []Value
	for _, key := range []string{"command", "args"} {
		l := get(c, key)
		if l == nil || l.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range l.Content {
			v, und := expandKubeRefs(scalarValue(src, item), defined)
			argv = append(argv, v)
			undefined = append(undefined, und...)
		}
	}
	return argv, undefined
}

// expandKubeRefs expands v as the kubelet does (k8s.io/kubernetes
// third_party/forked/golang/expansion): "$$" is a literal "$", "$(VAR)" is
// VAR's value when the container defines it and stays as written otherwise;
// defined but unknown values become the shell form ${VAR} so a shell body
// still sees a variable. References to undefined names are returned.
func expandKubeRefs(v Value, defined map[string]Value) (Value, []Value) {
	var b builder
	var undefined []Value
	t := v.Text
	last := 0
	for i := 0; i+1 < len(t); i++ {
		if t[i] != '$' {
			continue
		}
		if t[i+1] == '$' { // escaped: keep one "$", drop the other
			b.addValue(v.Slice(last, i+1))
			last = i + 2
			i++
			continue
		}
		m := kubeRef.FindStringSubmatchIndex(t[i:])
		if m == nil || m[0] != 0 {
			continue
		}
		b.addValue(v.Slice(last, i))
		name := t[i+m[2] : i+m[3]]
		ref := v.Slice(i, i+m[1])
		val, ok := defined[name]
		switch {
		case !ok:
			undefined = append(undefined, ref)
			b.addValue(ref)
		case val.Known:
			b.addValue(Value{Text: val.Text, Known: true, Pos: ref.Pos})
		default:
			b.addValue(unknownValue("${"+name+"}", ref.Pos, name))
		}
		last = i + m[1]
		i = last - 1
	}
	b.addValue(v.Slice(last, len(t)))
	out := b.value(v.Pos)
	out.Known = out.Known && v.Known
	return out, undefined
}

// statefulSetValues is HOSTNAME for StatefulSet pod i (-1 = unknown).
func statefulSetValues(r podRole, i int) []EnvVar {
	v := unknownValue("$HOSTNAME", Pos{}, "HOSTNAME")
	if i >= 0 {
		v = knownValue(r.podName+"-"+strconv.Itoa(i), Pos{})
	}
	return []EnvVar{{Name: "HOSTNAME", Value: v, Source: "statefulset"}}
}

// label prefixes a container's node name with the group and role of a
// custom resource's pod template ("decode/leader/"); LeaderWorkerSet and
// StatefulSet pods are told apart by their index instead.
func (r podRole) label() string {
	if r.podName != "" {
		return ""
	}
	parts := []string{r.group, r.role}
	if r.lws { // the LWS index names the pod; a role group still tells pools apart
		parts = parts[:1]
	}
	out := ""
	for _, p := range parts {
		if p != "" {
			out += p + "/"
		}
	}
	return out
}
