package spec

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// UnmarshalYAML accepts either a catalog id string or a mapping of figures.
func (g *GPURef) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&g.Name)
	}
	var f GPUFigures
	if err := n.Decode(&f); err != nil {
		return err
	}
	g.Custom = &f
	return nil
}

// MarshalYAML writes the id or the figures back out.
func (g GPURef) MarshalYAML() (interface{}, error) {
	if g.Custom != nil {
		return g.Custom, nil
	}
	return g.Name, nil
}

// MarshalJSON mirrors MarshalYAML for JSON reports.
func (g GPURef) MarshalJSON() ([]byte, error) {
	if g.Custom != nil {
		return jsonMarshal(g.Custom)
	}
	return jsonMarshal(g.Name)
}

// parallelismFields avoids recursion into Parallelism.UnmarshalYAML.
type parallelismFields struct {
	Tensor   int  `yaml:"tensor"`
	Pipeline int  `yaml:"pipeline"`
	Data     int  `yaml:"data"`
	Expert   bool `yaml:"expert"`
	Replicas int  `yaml:"replicas,omitempty"`
}

// UnmarshalYAML accepts the word "auto" or a mapping of degrees.
func (p *Parallelism) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		if n.Value != "auto" {
			// A TypeError lets yaml.v3 keep decoding the rest of the document.
			return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: parallelism must be \"auto\" or a mapping, got %q", n.Line, n.Value)}}
		}
		*p = Parallelism{Auto: true}
		return nil
	}
	var f parallelismFields
	if err := n.Decode(&f); err != nil {
		return err
	}
	*p = Parallelism{Tensor: f.Tensor, Pipeline: f.Pipeline, Data: f.Data, Expert: f.Expert, Replicas: f.Replicas}
	return nil
}

// MarshalYAML writes "auto" or the mapping.
func (p Parallelism) MarshalYAML() (interface{}, error) {
	if p.Auto {
		return "auto", nil
	}
	return parallelismFields{p.Tensor, p.Pipeline, p.Data, p.Expert, p.Replicas}, nil
}
