package generator

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// pdBundleFor is the connector's bundle (vllm.PDBundleOf, the table
// validate's SPEC127 reads) for the runtime the bundle is generated for:
// validate refused the rest for the spec's runtime; --runtime is checked
// here again.
func pdBundleFor(r *resolve.Deployment, runtime string) (vllm.PDBundle, diag.Diagnostics) {
	b, ok, why := vllm.PDBundleOf(r.PD.Connector.Name, r.Release.Version)
	if !ok {
		return b, diag.Diagnostics{gdiag(r.Spec, CodeRuntime, diag.Error, "disaggregation.connector",
			fmt.Sprintf("vlaunch writes no prefill/decode bundle for %s in vLLM %s: %s", r.PD.Connector.Name, r.Release.Version, why),
			"use connector: nixl")}
	}
	if b.BootstrapPortEnv != "" && runtime == "kubernetes" {
		return b, diag.Diagnostics{gdiag(r.Spec, CodeRuntime, diag.Error, "disaggregation.connector",
			fmt.Sprintf("vlaunch writes %s bundles for bare metal and Docker only: vllm-router queries each prefill URL's bootstrap server for its engine ids, and a pool's Service answers for any of its instances", b.Connector),
			"generate for bare or docker")}
	}
	return b, nil
}

// mooncakeExtraConfig is MooncakeConnector's kv_connector_extra_config
// for a pool (every key optional: vllm.srcMooncakeNeeds):
// mooncake_protocol "rdma" on InfiniBand and RoCE, "tcp" on Ethernet
// (the spec's hardware.network.inter_node.kind; vLLM's default is rdma,
// which fails without an RDMA NIC). No device_name: the connector never
// reads one — it calls engine.initialize(hostname, "P2PHANDSHAKE",
// protocol, "") at v0.14.0, v0.16.0, v0.18.0, v0.20.0, v0.22.1 and v0.24.0
// (mooncake_connector.py), and Mooncake discovers every RDMA device for an
// empty name; writing the spec's rdma_devices there made the user believe
// the NICs were pinned (qa44b F10). The README says so.
func mooncakeExtraConfig(fabric string, _ []spec.Node) map[string]string {
	proto := "tcp"
	if fabric == "infiniband" || fabric == "roce" {
		proto = "rdma"
	}
	return map[string]string{"mooncake_protocol": proto}
}

// connectorKVTransferConfig is the pool's --kv-transfer-config: resolve's
// (kv_connector and kv_role) for the NIXL family, unchanged; for
// MooncakeConnector with kv_connector_extra_config (mooncakeExtraConfig).
func connectorKVTransferConfig(b vllm.PDBundle, r *resolve.Deployment, role resolve.Role) string {
	if b.BootstrapPortEnv == "" {
		return role.KVTransferConfig
	}
	out, _ := json.Marshal(struct {
		Connector string            `json:"kv_connector"`
		Role      string            `json:"kv_role"`
		Extra     map[string]string `json:"kv_connector_extra_config"`
	}{b.Connector, role.KVRole, mooncakeExtraConfig(r.Spec.Hardware.Network.InterNode.Kind, role.Deployment.Nodes)})
	return string(out)
}

// bootstrapPort is the bootstrap server port of the instance n runs in
// (vllm.PDBundle.BootstrapPort, the rule validate and preflight check): the
// default plus the instance's slot on its node, or the pool's own
// vllm.env value; an instance's headless nodes take its first node's
// (slot 0).
func bootstrapPort(b vllm.PDBundle, role resolve.Role, n *NodePlan) int {
	return b.BootstrapPort(role.Deployment.Engine.Env, n.Slot)
}

// addBootstrapEnv gives every node of the prefill pool the bootstrap
// server port (decode engines run none).
func addBootstrapEnv(p *Plan, b vllm.PDBundle, role resolve.Role) {
	if role.Name != spec.RolePrefill {
		return
	}
	for i := range p.Nodes {
		n := &p.Nodes[i]
		n.Env = insertPDEnv(n.Env, []EnvVar{{Name: b.BootstrapPortEnv, Value: strconv.Itoa(bootstrapPort(b, role, n)),
			Why: "the Mooncake bootstrap server of this prefill instance (its global rank 0 serves it; headless nodes name the same port); the router queries it"}})
	}
}

// bootstrapPorts are the bootstrap ports of the pool's instances, in
// endpoints' order (nil for a pool without a bootstrap server).
func bootstrapPorts(b vllm.PDBundle, p *Plan, role resolve.Role) []int {
	if b.BootstrapPortEnv == "" || role.Name != spec.RolePrefill {
		return nil
	}
	heads := p.Primaries
	if len(heads) == 0 {
		heads = []*NodePlan{p.Primary}
	}
	out := make([]int, len(heads))
	for i, n := range heads {
		out[i] = bootstrapPort(b, role, n)
	}
	return out
}
