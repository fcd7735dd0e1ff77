package lint

import (
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkKVTransferConfig reports a --kv-transfer-config vLLM refuses at
// start: a connector without kv_role (in the release's own words,
// vllm.KVRoleMissingMessage: "Please specify kv_disagg_role when
// kv_connector is set" through 0.11.0, "kv_role" from 0.11.1;
// KVTransferConfig.__post_init__; failure report F16) or a role
// outside those three ("Unsupported kv_role"); and, as a note, a Dynamo
// prefill/decode worker without one (Dynamo's vllm-runtime >= 1.0.0rc5 no
// longer defaults the connector: the prefill worker crash-loops with a
// ValueError, ai-dynamo/aiconfigurator#519, ai-dynamo/dynamo#6554) (VL132).
func checkKVTransferConfig(p *pass) {
	for _, s := range p.Servers {
		k := s.KV()
		if !k.Given {
			checkDynamoConnector(p, s)
			continue
		}
		if !k.Parsed {
			continue // not JSON: VL103
		}
		_, hasRole := k.Keys["kv_role"]
		if k.Connector != "" && !hasRole {
			msg, sure := vllm.KVRoleMissingMessage(s.Rel.Version)
			wording := ""
			if !sure {
				wording = ", wording not read at this release's tag"
			}
			p.ReportAt(s.Inv, k.pos("kv_connector"), `add "kv_role": "kv_producer" on prefill, "kv_consumer" on decode ("kv_both" when the proxy decides, as NixlConnector does)`,
				"--kv-transfer-config names kv_connector %s without kv_role: vLLM %s refuses to start (%q%s)", k.Connector, s.Rel, msg, wording)
		}
		if hasRole && k.Role != "" && !strings.Contains(k.Role, "$") && !oneOf(k.Role, vllm.KVRoles) {
			p.ReportAt(s.Inv, k.pos("kv_role"), "kv_role is one of kv_producer, kv_consumer or kv_both",
				"kv_role %q is not a role vLLM accepts (\"Unsupported kv_role\")", k.Role)
		}
		checkKVTransferKeys(p, s, k)
		if hasRole && k.Connector == "" && k.Keys["kv_connector_module_path"].Raw == nil && s.KV().Known {
			if _, ok := k.Keys["kv_connector"]; !ok {
				p.ReportAtSeverity(s.Inv, k.pos("kv_role"), diag.Warning, `name the connector ("kv_connector": "NixlConnector", ...)`,
					"--kv-transfer-config gives kv_role %s but no kv_connector: no KV is transferred", k.Role)
			}
		}
	}
}

// checkKVTransferKeys reports a --kv-transfer-config key that is not a
// KVTransferConfig field of the server's release (vllm.KVTransferFields,
// read at each tag 0.6.5-0.24.0): an error where the release's argument
// parsing refuses it (0.9.0: a TypeError from the stdlib dataclass; 0.16.0
// on: pydantic's extra="forbid"), a warning where pydantic's default
// extra='ignore' drops it silently (0.6.5-0.8.5, 0.9.1-0.15.1), a note
// for a release after the last one read (QA left 39 #3).
func checkKVTransferKeys(p *pass, s *server, k kvTransfer) {
	fields, effect, src, ok := vllm.KVTransferFields(s.Rel.Version)
	last := vllm.KVTransferFieldsLastRead()
	if !ok && !s.Rel.Version.Less(last) {
		fields, _, src, _ = vllm.KVTransferFields(last)
	} else if !ok {
		return // before --kv-transfer-config, or a release not read
	}
	names := make([]string, 0, len(k.Keys))
	for name := range k.Keys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if oneOf(name, fields) {
			continue
		}
		hint := "KVTransferConfig's fields are " + strings.Join(fields, ", ") + "; a connector's own settings go in kv_connector_extra_config"
		if since := vllm.KVTransferFieldSince(name); since != "" {
			hint = name + " is a KVTransferConfig field from vLLM " + since + " on; " + hint
		} else if c := nearestKVField(name, fields); c != "" {
			hint = "did you mean " + c + "? " + hint
		}
		switch {
		case !ok:
			p.ReportAtSeverity(s.Inv, k.pos(name), diag.Info, hint,
				"--kv-transfer-config key %q is not a KVTransferConfig field in vLLM %s, the last release read (%s); vLLM %s was not read: from 0.16.0 an unknown key makes vllm serve exit",
				name, last, src, s.Rel)
		case effect == vllm.KVKeyRefused:
			p.ReportVersioned(s, k.pos(name), hint,
				"--kv-transfer-config key %q is not a KVTransferConfig field in vLLM %s: argument parsing refuses it and vllm serve exits (%s)", name, s.Rel, src)
		default:
			p.ReportAtSeverity(s.Inv, k.pos(name), diag.Warning, hint,
				"--kv-transfer-config key %q is not a KVTransferConfig field in vLLM %s, which drops it silently: the setting has no effect (%s)", name, s.Rel, src)
		}
	}
}

