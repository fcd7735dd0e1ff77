package validate

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkPDState: a model with state layers (Mamba-2, Gated DeltaNet, KDA)
// needs the connector to move each request's state beside its attention
// KV. A connector that in the release does not (NixlConnector before
// #41869 for GDN, MooncakeConnector before #46807: vllm.StateTransfer) is
// refused at the connector (SPEC127), info where the release is not known;
// under NixlConnector a pool environment that sets the conv state layout to
// anything but DS, where the release asserts DS, is refused at that
// variable (the generator writes DS otherwise, vllm.PDStateEnv).
func checkPDState(c *checker) {
	path := p("disaggregation", "connector")
	name := c.d.Disaggregation.Connector
	if c.model == nil || !c.relOK || name == "" || !c.ok(path) {
		return
	}
	conn, ok := vllm.KVConnectorNamed(name)
	if !ok {
		return // SPEC127 already
	}
	kinds := resolve.StateLayers(c.model)
	v := c.rel.Version
	for _, k := range kinds {
		have, src := vllm.StateTransfer(conn.Name, v, k)
		hint := stateHint(conn.Name, v, k)
		switch have {
		case vllm.Absent:
			c.errorf(CodePDConnector, path, hint,
				"%s has %s layers, whose per-request state the decode engine needs, and %s in vLLM %s does not move it (%s)",
				c.model.ID, k, conn.Name, c.rel, src)
		case vllm.Maybe:
			c.add(diag.Info, CodePDConnector, path, hint,
				"%s has %s layers: whether %s in vLLM %s moves their per-request state is not known (%s)",
				c.model.ID, k, conn.Name, c.rel, src)
		}
	}
	checkPDConvLayoutEnv(c, conn.Name, len(kinds) > 0)
}

// stateHint says what moves the state: NixlConnector where it does in
// the release, the change that makes the connector do it.
func stateHint(connector string, v vllm.Version, k vllm.StateLayer) string {
	var ways []string
	if have, _ := vllm.StateTransfer(vllm.NixlConnectorName, v, k); !vllm.IsNixl(connector) && have == vllm.Present {
		ways = append(ways, "connector: nixl, which moves it in vLLM "+v.String())
	}
	if fix := vllm.StateTransferFix(connector, k); fix != "" {
		ways = append(ways, fix)
	}
	if len(ways) == 0 {
		return "use a connector and release that move it"
	}
	return "use " + strings.Join(ways, ", or ")
}

// checkPDConvLayoutEnv: a pool's vllm.env (or the top level's) that sets
// vllm.SSMConvLayoutEnv to anything but DS under NixlConnector, for a model
// with state layers, in a release that asserts DS: the engines stop at
// start-up ("3-read Mamba conv transfer requires DS conv state layout").
func checkPDConvLayoutEnv(c *checker, connector string, hasState bool) {
	want, _ := vllm.PDStateEnv(connector, c.rel.Version, hasState)
	ds, ok := want[vllm.SSMConvLayoutEnv]
	if !ok {
		return
	}
	paths := [][]string{p("vllm", "env", vllm.SSMConvLayoutEnv)}
	envs := []map[string]string{c.d.VLLM.Env}
	for _, role := range spec.Roles {
		paths = append(paths, p("disaggregation", role, "vllm", "env", vllm.SSMConvLayoutEnv))
		envs = append(envs, c.d.Disaggregation.Pool(role).VLLM.Env)
	}
	for i, env := range envs {
		val, set := env[vllm.SSMConvLayoutEnv]
		if !set || strings.TrimSpace(val) == ds || !c.ok(paths[i]) {
			continue
		}
		msg := "%s=%s: NixlConnector in vLLM %s asserts %s=%s for a model with state layers (%s) and the engine stops at start-up"
		if vllm.NixlConvLayoutNeed(c.rel.Version) == vllm.Maybe {
			c.add(diag.Info, CodePDConnector, paths[i], "set it to "+ds+" or leave it to the bundle",
				msg+" (whether this release asserts it was not read)", vllm.SSMConvLayoutEnv, val, c.rel, vllm.SSMConvLayoutEnv, ds, c.model.ID)
			continue
		}
		c.errorf(CodePDConnector, paths[i], "set it to "+ds+" or leave it to the bundle, which writes it",
			msg, vllm.SSMConvLayoutEnv, val, c.rel, vllm.SSMConvLayoutEnv, ds, c.model.ID)
	}
}
