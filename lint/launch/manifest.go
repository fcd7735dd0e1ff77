package launch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mvdan.cc/sh/v3/syntax"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"gopkg.in/yaml.v3"
)

// lwsEnv are the variables LeaderWorkerSet injects into every pod.
var lwsEnv = []string{"LWS_LEADER_ADDRESS", "LWS_GROUP_SIZE", "LWS_WORKER_INDEX", "LWS_NAME", "LWS_GROUP_INDEX"}

// maxGroupSize bounds how many LeaderWorkerSet nodes are expanded.
const maxGroupSize = 64

// ParseManifest reads Kubernetes manifests (several documents allowed) and
// returns one invocation per vLLM container and, for LeaderWorkerSets, per node.
func ParseManifest(file string, data []byte) ([]*Invocation, []*Script, diag.Diagnostics) {
	fe := &frontEnd{file: file, funcs: map[string]*syntax.FuncDecl{}}
	data = validUTF8(data)
	src := newFileSource(file, data, true)
	dec := yaml.NewDecoder(bytes.NewReader(src.data))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			fe.diags = append(fe.diags, yamlError(file, data, err))
			break
		}
		var top *yaml.Node
		if len(doc.Content) == 1 {
			top = doc.Content[0]
		}
		docs = append(docs, top)
	}
	fe.configMaps = configMaps(docs) // a ConfigMap may follow the workload using it
	for i, doc := range docs {
		if doc != nil {
			fe.object(src, doc, i)
		}
	}
	fe.serviceLinks()
	fe.notePlaceholders(src, false)
	return fe.invs, fe.scripts, fe.diags
}

// kubeService is a Service defined next to the workloads.
type kubeService struct {
	name, namespace, port string
	at                    Pos
}

// podMeta is what Kubernetes needs to decide a pod's service links.
type podMeta struct {
	namespace string
	linksOff  bool
}

// serviceLinks models Kubernetes service links: a pod gets <NAME>_PORT=
// tcp://host:port for every Service in its namespace unless the pod sets
// enableServiceLinks: false. A Service named "vllm" thus hands vLLM a
// VLLM_PORT it cannot parse. Variables the container sets itself win.
func (fe *frontEnd) serviceLinks() {
	for _, svc := range fe.services {
		if svc.name != "vllm" {
			continue
		}
		for _, inv := range fe.invs {
			m, ok := fe.pods[inv]
			if !ok || m.linksOff || m.namespace != svc.namespace {
				continue
			}
			if _, set := inv.LookupEnv("VLLM_PORT"); set {
				continue
			}
			v := knownValue("tcp://"+svc.name+":"+svc.port, svc.at)
			inv.Env = append(inv.Env, EnvVar{Name: "VLLM_PORT", Value: v, Pos: svc.at, Source: "service link"})
		}
	}
}

// service records a Service document.
func (fe *frontEnd) service(src *source, doc *yaml.Node) {
	name := get(doc, "metadata", "name")
	if name == nil || name.Kind != yaml.ScalarNode {
		return
	}
	port := "80"
	if ps := get(doc, "spec", "ports"); ps != nil && ps.Kind == yaml.SequenceNode && len(ps.Content) > 0 {
		if v := scalar(ps.Content[0], "port"); v != "" {
			port = v
		}
	}
	fe.services = append(fe.services, kubeService{name: name.Value, namespace: scalar(doc, "metadata", "namespace"), port: port, at: scalarValue(src, name).Pos})
}

// get walks mapping keys.
func get(n *yaml.Node, path ...string) *yaml.Node {
	for _, k := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}

