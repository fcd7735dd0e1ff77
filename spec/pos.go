package spec

import (
	"strconv"

	"gopkg.in/yaml.v3"
)

// NodeAt walks a mapping/sequence tree along path (keys, or decimal indexes
// for sequences) and returns the deepest node it reaches and whether it
// reached the end. keyNode asks for the key node of the last mapping entry
// instead of its value (used to point at an unknown key).
func NodeAt(root *yaml.Node, path []string, keyNode bool) (*yaml.Node, bool) {
	cur := root
	for i, seg := range path {
		last := i == len(path)-1
		next, key := child(cur, seg)
		if next == nil {
			return cur, false
		}
		if last && keyNode && key != nil {
			return key, true
		}
		cur = next
	}
	return cur, true
}

func child(n *yaml.Node, seg string) (value, key *yaml.Node) {
	if n == nil {
		return nil, nil
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == seg {
				return n.Content[i+1], n.Content[i]
			}
		}
	case yaml.SequenceNode:
		idx, err := strconv.Atoi(seg)
		if err == nil && idx >= 0 && idx < len(n.Content) {
			return n.Content[idx], nil
		}
	}
	return nil, nil
}

// Pos returns the line and column of the field at path in the deployment's
// source, falling back to the nearest ancestor that exists.
func (d *Deployment) Pos(path ...string) (line, col int) {
	if d == nil || d.Root == nil {
		return 0, 0
	}
	n, _ := NodeAt(d.Root, path, false)
	return n.Line, n.Column
}

// PathString renders a path as "a.b[2].c" for messages.
func PathString(path []string) string {
	out := ""
	for _, seg := range path {
		if _, err := strconv.Atoi(seg); err == nil {
			out += "[" + seg + "]"
			continue
		}
		if out != "" {
			out += "."
		}
		out += seg
	}
	return out
}