// nearestKVField returns a field one or two edits from name, or "".
func nearestKVField(name string, fields []string) string {
	for _, f := range fields {
		if catalog.Levenshtein(name, f) <= 2 {
			return f
		}
	}
	return ""
}

// checkDynamoConnector reports a Dynamo prefill/decode worker that passes
// no --kv-transfer-config. Dynamo's vllm-runtime >= 1.0.0rc5 no longer
// defaults the connector (F13): a prefill worker then fails with a
// ValueError, a note since older Dynamo chose NIXL itself and a script does
// not show which runtime runs it. A decode worker is not refused
// (components/src/dynamo/vllm/args.py, update_dynamo_config_with_engine,
// checks the prefill role only) and its engine, with no connector, computes
// every prompt again while the prefill pool's KV is never read
// (vllm.Release.NoConnectorRecomputes): a published GKE B200 run did
// exactly that (published/pd.yaml, dynamo-gke-b200-llama70b), a warning.
func checkDynamoConnector(p *pass, s *server) {
	role := wrapperRole(s)
	if s.Inv.Frontend != "dynamo.vllm" || role == "" || s.Flag("connector") != nil {
		return
	}
	fix := `add --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}' (ai-dynamo/aiconfigurator#519)`
	if role == "decode" {
		p.ReportAtSeverity(s.Inv, s.Inv.Pos, diag.Warning, fix,
			"Dynamo decode worker without --kv-transfer-config: from vllm-runtime 1.0.0rc5 on Dynamo adds no connector and starts it anyway; its engine then reads no KV from the prefill workers and computes every prompt again (%s)", vllm.NoConnectorSource())
		return
	}
	p.ReportAtSeverity(s.Inv, s.Inv.Pos, diag.Info, fix,
		"Dynamo %s worker without --kv-transfer-config: from vllm-runtime 1.0.0rc5 on Dynamo no longer defaults the connector and the worker fails with a ValueError", role)
}

