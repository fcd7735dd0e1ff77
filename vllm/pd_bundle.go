package vllm

import (
	"fmt"
	"strconv"
	"strings"
)

// What vlaunch writes for a prefill/decode connector: the connectors whose
// start-up needs were read in vLLM's source and that a maintained router
// (vllm-project/router, or llm-d's for the NIXL family) pairs with. The
// generator (generator/pd.go) and validate (SPEC127) both read the
// connector table's Bundle parts (connector_table.go) through PDBundleOf,
// so validate accepts exactly what the generator writes.

// PDBundle is one connector vlaunch writes bundles for.
type PDBundle struct {
	// Connector is the registry name (PDBundleOf fills it from the table).
	Connector string
	// Since is the first release vlaunch writes the connector for (its
	// registry span aside: the connector's start-up protocol must be the
	// one the router speaks). SinceSource pins it.
	Since       Version
	SinceSource string
	// NIXLSideChannel: the engines take VLLM_NIXL_SIDE_CHANNEL_HOST and
	// VLLM_NIXL_SIDE_CHANNEL_PORT (NIXL's handshake) and UCX_* variables.
	NIXLSideChannel bool
	// RouterKVConnector is vllm-router's --kv-connector value; "" leaves
	// the flag out (its default, nixl: vllm-project/router@03e9af5c:src/main.rs).
	RouterKVConnector string
	// BootstrapPortEnv is the prefill engines' bootstrap server port
	// variable ("" none) and BootstrapPortDefault its default.
	BootstrapPortEnv     string
	BootstrapPortDefault int
	// Module is the Python module the connector imports at start-up
	// (what preflight imports), Package the pip package that provides it.
	Module, Package string
	// LLMD: llm-d's routing sidecar pairs with it (its NIXL protocol,
	// --kv-connector=nixlv2: kv_transfer_params from the prefill response
	// handed to the decode request). NixlPushConnector answers with the
	// same keys plus transfer_mode, but whether the sidecar hands them on
	// unchanged was not read: false.
	LLMD bool
	// Source cites what the connector needs to start.
	Source string
}

// MooncakeBootstrapPortEnv is MooncakeConnector's bootstrap server port.
const MooncakeBootstrapPortEnv = "VLLM_MOONCAKE_BOOTSTRAP_PORT"

// BootstrapPort is the bootstrap server port of the instance in slot on
// its node (0: the node's first; instances sharing a host each need their
// own, srcMooncakeNeeds: "unique per instance on a host"): the default
// plus the slot, or the pool's own value when its vllm.env sets the
// variable (env; the generator keeps the spec's variable, so every
// instance then takes that one port). 0 for a connector without a
// bootstrap server. The generator (env and router arguments), validate's
// port check (resolve.PortProblems, SPEC129) and preflight's ports.free
// all read this.
func (b PDBundle) BootstrapPort(env map[string]string, slot int) int {
	if b.BootstrapPortEnv == "" {
		return 0
	}
	if v, err := strconv.Atoi(strings.TrimSpace(env[b.BootstrapPortEnv])); err == nil && v > 0 && v < 65536 {
		return v
	}
	return b.BootstrapPortDefault + slot
}

// ConnectorBundle is a connector's bundle part of the connector table:
// exactly one of Writes (the bundle vlaunch writes), Refused (why it
// writes none) and NotRead (vlaunch has not read what the connector needs
// to start).
type ConnectorBundle struct {
	Writes  *PDBundle
	Refused string
	NotRead bool
}

// bundleNotRead: a connector whose start-up needs vlaunch has not read.
var bundleNotRead = ConnectorBundle{NotRead: true}

// writes is the bundle part of a connector vlaunch writes bundles for.
func writes(b PDBundle) ConnectorBundle { return ConnectorBundle{Writes: &b} }

// refused is the bundle part of a connector vlaunch writes no bundle for.
func refused(why string) ConnectorBundle { return ConnectorBundle{Refused: why} }

// notReadReason is PDBundleOf's reason for a connector whose start-up
// needs vlaunch has not read (or that no release registers).
func notReadReason(name string) string {
	return "vlaunch has not read what " + name + " needs to start, so it writes no bundle for it"
}

// PDBundleOf is the bundle vlaunch writes for connector name (a registry
// name, KVConnectorNamed's spelling) in release v. ok false: reason says
// what vlaunch lacks (v zero: any release; a connector written only from
// a later release says from which).
func PDBundleOf(name string, v Version) (PDBundle, bool, string) {
	c, found := KVConnectorNamed(name)
	switch {
	case !found:
		return PDBundle{}, false, notReadReason(name)
	case c.Bundle.NotRead:
		return PDBundle{}, false, notReadReason(c.Name)
	case c.Bundle.Writes == nil:
		return PDBundle{}, false, c.Bundle.Refused
	}
	b := *c.Bundle.Writes
	b.Connector = c.Name
	if !v.IsZero() && v.Less(b.Since) {
		return b, false, fmt.Sprintf("vlaunch writes %s bundles from vLLM %s (%s)", b.Connector, b.Since, b.SinceSource)
	}
	return b, true, ""
}

// PDBundleConnectors lists the connectors vlaunch writes bundles for: the
// NIXL ones first (vlaunch's default and its family), then the others, each
// group in the table's order.
func PDBundleConnectors() []string {
	var nixl, other []string
	for _, c := range connectorTable {
		switch b := c.Bundle.Writes; {
		case b == nil:
		case b.NIXLSideChannel:
			nixl = append(nixl, c.Name)
		default:
			other = append(other, c.Name)
		}
	}
	return append(nixl, other...)
}
