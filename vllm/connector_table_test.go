package vllm

import (
	"fmt"
	"testing"
)

// connectorPartsMissing lists what connector c leaves undecided: its
// releases (a span and a source), its hand-off (known, or unknown with the
// reason as its source) in the first release of each span under each
// configuration that switches one (P2pNccl's send_type, MoRIIO's read
// mode), and its bundle (exactly one of written, refused with a reason,
// not read).
func connectorPartsMissing(c Connector) []string {
	var miss []string
	if len(c.Spans) == 0 || c.Source == "" {
		miss = append(miss, fmt.Sprintf("releases (spans %d, source %q)", len(c.Spans), c.Source))
	}
	if c.Handoff == nil {
		miss = append(miss, "hand-off (handoffNotRead when it was not read)")
	} else {
		for _, s := range c.Spans {
			for _, cfg := range []struct{ extra, env map[string]string }{
				{},
				{extra: map[string]string{"send_type": P2pNcclGet}},
				{env: map[string]string{MoRIIOReadModeEnv: "1"}},
			} {
				h := c.Handoff(c, s.Since, cfg.extra, cfg.env)
				if h.Connector != c.Name || h.Source == "" || (h.Direction == "" && h.LayerWise != Maybe) {
					miss = append(miss, fmt.Sprintf("hand-off in %s %v: %+v", s.Since, cfg, h))
				}
			}
		}
	}
	parts := 0
	for _, set := range []bool{c.Bundle.Writes != nil, c.Bundle.Refused != "", c.Bundle.NotRead} {
		if set {
			parts++
		}
	}
	if parts != 1 {
		miss = append(miss, fmt.Sprintf("bundle %+v (want one of Writes, Refused, NotRead)", c.Bundle))
	}
	return miss
}

// TestConnectorPartsDecided: every connector in the table has its three
// parts decided, and PDBundleOf answers from its bundle part; a connector
// added with a part left out fails here (the second half shows the check
// rejecting one).
func TestConnectorPartsDecided(t *testing.T) {
	for _, c := range connectorTable {
		if miss := connectorPartsMissing(c); len(miss) > 0 {
			t.Errorf("%s: undecided: %v", c.Name, miss)
		}
		b, ok, why := PDBundleOf(c.Name, Version{})
		if ok != (c.Bundle.Writes != nil) || (!ok && why == "") || (ok && b.Connector != c.Name) {
			t.Errorf("%s: PDBundleOf %q ok %v, reason %q", c.Name, b.Connector, ok, why)
		}
		if c.Bundle.Writes != nil && c.Bundle.Writes.Connector != "" {
			t.Errorf("%s: bundle names %q: the table's name is the connector's", c.Name, c.Bundle.Writes.Connector)
		}
	}
	added := Connector{Name: "NewConnector", Spans: []ConnectorSpan{connSpan("0.30.0?", "")}, Source: "#1"}
	if miss := connectorPartsMissing(added); len(miss) != 2 {
		t.Errorf("a connector without hand-off and bundle parts: missing %v, want both", miss)
	}
	added.Handoff, added.Bundle = handoffNotRead, bundleNotRead
	if miss := connectorPartsMissing(added); len(miss) != 0 {
		t.Errorf("a connector marked not read: missing %v", miss)
	}
}
