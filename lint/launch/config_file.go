package launch

import (
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// vLLM reads `--config FILE` (a YAML mapping of flag names to values) as
// command-line arguments: FlexibleArgumentParser._pull_args_from_config
// and load_config_file (vllm/utils/__init__.py of a 0.11 tree, the mirror
// Yuran-7/vllm-0.11 at 2665d4910, lines 1995-2122) turn `key: value` into
// `--key value`, a true boolean into `--key` (a false one into nothing), a
// list into `--key item...`, anything else into `--key str(value)`, and
// place them after `serve` and the model positional and before the rest of
// the command line, which therefore wins.

// configPath returns the --config value of a server's arguments.
func configPath(args []Value) (Value, bool) {
	for i, a := range args {
		switch {
		case a.Text == "--config" && i+1 < len(args):
			return args[i+1], true
		case strings.HasPrefix(a.Text, "--config="):
			return a.Slice(len("--config="), len(a.Text)), true
		}
	}
	return Value{}, false
}

// noteConfigFile records the host path of the server's --config file
// (Invocation.ConfigFile): in a container, the host file mounted there;
// nothing when no mount covers it (a file of the image) or the path is
// not known.
func (w *walker) noteConfigFile(inv *Invocation) {
	p, ok := configPath(inv.Args)
	if !ok || !p.Known {
		return
	}
	host := p.Text
	if c := w.ctx.container; c != nil {
		h, ok := c.hostPath(p.Text)
		if !ok {
			return
		}
		host = h
	}
	inv.ConfigFile = host
}

// ConfigInput finds the input an invocation's --config file is: the path
// from the invocation's directory (or as given), else the one input with
// its base name; "" when none is.
func ConfigInput(files []string, inv *Invocation) string {
	if inv.ConfigFile == "" {
		return ""
	}
	return matchInput(files, inv.File, inv.ConfigFile)
}

// matchInput finds the input that path p, named in file from, refers to.
func matchInput(files []string, from, p string) string {
	for _, pre := range []string{"$PWD/", "${PWD}/", "$(pwd)/", "./"} {
		p = strings.TrimPrefix(p, pre)
	}
	want := []string{path.Clean(p), path.Join(path.Dir(from), p)}
	var byBase []string
	for _, f := range files {
		if f == from {
			continue
		}
		for _, w := range want {
			if path.Clean(f) == w {
				return f
			}
		}
		if path.Base(f) == path.Base(p) {
			byBase = append(byBase, f)
		}
	}
	if len(byBase) == 1 {
		return byBase[0]
	}
	return ""
}

// ConfigArgs reads a vLLM --config file as the arguments vLLM makes of it,
// each at its position in file; false when it is no YAML mapping. A
// mapping value (vLLM passes Python's str() of it, not JSON) is an
// unresolved argument.
func ConfigArgs(file string, data []byte) ([]Value, bool) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !configKey.MatchString(m.Content[i].Value) || notConfigKeys[m.Content[i].Value] {
			return nil, false // a manifest, a Compose file: no flags file
		}
	}
	var out []Value
	at := func(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column, File: file} }
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		flag := knownValue("--"+k.Value, at(k))
		switch {
		case v.Kind == yaml.ScalarNode && v.Tag == "!!bool":
			if strings.EqualFold(v.Value, "true") {
				out = append(out, flag)
			}
		case v.Kind == yaml.SequenceNode:
			if len(v.Content) > 0 {
				out = append(out, flag)
				for _, it := range v.Content {
					out = append(out, knownValue(it.Value, at(it)))
				}
			}
		case v.Kind == yaml.ScalarNode:
			out = append(out, flag, knownValue(v.Value, at(v)))
		default:
			out = append(out, flag, unknownValue("{...}", at(v), "("+k.Value+": a mapping in "+path.Base(file)+")"))
		}
	}
	return out, true
}

// WithConfig returns the server's arguments with its --config file's
// arguments in their place: after the model positional (first when there
// is none) and before the rest, the `--config FILE` words dropped, as
// vLLM orders them.
func WithConfig(inv *Invocation, cfg []Value) []Value {
	var rest []Value
	for i := 0; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case a.Text == "--config" && i+1 < len(inv.Args):
			i++
		case strings.HasPrefix(a.Text, "--config="):
		default:
			rest = append(rest, a)
		}
	}
	n := 0
	if len(rest) > 0 && !strings.HasPrefix(rest[0].Text, "-") {
		n = 1 // the model positional (only `serve` takes one)
	}
	out := append(append([]Value{}, rest[:n]...), cfg...)
	return append(out, rest[n:]...)
}

// configKey is a flag name as a config file spells it (`tensor-parallel-size`,
// `max_model_len`).
var configKey = regexp.MustCompile(`^[a-z][a-z0-9_-]*$`)

// notConfigKeys are top-level keys of other YAML files a --config path may
// match by its base name (Compose, Kubernetes): such a file is no flags file.
var notConfigKeys = map[string]bool{"services": true, "spec": true, "metadata": true, "kind": true, "data": true}
