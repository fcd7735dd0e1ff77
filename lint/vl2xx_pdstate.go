package lint

import (
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkPDState (VL233) checks a P/D engine serving a model with state
// layers (Mamba-2, Gated DeltaNet, KDA: resolve.StateLayers of the served
// model's family) against the facts in vllm/facts_pd_state.go:
//
//   - the connector in the release does not move that state
//     (vllm.StateTransfer: NixlConnector before 0.22.0 for GDN,
//     MooncakeConnector before 0.25.0): an error at kv_connector, a
//     warning where the release is not known;
//   - a NIXL engine without VLLM_SSM_CONV_STATE_LAYOUT=DS where the
//     release asserts it (vllm.PDStateEnv): the worker stops at start-up
//     ("3-read Mamba conv transfer requires DS conv state layout"); an
//     error, a warning for a release not read (0.19.1).
func checkPDState(p *pass) {
	for _, s := range p.Servers {
		k := s.KV()
		if !k.Given || !pdServer(s) || s.Rel.Version.Less(vllm.PDStateSince()) {
			continue
		}
		m := stateModel(p, s)
		kinds := resolve.StateLayers(m)
		if len(kinds) == 0 {
			continue
		}
		names := append([]string{k.Connector}, multiChildren(k)...)
		for _, name := range names {
			c, ok := vllm.KVConnector(name)
			if !ok || c.Offload {
				continue
			}
			for _, kind := range kinds {
				have, src := vllm.StateTransfer(c.Name, s.Rel.Version, kind)
				sev := map[vllm.Presence]diag.Severity{vllm.Absent: diag.Error, vllm.Maybe: diag.Warning}[have]
				if have == vllm.Present || (have == vllm.Maybe && !vllm.IsNixl(c.Name) && c.Name != "MooncakeConnector") {
					continue // a connector whose state handling nobody read: no finding
				}
				fix := vllm.StateTransferFix(c.Name, kind)
				if fix == "" {
					fix = "a connector and release that move it"
				}
				msg := "%s has %s layers and %s in vLLM %s does not move their per-request state: the decode engine cannot continue the prompt (%s)"
				if have == vllm.Maybe {
					msg = "%s has %s layers: whether %s in vLLM %s moves their per-request state is not known (%s)"
				}
				p.ReportAtSeverity(s.Inv, k.pos("kv_connector"), sev, "use "+fix, msg, m.ID, kind, c.Name, s.Rel, src)
			}
		}
		checkConvLayoutEnv(p, s, names, m.ID)
	}
}

// stateModel is the served model: the catalog's family of it, else, with
// a --spec, the spec's model (its config.json; the launch serves it).
func stateModel(p *pass, s *server) *catalog.Model {
	if m := familyModel(s); m != nil {
		return m
	}
	if p.Spec == nil {
		return nil
	}
	m, err := resolve.Model(p.Spec)
	if err != nil {
		return nil
	}
	return m
}

// checkConvLayoutEnv: the DS conv layout NixlConnector asserts in the
// engine's release (vllm.PDStateEnv), missing or set otherwise.
func checkConvLayoutEnv(p *pass, s *server, connectors []string, model string) {
	nixl := ""
	for _, c := range connectors {
		if vllm.IsNixl(c) {
			nixl = c
		}
	}
	want, _ := vllm.PDStateEnv(nixl, s.Rel.Version, nixl != "")
	ds, ok := want[vllm.SSMConvLayoutEnv]
	if !ok {
		return
	}
	sev := diag.Error
	unread := ""
	if vllm.NixlConvLayoutNeed(s.Rel.Version) == vllm.Maybe {
		sev, unread = diag.Warning, " (whether this release asserts it was not read)"
	}
	hint := "export " + vllm.SSMConvLayoutEnv + "=" + ds + " for every prefill and decode engine"
	e, set := s.Inv.LookupEnv(vllm.SSMConvLayoutEnv)
	switch {
	case !set && !s.Inv.EnvOpen:
		p.ReportAtSeverity(s.Inv, s.Inv.Pos, sev, hint,
			"%s has Mamba/GDN state layers and %s in vLLM %s reads their conv state in three parts only in the DS layout: without %s=%s the worker stops at start-up (\"3-read Mamba conv transfer requires DS conv state layout\", vLLM #37635)%s",
			model, nixl, s.Rel, vllm.SSMConvLayoutEnv, ds, unread)
	case set && e.Value.Known && strings.TrimSpace(e.Value.Text) != ds:
		p.ReportAtSeverity(s.Inv, e.Value.Pos, sev, hint,
			"%s=%s: %s in vLLM %s asserts %s for a model with Mamba/GDN state layers (%s) and the worker stops at start-up (vLLM #37635)%s",
			vllm.SSMConvLayoutEnv, e.Value.Text, nixl, s.Rel, ds, model, unread)
	}
}
