package launch

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
	"mvdan.cc/sh/v3/syntax"
)

// composeServices lints a Docker Compose file: each service that runs a
// vLLM image or command becomes an invocation in a docker container.
func (fe *frontEnd) composeServices(src *source, doc *yaml.Node) {
	svcs := get(doc, "services")
	if svcs == nil || svcs.Kind != yaml.MappingNode {
		return
	}
	for i := 0; i+1 < len(svcs.Content); i += 2 {
		before := len(fe.invs)
		fe.composeService(src, svcs.Content[i+1])
		for _, inv := range fe.invs[before:] {
			inv.Node = fe.file + ":" + svcs.Content[i].Value
		}
	}
}

func (fe *frontEnd) composeService(src *source, svc *yaml.Node) {
	c := &containerCtx{image: scalar(svc, "image"), env: composeEnv(src, get(svc, "environment"))}
	c.version = imageVersion(c.image)
	c.envOpen = get(svc, "env_file") != nil
	c.info = Container{Runtime: "docker", Pos: Pos{Line: svc.Line, Col: svc.Column},
		HostIPC: scalar(svc, "ipc") == "host", HostNetwork: scalar(svc, "network_mode") == "host",
		HasShm: scalar(svc, "shm_size") != ""}
	if get(svc, "deploy", "resources", "reservations", "devices") != nil {
		// the reservation decides what the container sees (also when it
		// gives no count: NVIDIA_VISIBLE_DEVICES is then not read)
		c.gpus, c.gpuSrc = composeGPUs(svc), "deploy.resources devices"
	}
	c.mounts = composeMounts(get(svc, "volumes"))
	cmd := fe.composeWords(src, get(svc, "command"))
	entry := fe.composeWords(src, get(svc, "entrypoint"))
	w := &walker{fe: fe, src: src, sc: containerScope(c.env), ctx: walkCtx{container: c}}
	cc := &cmdCtx{stmt: &syntax.Stmt{}, fields: append(entry, cmd...)}
	switch {
	case len(entry) == 0 && isVLLMImage(c.image):
		w.imageServe(cc, knownValue(c.image, c.info.Pos), cmd)
	case len(cc.fields) > 0:
		w.command(cc, 0)
	}
}

// composeWords reads command/entrypoint: a list, or a string split like a shell would.
func (fe *frontEnd) composeWords(src *source, n *yaml.Node) []Value {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.SequenceNode {
		var out []Value
		for _, it := range n.Content {
			out = append(out, composeValue(scalarValue(src, it)))
		}
		return out
	}
	if n.Kind != yaml.ScalarNode {
		return nil
	}
	sub := newSubSource(fe.file, scalarValue(src, n))
	f, err := syntax.NewParser().Parse(bytes.NewReader(sub.data), fe.file)
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return nil
	}
	ev := &evaluator{src: sub, sc: newScope()}
	var out []Value
	for _, w := range call.Args {
		out = append(out, ev.fields(w)...)
	}
	return out
}

// composeValue marks ${VAR} interpolation (done by compose from .env) unresolved.
func composeValue(v Value) Value {
	if strings.Contains(v.Text, "$") {
		v.Known = false
		v.Unresolved = append(v.Unresolved, v.Text)
	}
	return v
}

// composeEnv reads `environment:` as a list of KEY=VAL or a mapping.
func composeEnv(src *source, n *yaml.Node) []EnvVar {
	var out []EnvVar
	if n == nil {
		return nil
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for _, it := range n.Content {
			v := scalarValue(src, it)
			name, _, ok := strings.Cut(v.Text, "=")
			if ok {
				out = append(out, EnvVar{Name: name, Value: composeValue(v.Slice(len(name)+1, len(v.Text))), Pos: v.Pos, Source: "compose"})
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			out = append(out, EnvVar{Name: k.Value, Value: composeValue(scalarValue(src, n.Content[i+1])), Pos: Pos{Line: k.Line, Col: k.Column}, Source: "compose"})
		}
	}
	return out
}

// composeGPUs reads deploy.resources.reservations.devices[].count or device_ids.
func composeGPUs(svc *yaml.Node) int {
	devs := get(svc, "deploy", "resources", "reservations", "devices")
	if devs == nil || devs.Kind != yaml.SequenceNode {
		return 0
	}
	for _, d := range devs.Content {
		if ids := get(d, "device_ids"); ids != nil && ids.Kind == yaml.SequenceNode {
			return len(ids.Content)
		}
		if n := dockerGPUs(scalar(d, "count")); n > 0 {
			return n
		}
	}
	return 0
}

// composeMounts reads a service's bind mounts: `HOST:CTR[:opts]` strings
// and long-syntax entries (type: bind, source, target).
func composeMounts(n *yaml.Node) []mount {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	var out []mount
	for _, it := range n.Content {
		switch it.Kind {
		case yaml.ScalarNode:
			if m, ok := parseVolume(it.Value); ok {
				out = append(out, m)
			}
		case yaml.MappingNode:
			if scalar(it, "type") == "bind" && scalar(it, "source") != "" && scalar(it, "target") != "" {
				out = append(out, mount{host: scalar(it, "source"), ctr: scalar(it, "target")})
			}
		}
	}
	return out
}
