package launch

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

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
