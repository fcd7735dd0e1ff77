package launch

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// operatorPod is what an operator's custom resource adds to the pods it
// creates, so the command is judged as the pod runs it: the variables the
// operator injects, the GPUs its own resource field requests, the command it
// runs in a container that has none, and the flags it appends to the vLLM
// command it finds.
type operatorPod struct {
	// env are variables the operator sets in every container.
	env []EnvVar
	// gpus is the per-pod GPU count of the resource's own field (Dynamo's
	// resources.limits.gpu), used when the container requests none.
	gpus   int
	gpuSrc string
	// script is the command line the operator runs in its main container
	// when the container gives no command (KServe's config template: `vllm
	// serve /mnt/models ...`); the container's extra-args variable and its
	// args are appended and the whole is read as the template's `eval` does.
	script *Value
	// main names the container the script runs in; argsEnv the variable
	// whose words the template splices into the command.
	main, argsEnv string
	// extra are flags the operator appends to the vLLM command it finds in
	// the container extraOn (Dynamo's multinode launch: --nnodes/--node-rank/
	// --master-addr in the main container).
	extra   []Value
	extraOn *yaml.Node
}

// operatorRoles expands the pod templates of the operators' resources
// vlaunch knows (kthena ModelServing, KServe LLMInferenceService, NVIDIA
// Dynamo DynamoGraphDeployment); ok is false for any other kind.
func operatorRoles(src *source, doc *yaml.Node, kind string) ([]podRole, bool) {
	api := scalar(doc, "apiVersion")
	switch {
	case kind == "ModelServing" && strings.HasPrefix(api, "workload.serving.volcano.sh/"):
		return kthenaRoles(src, doc), true
	case kind == "LLMInferenceService" && strings.HasPrefix(api, "serving.kserve.io/"):
		return kserveRoles(src, doc), true
	case kind == "DynamoGraphDeployment" && strings.HasPrefix(api, "nvidia.com/"):
		return dynamoRoles(src, doc), true
	}
	return nil, false
}

// kthenaRoles expands a kthena ModelServing (volcano-sh/kthena): each role
// (prefill, decode, ...) is a deployment of its own, with an entry pod
// (worker index 0) and workerReplicas workers; the controller gives every
// container GROUP_SIZE (workerReplicas + 1), ENTRY_ADDRESS (the entry pod's
// host name) and WORKER_INDEX (pkg/model-serving-controller/utils
// createCommonEnvVars).
func kthenaRoles(src *source, doc *yaml.Node) []podRole {
	roles := get(doc, "spec", "template", "roles")
	if roles == nil || roles.Kind != yaml.SequenceNode {
		return nil
	}
	var out []podRole
	for i, r := range roles.Content {
		name := scalar(r, "name")
		if name == "" {
			name = "role" + strconv.Itoa(i)
		}
		workers, err := strconv.Atoi(scalar(r, "workerReplicas"))
		if err != nil || workers < 0 || workers >= maxGroupSize {
			workers = -1
		}
		entry := podRole{spec: get(r, "entryTemplate", "spec"), role: "leader", group: name, indexes: []int{0}, strict: true}
		entry.op = &operatorPod{env: kthenaEnv(workers, 0)}
		out = append(out, entry)
		if workers == 0 {
			continue
		}
		if workers < 0 { // unknown count: one worker of unknown index
			w := podRole{spec: get(r, "workerTemplate", "spec"), role: "worker", group: name, indexes: []int{-1}, strict: true}
			w.op = &operatorPod{env: kthenaEnv(-1, -1)}
			out = append(out, w)
			continue
		}
		for idx := 1; idx <= workers; idx++ {
			w := podRole{spec: get(r, "workerTemplate", "spec"), role: "worker", group: name, indexes: []int{idx}, strict: true}
			w.op = &operatorPod{env: kthenaEnv(workers, idx)}
			out = append(out, w)
		}
	}
	return out
}

// kthenaEnv is what kthena injects for a pod with worker index idx of a
// role with the given worker count (-1 = unknown).
func kthenaEnv(workers, idx int) []EnvVar {
	size := unknownValue("$GROUP_SIZE", Pos{}, "GROUP_SIZE")
	if workers >= 0 {
		size = knownValue(strconv.Itoa(workers+1), Pos{})
	}
	index := unknownValue("$WORKER_INDEX", Pos{}, "WORKER_INDEX")
	if idx >= 0 {
		index = knownValue(strconv.Itoa(idx), Pos{})
	}
	return []EnvVar{
		{Name: "GROUP_SIZE", Value: size, Source: "kthena"},
		{Name: "ENTRY_ADDRESS", Value: unknownValue("$ENTRY_ADDRESS", Pos{}, "ENTRY_ADDRESS"), Source: "kthena"},
		{Name: "WORKER_INDEX", Value: index, Source: "kthena"},
	}
}

