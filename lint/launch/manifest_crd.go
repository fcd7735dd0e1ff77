package launch

import (
	"strings"

	"gopkg.in/yaml.v3"
	"mvdan.cc/sh/v3/syntax"
)

// maxCRDDepth bounds the search for pod templates in a custom resource.
const maxCRDDepth = 16

// genericRoles finds the pod templates of any kind that embeds them
// (LeaderWorkerSet-like leader/worker templates of other operators, KubeRay
// head and worker groups, Volcano and JobSet roles, llm-d prefill/decode
// sections): every mapping with a `containers` list of mappings is a pod
// spec. Its role and deployment group come from the keys on the path to it
// and the names of the list entries it sits in (roles: [{name: prefill}]).
func genericRoles(doc *yaml.Node) []podRole {
	var out []podRole
	var walk func(n *yaml.Node, path []string, depth int)
	walk = func(n *yaml.Node, path []string, depth int) {
		if n == nil || depth > maxCRDDepth {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			if isPodSpec(n) {
				out = append(out, pathRole(n, path))
				return
			}
			for i := 0; i+1 < len(n.Content); i += 2 {
				walk(n.Content[i+1], append(path, n.Content[i].Value), depth+1)
			}
		case yaml.SequenceNode:
			for _, it := range n.Content {
				p := path
				if nm := scalar(it, "name"); nm != "" {
					// a list of named roles (AIBrix StormService, JobSet
					// replicatedJobs): the name places the pods like a key
					p = append(append([]string{}, path...), nm)
				}
				walk(it, p, depth+1)
			}
		}
	}
	walk(get(doc, "spec"), []string{"spec"}, 0)
	return out
}

// isPodSpec reports a mapping whose `containers` is a list of containers,
// or that has one `mainContainer` (NVIDIA Dynamo's extraPodSpec).
func isPodSpec(n *yaml.Node) bool {
	if m := get(n, "mainContainer"); m != nil && m.Kind == yaml.MappingNode {
		return true
	}
	l := get(n, "containers")
	if l == nil || l.Kind != yaml.SequenceNode || len(l.Content) == 0 {
		return false
	}
	for _, c := range l.Content {
		if c.Kind != yaml.MappingNode || (get(c, "image") == nil && get(c, "name") == nil) {
			return false
		}
	}
	return true
}

// pathRole names a pod template by where it sits: leader/worker and Ray
// head/worker roles share one deployment; prefill and decode sections are
// deployments of their own.
func pathRole(spec *yaml.Node, path []string) podRole {
	r := podRole{spec: spec, indexes: []int{-1}}
	for _, k := range path {
		l := strings.ToLower(k)
		switch {
		case strings.Contains(l, "prefill"):
			r.group = "prefill"
		case strings.Contains(l, "decode"):
			r.group = "decode"
		case strings.Contains(l, "leader") || strings.Contains(l, "headgroup") || strings.HasPrefix(l, "entry"):
			r.role = "leader"
		case strings.Contains(l, "worker"):
			r.role = "worker"
		}
	}
	return r
}

// rayObject models KubeRay: the head group runs `ray start --head` and each
// worker group `ray start --address=<head>` with the group's rayStartParams
// (the operator generates these commands); a RayJob's entrypoint runs in the
// head container.
func (fe *frontEnd) rayObject(src *source, doc *yaml.Node, kind, tag string) {
	cluster := get(doc, "spec")
	switch kind {
	case "RayJob":
		cluster = get(doc, "spec", "rayClusterSpec")
	case "RayService":
		cluster = get(doc, "spec", "rayClusterConfig")
	case "RayCluster":
	default:
		return
	}
	head := get(cluster, "headGroupSpec")
	if head == nil {
		return
	}
	fe.rayGroup(src, head, KindRayHead, tag)
	if ws := get(cluster, "workerGroupSpecs"); ws != nil && ws.Kind == yaml.SequenceNode {
		for _, g := range ws.Content {
			fe.rayGroup(src, g, KindRayWorker, tag)
		}
	}
	if ep := get(doc, "spec", "entrypoint"); kind == "RayJob" && ep != nil && ep.Kind == yaml.ScalarNode {
		if w := fe.groupWalker(src, head, "leader"); w != nil {
			w.subScript(scalarValue(src, ep), w.sc, w.ctx)
		}
	}
}

// rayGroup adds the `ray start` a KubeRay group's first container runs.
func (fe *frontEnd) rayGroup(src *source, g *yaml.Node, kind Kind, tag string) {
	role := "worker"
	if kind == KindRayHead {
		role = "leader"
	}
	w := fe.groupWalker(src, g, role)
	if w == nil {
		return
	}
	var args []Value
	at := Pos{Line: g.Line, Col: g.Column}
	if kind == KindRayHead {
		args = append(args, knownValue("--head", at))
	} else {
		args = append(args, unknownValue("--address=$RAY_IP:6379", at, "RAY_IP"))
	}
	if p := get(g, "rayStartParams"); p != nil && p.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(p.Content); i += 2 {
			k, v := p.Content[i], p.Content[i+1]
			args = append(args, concatValues(knownValue("--"+k.Value+"=", Pos{Line: k.Line, Col: k.Column}), scalarValue(src, v)))
		}
	}
	inv := w.newInvocation(&cmdCtx{stmt: &syntax.Stmt{}}, kind, knownValue("ray", at), "kuberay", args)
	inv.Deployment, inv.Role = tag, role
	fe.invs = append(fe.invs, inv)
}

// groupWalker sets up a walk in the first container of a KubeRay group.
func (fe *frontEnd) groupWalker(src *source, g *yaml.Node, role string) *walker {
	spec := get(g, "template", "spec")
	cs := get(spec, "containers")
	if cs == nil || cs.Kind != yaml.SequenceNode || len(cs.Content) == 0 {
		return nil
	}
	w, _, _ := fe.containerWalker(src, podRole{spec: spec, role: role, indexes: []int{-1}}, cs.Content[0], -1)
	return w
}
