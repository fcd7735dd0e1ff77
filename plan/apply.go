package plan

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Apply writes candidate s into the spec source src, changing only the keys
// whose value differs from what the spec asks for now (own): the layout
// under parallelism, model.weights and the vllm settings plan varies. The
// rest of the document — comments, key order, flow style — is kept as
// yaml.v3 reads it (inline comments lose their column alignment).
func Apply(src []byte, own, s Settings) ([]byte, error) {
	out, _, err := ApplyNoted(src, own, s)
	return out, err
}

// ApplyNoted is Apply with, in words, what it changed that is not one of
// the candidate's settings: the engines' vllm.port when a colocated
// candidate replaces the P/D pools (the engine takes the router's port) or
// a P/D candidate replaces a colocated engine (the router takes the
// engine's). `plan --apply` prints them, and the port's line in the spec
// says it (a YAML comment, unless the line has one): the port moved
// silently from 8100 to 8000 (qa38), where the README says --apply
// changes only what the candidate changes.
func ApplyNoted(src []byte, own, s Settings) ([]byte, []string, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, nil, err
	}
	var notes []string
	out, err := applyDoc(&doc, own, s, &notes)
	if err != nil {
		return nil, nil, err
	}
	// A key plan drops may hold an anchor that an alias elsewhere uses.
	var check yaml.Node
	if err := yaml.Unmarshal(out, &check); err != nil {
		return nil, nil, fmt.Errorf("the spec cannot be rewritten (edit it by hand): %v", err)
	}
	return out, notes, nil
}

// applyDoc edits the parsed spec doc in place as Apply does and encodes
// it (without Apply's re-reading of the result); notes gets what
// ApplyNoted reports.
func applyDoc(doc *yaml.Node, own, s Settings, notes *[]string) ([]byte, error) {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("the spec is not a YAML mapping")
	}
	root := doc.Content[0]
	if s.Nodes != "" {
		keepNodes(root, strings.Split(s.Nodes, ","))
	}
	if s.PD != nil {
		applyPD(root, own, s, notes)
		return encode(doc)
	}
	if own.PD != nil { // a colocated candidate of a P/D spec: the pools go
		removePD(root, notes)
	}
	if s.TP != own.TP || s.PP != own.PP || s.DP != own.DP || s.EP != own.EP || s.Replicas != own.Replicas || !isMapping(lookup(root, "parallelism")) {
		setLayout(root, s)
	}
	if s.Weights != own.Weights {
		setScalar(mapping(root, "model"), "weights", s.Weights, "!!str")
	}
	v := func() *yaml.Node { return mapping(root, "vllm") }
	if s.KVCacheDType != own.KVCacheDType {
		setScalar(v(), "kv_cache_dtype", s.KVCacheDType, "!!str")
	}
	if s.All2All != own.All2All {
		setScalar(v(), "all2all_backend", s.All2All, "!!str")
	}
	if s.DBO != own.DBO {
		setScalar(v(), "enable_dbo", strconv.FormatBool(s.DBO), "!!bool")
	}
	setOptInt(v, "max_num_seqs", own.MaxNumSeqs, s.MaxNumSeqs)
	setOptInt(v, "max_num_batched_tokens", own.MaxNumBatchedTokens, s.MaxNumBatchedTokens)
	if s.Speculative != own.Speculative || s.SpecTokens != own.SpecTokens {
		setSpeculative(v(), s)
	}
	return encode(doc)
}

// encode writes the edited document with the spec's two-space indent.
func encode(doc *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// setLayout replaces parallelism (a mapping, or the scalar `auto`) by the
// candidate's layout, keeping a flow-style mapping in flow style.
func setLayout(root *yaml.Node, s Settings) {
	old := lookup(root, "parallelism")
	p := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if old != nil && old.Kind == yaml.MappingNode {
		p.Style = old.Style
	}
	setScalar(p, "tensor", strconv.Itoa(s.TP), "!!int")
	setScalar(p, "pipeline", strconv.Itoa(s.PP), "!!int")
	setScalar(p, "data", strconv.Itoa(s.DP), "!!int")
	setScalar(p, "expert", strconv.FormatBool(s.EP), "!!bool")
	if s.Replicas > 1 {
		setScalar(p, "replicas", strconv.Itoa(s.Replicas), "!!int")
	}
	if old != nil {
		p.HeadComment, p.LineComment, p.FootComment = old.HeadComment, old.LineComment, old.FootComment
		*old = *p
		return
	}
	root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "parallelism"}, p)
}

// setSpeculative turns vllm.speculative off (drops it) or sets its draft
// count, capping a mean_acceptance_length the new count cannot reach as
// the candidate was predicted (Settings.withSpeculative).
func setSpeculative(v *yaml.Node, s Settings) {
	if s.Speculative == specOff {
		remove(v, "speculative")
		return
	}
	sp := mapping(v, "speculative")
	setScalar(sp, "num_speculative_tokens", strconv.Itoa(s.SpecTokens), "!!int")
	if a := lookup(sp, "mean_acceptance_length"); a != nil {
		if x, err := strconv.ParseFloat(a.Value, 64); err == nil && x > float64(s.SpecTokens+1) {
			setScalar(sp, "mean_acceptance_length", strconv.Itoa(s.SpecTokens+1), "!!int")
		}
	}
}

func setOptInt(v func() *yaml.Node, key string, own, want int) {
	if own == want {
		return
	}
	if want <= 0 { // back to the release's default: drop the key
		if m := v(); m != nil {
			remove(m, key)
		}
		return
	}
	setScalar(v(), key, strconv.Itoa(want), "!!int")
}

// lookup is the value of key in mapping m, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func isMapping(n *yaml.Node) bool { return n != nil && n.Kind == yaml.MappingNode }

// mapping returns the mapping under key, creating it (at the end of m) when
// absent or null.
func mapping(m *yaml.Node, key string) *yaml.Node {
	if n := lookup(m, key); n != nil {
		if n.Kind == yaml.AliasNode && n.Alias != nil && n.Alias.Kind == yaml.MappingNode {
			// Edit a copy, never the anchored mapping other keys share.
			*n = *deepCopy(n.Alias)
			n.Anchor = ""
		}
		if n.Kind != yaml.MappingNode {
			// The anchor stays, so aliases elsewhere still resolve.
			*n = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: n.HeadComment, LineComment: n.LineComment, Anchor: n.Anchor}
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, n)
	return n
}

// setScalar sets key to a plain scalar, keeping the key's comments.
func setScalar(m *yaml.Node, key, value, tag string) {
	if n := lookup(m, key); n != nil {
		n.Kind, n.Tag, n.Value, n.Style, n.Content, n.Alias = yaml.ScalarNode, tag, value, 0, nil, nil
		return
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key},
		&yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value})
}

func remove(m *yaml.Node, key string) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content = append(m.Content[:i], m.Content[i+2:]...)
			return
		}
	}
}

func deepCopy(n *yaml.Node) *yaml.Node {
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = deepCopy(k)
	}
	return &c
}

// keepNodes drops the hardware.nodes entries not named in names (a
// candidate on the spec's first nodes, --objective fewest-gpus).
func keepNodes(root *yaml.Node, names []string) {
	seq := lookup(lookup(root, "hardware"), "nodes")
	if seq == nil || seq.Kind != yaml.SequenceNode {
		return
	}
	var kept []*yaml.Node
	for _, n := range seq.Content {
		if name := lookup(n, "name"); name != nil && containsName(names, name.Value) {
			kept = append(kept, n)
		}
	}
	seq.Content = kept
}