// kserveSource cites what KServe's LLMInferenceService controller runs.
// The config templates (config/llmisvcconfig/config-llm-template.yaml and
// config-llm-*-worker-data-parallel.yaml, kserve/kserve at aaac4e29) give the
// container named "main" a bash script ending in `eval "exec vllm serve
// /mnt/models --served-model-name <spec.model.name> ... --port 8000
// [--tensor-parallel-size <parallelism.tensor>] [data-parallel flags]
// ${VLLM_ADDITIONAL_ARGS} $@"`; with a `worker` the pods form a
// LeaderWorkerSet of data/dataLocal pods, the leader at start rank 0 and
// worker i at i × dataLocal, --headless.
const kserveMain, kserveArgsEnv = "main", "VLLM_ADDITIONAL_ARGS"

// kserveRoles expands an LLMInferenceService: the decode (or only) pool
// from spec.template (+ spec.worker) and the prefill pool from
// spec.prefill.template (+ spec.prefill.worker), each a deployment of its
// own.
func kserveRoles(src *source, doc *yaml.Node) []podRole {
	spec := get(doc, "spec")
	name := get(spec, "model", "name")
	out := kservePool(src, spec, spec, name, "")
	if pre := get(spec, "prefill"); pre != nil && pre.Kind == yaml.MappingNode {
		out = append(out, kservePool(src, pre, spec, name, "prefill")...)
	}
	return out
}

// kservePool expands one pool: its template, and its worker pods when it
// spans nodes. The pool's parallelism falls back to the service's.
func kservePool(src *source, pool, spec, model *yaml.Node, group string) []podRole {
	par := get(pool, "parallelism")
	if par == nil {
		par = get(spec, "parallelism")
	}
	lead := get(pool, "template")
	if lead == nil && group == "" {
		return nil
	}
	worker := get(pool, "worker")
	dl, dlErr := strconv.Atoi(scalar(par, "dataLocal"))
	dp, dpErr := strconv.Atoi(scalar(par, "data"))
	if dlErr != nil || dl < 1 {
		dl = 1
	}
	pods := 0 // LeaderWorkerSet size, 0 = unknown
	if dpErr == nil && dp >= dl && dp%dl == 0 && dp/dl <= maxGroupSize {
		pods = dp / dl
	}
	role := func(spec *yaml.Node, r string, idx int) podRole {
		// not strict: the template's script sets and exports more (DP_ADDRESS,
		// START_RANK, NCCL_IB_HCA ... from KSERVE_INFER_ROCE)
		p := podRole{spec: spec, role: r, group: group, indexes: []int{idx}}
		p.op = &operatorPod{main: kserveMain, argsEnv: kserveArgsEnv,
			script: kserveScript(src, model, par, worker != nil, r == "worker", idx, dl, nodePos(par, pool))}
		if worker != nil {
			p.lws, p.size = true, pods
		}
		return p
	}
	if worker == nil {
		r := role(lead, "", -1)
		r.lws = false
		return []podRole{r}
	}
	out := []podRole{role(lead, "leader", 0)}
	if pods == 0 {
		return append(out, role(worker, "worker", -1))
	}
	for i := 1; i < pods; i++ {
		out = append(out, role(worker, "worker", i))
	}
	return out
}

// kserveScript is the vllm serve line of KServe's template for one pod:
// data parallel over a LeaderWorkerSet when the pool has workers.
func kserveScript(src *source, model, par *yaml.Node, multi, worker bool, idx, dl int, base Pos) *Value {
	var b builder
	at := func(n *yaml.Node, text string) {
		p := base
		if n != nil {
			p = Pos{Line: n.Line, Col: n.Column}
		}
		b.addValue(knownValue(text, p))
	}
	at(nil, "vllm serve /mnt/models --port 8000")
	if model != nil && model.Kind == yaml.ScalarNode && model.Value != "" {
		at(nil, " --served-model-name ")
		b.addValue(quoteWord(scalarValue(src, model)))
	}
	if multi && scalar(par, "expert") == "true" {
		at(get(par, "expert"), " --enable-expert-parallel")
	}
	if t := get(par, "tensor"); t != nil && t.Kind == yaml.ScalarNode {
		at(t, " --tensor-parallel-size ")
		b.addValue(scalarValue(src, t))
	}
	if p := get(par, "pipeline"); p != nil && p.Kind == yaml.ScalarNode {
		at(p, " --pipeline-parallel-size ")
		b.addValue(scalarValue(src, p))
	}
	if multi {
		data := scalar(par, "data")
		if data == "" {
			data = "1"
		}
		at(get(par, "data"), " --data-parallel-size "+data+" --data-parallel-size-local "+strconv.Itoa(dl))
		at(nil, " --data-parallel-address ${DP_ADDRESS} --data-parallel-rpc-port 5555")
		switch {
		case !worker:
			at(nil, " --data-parallel-start-rank 0")
		case idx > 0:
			at(nil, " --data-parallel-start-rank "+strconv.Itoa(idx*dl)+" --headless")
		default:
			at(nil, " --data-parallel-start-rank $START_RANK --headless")
		}
	}
	v := b.value(base)
	return &v
}

