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
	n = deref(n)
	if n == nil {
		return nil, nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		return mappingChild(n, seg, map[*yaml.Node]bool{})
	case yaml.SequenceNode:
		idx, err := strconv.Atoi(seg)
		if err == nil && idx >= 0 && idx < len(n.Content) {
			return deref(n.Content[idx]), nil
		}
	}
	return nil, nil
}

// deref unwraps document and alias nodes, so that paths work through
// anchors the way the decoded values do.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && i < 64; i++ {
		switch {
		case n.Kind == yaml.DocumentNode && len(n.Content) == 1:
			n = n.Content[0]
		case n.Kind == yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	return n
}

// mappingChild finds key seg in a mapping; explicit keys win over keys
// brought in by a merge key ("<<: *base"), as in yaml.v3's decoder. Each
// mapping is searched at most once, so self-referencing merges terminate.
func mappingChild(n *yaml.Node, seg string, seen map[*yaml.Node]bool) (value, key *yaml.Node) {
	if seen[n] {
		return nil, nil
	}
	seen[n] = true
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Value == seg && k.Tag != "!!merge" {
			return deref(n.Content[i+1]), k
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag != "!!merge" {
			continue
		}
		for _, m := range mergeSources(deref(n.Content[i+1])) {
			if v, k := mappingChild(m, seg, seen); v != nil {
				return v, k
			}
		}
	}
	return nil, nil
}

// mergeSources lists the mappings a merge key's value refers to.
func mergeSources(v *yaml.Node) []*yaml.Node {
	if v == nil {
		return nil
	}
	if v.Kind == yaml.MappingNode {
		return []*yaml.Node{v}
	}
	var out []*yaml.Node
	if v.Kind == yaml.SequenceNode {
		for _, c := range v.Content {
			if c = deref(c); c != nil && c.Kind == yaml.MappingNode {
				out = append(out, c)
			}
		}
	}
	return out
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
