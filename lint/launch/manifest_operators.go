package launch

import (
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
// Dynamo DynamoGraphDeployment, LWS DisaggregatedSet); ok is false for any
// other kind.
func operatorRoles(src *source, doc *yaml.Node, kind string) ([]podRole, bool) {
	api := scalar(doc, "apiVersion")
	switch {
	case kind == "ModelServing" && strings.HasPrefix(api, "workload.serving.volcano.sh/"):
		return kthenaRoles(doc), true
	case kind == "LLMInferenceService" && strings.HasPrefix(api, "serving.kserve.io/"):
		return kserveRoles(src, doc), true
	case kind == "DynamoGraphDeployment" && strings.HasPrefix(api, "nvidia.com/"):
		return dynamoRoles(src, doc), true
	case kind == "DisaggregatedSet" && strings.HasPrefix(api, "disaggregatedset.x-k8s.io/"):
		return disaggregatedSetRoles(doc), true
	}
	return nil, false
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
