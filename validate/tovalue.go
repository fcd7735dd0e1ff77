package validate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/vlaunch/vlaunch/spec"
	"gopkg.in/yaml.v3"
)

// maxValueNodes caps how many nodes converting a document may produce once
// aliases are expanded (spec.MaxValues says why); "billion laughs" style
// alias nesting would otherwise expand exponentially.
const maxValueNodes = spec.MaxValues

// errAliasBomb reports a document whose aliases expand past maxValueNodes.
var errAliasBomb = fmt.Errorf("more than %d values or 200 levels once aliases are expanded", spec.MaxValues)

// converter turns a yaml.Node tree into the plain values gojsonschema
// checks (map[string]interface{}, []interface{}, string, int64, float64,
// bool, nil), remembering where a value could not be represented.
type converter struct {
	budget int
	// problems are positions the schema cannot judge (non-string keys,
	// non-finite numbers); they become SPEC003 diagnostics.
	problems []problem
}

type problem struct {
	node *yaml.Node
	path []string
	msg  string
}

func toValue(root *yaml.Node) (interface{}, []problem, error) {
	c := &converter{budget: maxValueNodes}
	v, err := c.value(root, nil, 0)
	return v, c.problems, err
}

// spend charges one unit of work; every recursive step calls it, so that
// self-referential anchors (a mapping that merges itself) cannot recurse
// without bound.
func (c *converter) spend(depth int) error {
	c.budget--
	if c.budget < 0 || depth > 200 {
		return errAliasBomb
	}
	return nil
}

func (c *converter) value(n *yaml.Node, path []string, depth int) (interface{}, error) {
	if err := c.spend(depth); err != nil {
		return nil, err
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0], path, depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, nil
		}
		return c.value(n.Alias, path, depth+1)
	case yaml.SequenceNode:
		return c.sequence(n, path, depth)
	case yaml.MappingNode:
		m := map[string]interface{}{}
		return m, c.mapping(n, m, path, depth)
	}
	return c.scalar(n, path), nil
}

func (c *converter) sequence(n *yaml.Node, path []string, depth int) (interface{}, error) {
	out := make([]interface{}, 0, len(n.Content))
	for i, item := range n.Content {
		v, err := c.value(item, append(path[:len(path):len(path)], strconv.Itoa(i)), depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// mapping fills m from n. Merge keys ("<<") are applied first so that the
// mapping's own keys win, as in yaml.v3's decoder. Keys with a null value
// are dropped: `key:` with nothing after it means "not given".
func (c *converter) mapping(n *yaml.Node, m map[string]interface{}, path []string, depth int) error {
	if err := c.spend(depth); err != nil {
		return err
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Tag == "!!merge" {
			if err := c.merge(n.Content[i+1], m, path, depth); err != nil {
				return err
			}
		}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Tag == "!!merge" {
			continue
		}
		key, ok := c.key(k, path)
		if !ok {
			continue
		}
		val, err := c.value(v, append(path[:len(path):len(path)], key), depth+1)
		if err != nil {
			return err
		}
		if val == nil {
			delete(m, key)
			continue
		}
		m[key] = val
	}
	return nil
}

func (c *converter) merge(v *yaml.Node, m map[string]interface{}, path []string, depth int) error {
	if err := c.spend(depth); err != nil {
		return err
	}
	for v.Kind == yaml.AliasNode && v.Alias != nil && depth < 200 {
		v, depth = v.Alias, depth+1
	}
	switch v.Kind {
	case yaml.MappingNode:
		return c.mapping(v, m, path, depth+1)
	case yaml.SequenceNode:
		for _, item := range v.Content {
			if err := c.merge(item, m, path, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	c.problems = append(c.problems, problem{v, path, "a merge key (<<) must refer to a mapping"})
	return nil
}

// key returns a mapping key as a string. Scalar keys of any tag (1, true)
// keep their text, so the schema then reports them as unknown keys;
// mapping or sequence keys cannot be named and are reported here.
func (c *converter) key(k *yaml.Node, path []string) (string, bool) {
	for i := 0; k.Kind == yaml.AliasNode && k.Alias != nil && i < 64; i++ {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		c.problems = append(c.problems, problem{k, path, "keys must be plain strings"})
		return "", false
	}
	return k.Value, true
}

func (c *converter) scalar(n *yaml.Node, path []string) interface{} {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			return i
		}
		var f float64
		if n.Decode(&f) == nil {
			return c.finite(n, path, f)
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil {
			return c.finite(n, path, f)
		}
	}
	return n.Value
}

// finite keeps JSON-representable numbers; .inf and .nan become a problem
// (and a string, so the schema does not also complain about a number).
func (c *converter) finite(n *yaml.Node, path []string, f float64) interface{} {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		c.problems = append(c.problems, problem{n, path, fmt.Sprintf("%s is not a finite number", n.Value)})
		return n.Value
	}
	return f
}
