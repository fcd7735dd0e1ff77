package published

import (
	"fmt"
	"math"
	"strconv"

	"gopkg.in/yaml.v3"
)

// Unknown is how the data files spell a value the source does not give.
const Unknown = "unknown"

// Num is a number a source may not state: a YAML number, or the word
// unknown. The zero value is an absent (unknown) number.
type Num struct {
	V     float64
	Known bool
}

// N returns a known number.
func N(v float64) Num { return Num{V: v, Known: true} }

// UnmarshalYAML accepts a finite number or "unknown".
func (n *Num) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: want a number or %q", node.Line, Unknown)
	}
	if node.Value == Unknown {
		*n = Num{}
		return nil
	}
	if node.Tag != "!!int" && node.Tag != "!!float" {
		return fmt.Errorf("line %d: %q is not a number (write %q for a value the source does not give)", node.Line, node.Value, Unknown)
	}
	v, err := strconv.ParseFloat(node.Value, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("line %d: %q is not a finite number", node.Line, node.Value)
	}
	*n = N(v)
	return nil
}

// Positive reports whether the number is known and greater than zero.
func (n Num) Positive() bool { return n.Known && n.V > 0 }

// Int returns the value rounded to the nearest integer (0 when unknown).
func (n Num) Int() int { return int(math.Round(n.V)) }

// String formats the value, or "unknown".
func (n Num) String() string {
	if !n.Known {
		return Unknown
	}
	return strconv.FormatFloat(n.V, 'g', -1, 64)
}

// Flag is a yes/no setting a source may not state: a YAML boolean or unknown.
type Flag struct {
	V     bool
	Known bool
}

// UnmarshalYAML accepts true, false or "unknown".
func (f *Flag) UnmarshalYAML(node *yaml.Node) error {
	if node.Kind == yaml.ScalarNode && node.Value == Unknown {
		*f = Flag{}
		return nil
	}
	if node.Kind != yaml.ScalarNode || node.Tag != "!!bool" {
		return fmt.Errorf("line %d: want true, false or %q", node.Line, Unknown)
	}
	v, err := strconv.ParseBool(node.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a boolean", node.Line, node.Value)
	}
	*f = Flag{V: v, Known: true}
	return nil
}

// Stat is a published distribution summary; a source gives some of the
// fields (or the word unknown for none).
type Stat struct {
	Mean, Median, P90, P99, Min, Max Num
}

var statFields = map[string]func(*Stat) *Num{
	"mean": func(s *Stat) *Num { return &s.Mean }, "median": func(s *Stat) *Num { return &s.Median },
	"p90": func(s *Stat) *Num { return &s.P90 }, "p99": func(s *Stat) *Num { return &s.P99 },
	"min": func(s *Stat) *Num { return &s.Min }, "max": func(s *Stat) *Num { return &s.Max },
}

// UnmarshalYAML accepts "unknown" or a mapping of the fields above; any
// other key is an error (a misspelt percentile must not vanish silently).
func (s *Stat) UnmarshalYAML(node *yaml.Node) error {
	*s = Stat{}
	if node.Kind == yaml.ScalarNode && node.Value == Unknown {
		return nil
	}
	if node.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: want a mapping of mean/median/p90/p99/min/max or %q", node.Line, Unknown)
	}
	for i := 0; i+1 < len(node.Content); i += 2 {
		key := node.Content[i].Value
		field, ok := statFields[key]
		if !ok {
			return fmt.Errorf("line %d: unknown statistic %q", node.Content[i].Line, key)
		}
		if err := node.Content[i+1].Decode(field(s)); err != nil {
			return err
		}
	}
	return nil
}

// Any reports whether at least one field is known.
func (s Stat) Any() bool {
	for _, f := range statFields {
		if f(&s).Known {
			return true
		}
	}
	return false
}