func scalar(n *yaml.Node, path ...string) string {
	if v := get(n, path...); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// podRole is one pod template with the LWS index values it stands for.
type podRole struct {
	spec *yaml.Node
	role string
	// lws marks LeaderWorkerSet pods, which get the LWS_* variables.
	lws bool
	// strict is set for kinds whose pods' environment the file fully
	// shows (core workloads, LeaderWorkerSet); custom resources may inject more.
	strict bool
	// group separates pods of one object that form different deployments
	// (prefill and decode roles of a custom resource).
	group string
	// podName is a StatefulSet's name: pod i is "<podName>-<i>" (HOSTNAME).
	podName string
	indexes []int
	size    int
	// op is what the custom resource's operator adds to the pod (nil for
	// core kinds and resources vlaunch does not know).
	op *operatorPod
	// copies is how many identical copies of the role's group a custom
	// resource runs (a DisaggregatedSet role's replicas times its slices);
	// 0 when not known or set by the object's kind instead.
	copies int
}

// object finds the pod templates of one document.
func (fe *frontEnd) object(src *source, doc *yaml.Node, idx int) {
	kind := scalar(doc, "kind")
	if kind == "" && get(doc, "services") != nil {
		fe.composeServices(src, doc)
		return
	}
	if skypilotTask(doc) {
		fe.skypilot(src, doc)
		return
	}
	if fe.helmValues(src, doc) {
		return
	}
	if kind == "Service" {
		fe.service(src, doc)
		return
	}
	tag := fmt.Sprintf("%s/%s#%d", kind, scalar(doc, "metadata", "name"), idx)
	ns := scalar(doc, "metadata", "namespace")
	var roles []podRole
	switch kind {
	case "LeaderWorkerSet":
		roles = lwsRoles(doc)
	case "Pod":
		roles = []podRole{{spec: get(doc, "spec"), strict: true}}
	case "StatefulSet":
		roles = []podRole{statefulSetRole(doc)}
	case "Deployment", "ReplicaSet", "DaemonSet", "Job":
		roles = []podRole{{spec: get(doc, "spec", "template", "spec"), strict: true}}
	default:
		var ok bool
		if roles, ok = operatorRoles(src, doc, kind); !ok {
			roles = genericRoles(doc)
		}
	}
	obj0 := len(fe.invs)
	defer func() {
		if kind == "LeaderWorkerSet" || kind == "Deployment" || kind == "ReplicaSet" {
			n := objectReplicas(doc)
			for _, inv := range fe.invs[obj0:] {
				inv.Copies = n
			}
		}
	}()
	for _, r := range roles {
		if r.spec == nil {
			continue
		}
		n0 := len(fe.invs)
		rtag := tag
		if r.group != "" {
			rtag += "/" + r.group
		}
		for _, c := range operatorContainers(r) {
			fe.container(src, r, c, rtag)
		}
		if fe.pods == nil {
			fe.pods = map[*Invocation]podMeta{}
		}
		for _, inv := range fe.invs[n0:] {
			fe.pods[inv] = podMeta{namespace: ns, linksOff: scalar(r.spec, "enableServiceLinks") == "false"}
			if r.copies > 0 {
				inv.Copies = r.copies
			}
		}
	}
	fe.rayObject(src, doc, kind, tag)
}

// objectReplicas is an object's spec.replicas: 1 when absent (the
// Kubernetes default), 0 when not a literal count.
func objectReplicas(doc *yaml.Node) int {
	v := scalar(doc, "spec", "replicas")
	if v == "" {
		return 1
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// lwsRoles expands a LeaderWorkerSet into leader (index 0) and workers (1..size-1).
func lwsRoles(doc *yaml.Node) []podRole {
	return lwsSpecRoles(get(doc, "spec"))
}

// lwsSpecRoles expands a LeaderWorkerSet spec (of the object, or of a
// DisaggregatedSet role) into its leader and worker pods.
func lwsSpecRoles(spec *yaml.Node) []podRole {
	lwt := get(spec, "leaderWorkerTemplate")
	size, err := strconv.Atoi(scalar(lwt, "size"))
	if err != nil || size < 1 || size > maxGroupSize {
		size = 0
	}
	worker := get(lwt, "workerTemplate", "spec")
	leader := get(lwt, "leaderTemplate", "spec")
	var workers []int
	for i := 1; i < size; i++ {
		workers = append(workers, i)
	}
	if size == 0 { // unknown group size: one worker with an unknown index
		workers = []int{-1}
	}
	if leader == nil {
		if size == 0 {
			return []podRole{{spec: worker, role: "worker", indexes: workers, lws: true, strict: true}}
		}
		return []podRole{{spec: worker, role: "worker", indexes: append([]int{0}, workers...), size: size, lws: true, strict: true}}
	}
	return []podRole{{spec: leader, role: "leader", indexes: []int{0}, size: size, lws: true, strict: true},
		{spec: worker, role: "worker", indexes: workers, size: size, lws: true, strict: true}}
}

// operatorContainers are a pod template's containers, with the one the
// operator's own template defines when the file's template leaves it out:
// KServe merges spec.template over its config template, whose container
// "main" runs vllm serve whether or not the file names it (a template that
// only adds a sidecar, or names its resources' container otherwise).
func operatorContainers(r podRole) []*yaml.Node {
	cs := containers(r.spec)
	if r.op == nil || r.op.script == nil || r.op.main == "" {
		return cs
	}
	for _, c := range cs {
		if scalar(c, "name") == r.op.main {
			return cs
		}
	}
	name := &yaml.Node{Kind: yaml.ScalarNode, Value: r.op.main, Line: r.spec.Line, Column: r.spec.Column}
	main := &yaml.Node{Kind: yaml.MappingNode, Line: r.spec.Line, Column: r.spec.Column,
		Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "name", Line: r.spec.Line, Column: r.spec.Column}, name}}
	return append(cs, main)
}

func containers(podSpec *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	if m := get(podSpec, "mainContainer"); m != nil && m.Kind == yaml.MappingNode {
		out = append(out, m)
	}
	for _, key := range []string{"initContainers", "containers"} {
		if l := get(podSpec, key); l != nil && l.Kind == yaml.SequenceNode {
			out = append(out, l.Content...)
		}
	}
	return out
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlError turns a decoder error into a diagnostic at its line.
func yamlError(file string, data []byte, err error) diag.Diagnostic {
	d := diag.Diagnostic{Code: CodeSyntax, Severity: diag.Error, File: file, Line: 1, Col: 1,
		Message: "invalid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		d.Line, _ = strconv.Atoi(m[1])
	}
	switch {
	case conflictMarker(data):
		d.Hint = "the file still has merge-conflict markers (<<<<<<<, =======, >>>>>>>)"
	case bytes.Contains(data, []byte("{{")):
		d.Hint = "this looks like a Helm template; lint the rendered output of `helm template`"
	}
	return d
}

// conflictMarker reports an unresolved merge conflict.
func conflictMarker(data []byte) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("<<<<<<< ")) || bytes.HasPrefix(l, []byte(">>>>>>> ")) {
			return true
		}
	}
	return false
}

// statefulSetRole expands a StatefulSet into its pods: each is its own node
// whose HOSTNAME ends in the pod ordinal.
func statefulSetRole(doc *yaml.Node) podRole {
	r := podRole{spec: get(doc, "spec", "template", "spec"), role: "pod", podName: scalar(doc, "metadata", "name"), strict: true}
	n, err := strconv.Atoi(scalar(doc, "spec", "replicas"))
	if err != nil || n < 1 || n > maxGroupSize {
		r.indexes = []int{-1}
		return r
	}
	for i := 0; i < n; i++ {
		r.indexes = append(r.indexes, i)
	}
	return r
}