// oneOf reports whether s is in list.
func oneOf(s string, list []string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// checkKVConnector reports a kv_connector the server's release does not
// register: before its first release or after its removal (an error when
// the boundary is confirmed, a note when it is inferred from a merge date),
// or a name no release registers, unless kv_connector_module_path loads it
// or the platform is a plugin's, which registers its own (vllm-ascend's
// MooncakeConnectorV1) (VL133). MultiConnector's children are checked too.
func checkKVConnector(p *pass) {
	for _, s := range p.Servers {
		k := s.KV()
		if k.Connector == "" || strings.Contains(k.Connector, "$") {
			continue
		}
		if _, ok := k.Keys["kv_connector_module_path"]; ok {
			continue
		}
		checkConnectorName(p, s, k.Connector, k.pos("kv_connector"))
		if k.Connector == "MultiConnector" {
			for _, c := range multiChildren(k) {
				checkConnectorName(p, s, c, k.pos("kv_connector_extra_config"))
			}
		}
	}
}

// checkConnectorName checks one connector name against the server's release.
func checkConnectorName(p *pass, s *server, name string, at launch.Pos) {
	c, ok := vllm.KVConnector(name)
	plugin := s.Inv.Platform != "" && s.Inv.Platform != launch.PlatformCUDA
	if !ok {
		if !plugin {
			p.ReportAtSeverity(s.Inv, at, diag.Warning, "use a registered name (NixlConnector, LMCacheConnectorV1, MooncakeConnector, MultiConnector, ...) or give kv_connector_module_path",
				"kv_connector %s is not a connector vLLM registers in any release lint knows", name)
		}
		return
	}
	in := c.In(s.Rel.Version)
	if in == vllm.Present {
		checkConnectorEngine(p, s, c, at)
		return
	}
	hint := c.Name + ": " + c.Citation()
	if in == vllm.Maybe {
		p.ReportAtSeverity(s.Inv, at, diag.Info, hint,
			"kv_connector %s is probably not registered in vLLM %s (its first or last release is inferred from a merge date, not confirmed against a tag)", name, s.Rel)
		return
	}
	p.ReportVersioned(s, at, hint, "kv_connector %s is not registered in vLLM %s: the engine refuses the connector at start", name, s.Rel)
}

// checkConnectorEngine reports a connector of the other engine: a V0 name
// (PyNcclConnector, LMCacheConnector, the V0 Mooncake connectors) on the
// V1 engine, the default from 0.8.0, fails in create_connector_v1 with
// "assert issubclass(connector_cls, KVConnectorBase_V1)" (a report in the
// thread of vLLM PR #15960, 2025-04-28: LMCacheConnector on the V1 engine);
// a V1 name on the V0 engine (VLLM_USE_V1=0) is not in its factory.
func checkConnectorEngine(p *pass, s *server, c vllm.Connector, at launch.Pos) {
	v1, sure := runsV1(s)
	v0 := c.V0In(s.Rel.Version)
	if v1 == !v0 {
		return
	}
	engine, hint := "V1", "on the V1 engine use its connectors (LMCacheConnectorV1, NixlConnector, P2pNcclConnector, ...), or run the V0 engine with VLLM_USE_V1=0 on releases before 0.11"
	if !v1 {
		engine, hint = "V0", "the V0 engine (VLLM_USE_V1=0) has only the V0 connectors (PyNcclConnector, LMCacheConnector, MooncakeConnector); use the V1 engine"
	}
	if !sure {
		p.ReportAtSeverity(s.Inv, at, diag.Info, hint, "kv_connector %s is a connector of the other engine than %s, which vLLM %s probably runs", c.Name, engine, s.Rel)
		return
	}
	p.ReportVersioned(s, at, hint, "kv_connector %s is not a %s-engine connector, and vLLM %s runs the %s engine here: the connector factory refuses it at start", c.Name, engine, s.Rel, engine)
}

// runsV1 says whether the server runs the V1 engine (VLLM_USE_V1, else the
// release's default) and whether that is certain.
func runsV1(s *server) (v1, sure bool) {
	era := s.Rel.EngineEra()
	if e, ok := s.Inv.LookupEnv("VLLM_USE_V1"); ok && e.Value.Known {
		switch strings.TrimSpace(e.Value.Text) {
		case "0":
			return era.V0 == vllm.Absent, era.V0 != vllm.Maybe
		case "1":
			return era.V1 != vllm.Absent, era.V1 == vllm.Present
		}
	}
	if era.V1Default == vllm.Absent {
		return false, true
	}
	return true, era.V1Default == vllm.Present
}

// multiChildren lists the kv_connector names of MultiConnector's
// kv_connector_extra_config.connectors.
func multiChildren(k kvTransfer) []string {
	extra, _ := k.Keys["kv_connector_extra_config"].Raw.(map[string]interface{})
	list, _ := extra["connectors"].([]interface{})
	var out []string
	for _, c := range list {
		if m, ok := c.(map[string]interface{}); ok {
			if n, ok := m["kv_connector"].(string); ok && n != "" && !strings.Contains(n, "$") {
				if _, mod := m["kv_connector_module_path"]; !mod {
					out = append(out, n)
				}
			}
		}
	}
	return out
}