// nodePos is where the first of the nodes present starts: what the
// operator derives from it is reported there.
func nodePos(ns ...*yaml.Node) Pos {
	for _, n := range ns {
		if n != nil {
			return Pos{Line: n.Line, Col: n.Column}
		}
	}
	return Pos{}
}

// quoteWord single-quotes a value for the shell, keeping its positions.
func quoteWord(v Value) Value {
	if strings.ContainsAny(v.Text, "'") {
		return v
	}
	var b builder
	b.addByte('\'', v.Pos)
	b.addValue(v)
	b.addByte('\'', v.PosAt(len(v.Text)-1))
	out := b.value(v.Pos)
	out.Known = v.Known
	return out
}

// dynamoSource cites what the Dynamo operator does to a worker's command
// (ai-dynamo/dynamo deploy/operator/internal/dynamo/backend_vllm.go at
// 18bda510): with multinode.nodeCount > 1 it reads --tensor-parallel-size,
// --pipeline-parallel-size and --data-parallel-size (exact spellings, the
// value as the next word) from the args split on spaces; when TP × PP
// exceeds resources.limits.gpu it launches the engine over the nodes (mp:
// --distributed-executor-backend mp --nnodes N --master-addr <leader>
// --node-rank r, workers --headless; or Ray), else when TP × PP × DP does it
// spreads DP ranks (--data-parallel-hybrid-lb, --data-parallel-size-local
// gpu / (TP × PP), start rank local × r); otherwise it changes nothing.
const dynamoLeader = "$(LEADER_HOSTNAME)"

// dynamoRoles expands a DynamoGraphDeployment: every service (v1alpha1
// spec.services, v1beta1 spec.components) is a deployment of its own; a
// worker's GPUs are its resources.limits.gpu (v1alpha1) or its main
// container's device-plugin limit, its variables the service's envs, and a
// multinode worker's command gets the flags the operator adds (one pod per
// node, the leader first).
func dynamoRoles(src *source, doc *yaml.Node) []podRole {
	var out []podRole
	svcs := get(doc, "spec", "services")
	if svcs != nil && svcs.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(svcs.Content); i += 2 {
			svc := svcs.Content[i+1]
			out = append(out, dynamoService(src, svcs.Content[i].Value, svc, get(svc, "extraPodSpec"), "extraPodSpec", nil)...)
		}
		return out
	}
	comps := get(doc, "spec", "components")
	if comps == nil || comps.Kind != yaml.SequenceNode {
		return genericRoles(doc)
	}
	for i, c := range comps.Content {
		name := scalar(c, "name")
		if name == "" {
			name = "component" + strconv.Itoa(i)
		}
		out = append(out, dynamoService(src, name, c, get(c, "podTemplate", "spec"), "podTemplate", get(doc, "spec", "env"))...)
	}
	return out
}

// dynamoService expands one service whose pod spec is spec; graphEnv is
// the v1beta1 graph's spec.env, which every component receives.
func dynamoService(src *source, name string, svc, spec *yaml.Node, key string, graphEnv *yaml.Node) []podRole {
	if spec == nil || !isPodSpec(spec) {
		return nil
	}
	base := pathRole(spec, []string{"spec", "services", name, key})
	base.group = name
	op := operatorPod{env: append(envList(src, graphEnv), envList(src, get(svc, "envs"))...)}
	if g := get(svc, "resources", "limits", "gpu"); g != nil && g.Kind == yaml.ScalarNode {
		if n, err := strconv.Atoi(g.Value); err == nil && n > 0 {
			op.gpus, op.gpuSrc = n, "resources.limits.gpu of Dynamo service "+name
		}
	}
	main := dynamoMain(spec)
	gpus := op.gpus
	if n, _ := containerGPUs(main); n > 0 {
		gpus = n
	}
	nodes, err := strconv.Atoi(scalar(svc, "multinode", "nodeCount"))
	if err != nil || nodes <= 1 || nodes > maxGroupSize || gpus == 0 {
		base.op = &op
		return []podRole{base}
	}
	argv := dynamoArgs(main)
	var out []podRole
	for rank := 0; rank < nodes; rank++ {
		r := base
		r.role, r.indexes = "leader", []int{rank}
		if rank > 0 {
			r.role = "worker"
		}
		o := op
		o.extra, o.extraOn = dynamoMultinode(argv, gpus, nodes, rank, Pos{Line: svc.Line, Col: svc.Column}), main
		r.op = &o
		out = append(out, r)
	}
	return out
}

// dynamoMain is the container the operator treats as the worker: the
// v1alpha1 mainContainer, else the container named "main", else the first.
func dynamoMain(spec *yaml.Node) *yaml.Node {
	if m := get(spec, "mainContainer"); m != nil && m.Kind == yaml.MappingNode {
		return m
	}
	cs := get(spec, "containers")
	if cs == nil || cs.Kind != yaml.SequenceNode || len(cs.Content) == 0 {
		return nil
	}
	for _, c := range cs.Content {
		if scalar(c, "name") == "main" {
			return c
		}
	}
	return cs.Content[0]
}

// dynamoArgs is the main container's command and args split on spaces, as
// the operator reads them (getExpandedArgs).
func dynamoArgs(c *yaml.Node) []string {
	var out []string
	for _, key := range []string{"command", "args"} {
		if l := get(c, key); l != nil && l.Kind == yaml.SequenceNode {
			for _, it := range l.Content {
				out = append(out, strings.Fields(it.Value)...)
			}
		}
	}
	return out
}

// dynamoFlag reads an integer flag as the operator does: the exact
// spelling followed by the value, 1 when absent or unreadable.
func dynamoFlag(args []string, flag string) int {
	for i, a := range args {
		if a == flag && i+1 < len(args) {
			if n, err := strconv.Atoi(args[i+1]); err == nil {
				return n
			}
		}
	}
	return 1
}

// dynamoMultinode is what the operator appends to node rank's command.
func dynamoMultinode(args []string, gpus, nodes, rank int, at Pos) []Value {
	world := dynamoFlag(args, "--tensor-parallel-size") * dynamoFlag(args, "--pipeline-parallel-size")
	dp := dynamoFlag(args, "--data-parallel-size")
	var flags []string
	switch {
	case world > gpus:
		flags = []string{"--distributed-executor-backend", "mp", "--nnodes", strconv.Itoa(nodes),
			"--master-addr", dynamoLeader, "--node-rank", strconv.Itoa(rank)}
		if rank > 0 {
			flags = append(flags, "--headless")
		}
	case world*dp > gpus && world > 0:
		local := gpus / world
		if dp == 1 {
			flags = append(flags, "--data-parallel-size", strconv.Itoa(local*nodes))
		}
		flags = append(flags, "--data-parallel-hybrid-lb", "--data-parallel-size-local", strconv.Itoa(local),
			"--data-parallel-start-rank", strconv.Itoa(local*rank), "--data-parallel-address", dynamoLeader,
			"--data-parallel-rpc-port", "13445")
	}
	out := make([]Value, len(flags))
	for i, f := range flags {
		out[i] = knownValue(f, at)
		if f == dynamoLeader {
			out[i] = unknownValue(f, at, "LEADER_HOSTNAME")
		}
	}
	return out
}

// commandLine is the operator's command for a container: its script, the
// words of the extra-args variable and the container's args, read as one
// shell line (the template eval's them, so their quotes count).
func (op *operatorPod) commandLine(env []EnvVar, args []Value) Value {
	var b builder
	b.addValue(*op.script)
	for i := len(env) - 1; i >= 0; i-- {
		if env[i].Name == op.argsEnv {
			b.addByte(' ', env[i].Value.Pos)
			b.addValue(env[i].Value)
			break
		}
	}
	for _, a := range args {
		b.addByte(' ', a.Pos)
		b.addValue(a)
	}
	return b.value(op.script.Pos)
}

// openRefs turns $(VAR) references nothing in the file defines into
// unknown values: an operator may define them (kthena's ENTRY_ADDRESS,
// Dynamo's leader host name), so their text is not the value.
func openRefs(argv, refs []Value) []Value {
	if len(refs) == 0 {
		return argv
	}
	out := make([]Value, len(argv))
	for i, a := range argv {
		out[i] = a
		for _, m := range kubeRef.FindAllStringSubmatch(a.Text, -1) {
			a.Known = false
			a.Unresolved = appendUnique(a.Unresolved, m[1])
			out[i] = a
		}
	}
	return out
}

// envList reads a Kubernetes-style env list that is not a container's.
func envList(src *source, l *yaml.Node) []EnvVar {
	if l == nil {
		return nil
	}
	return containerEnv(src, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "env"}, l}})
}
