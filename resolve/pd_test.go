package resolve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

const pdExample = "deepseek-v3-pd-32xh20.yaml"

// TestDisaggregatedRoles: each pool is the colocated resolve of its own
// view (nodes, layout, overrides), with its kv_role and a
// --kv-transfer-config vLLM's KVTransferConfig reads.
func TestDisaggregatedRoles(t *testing.T) {
	r := mustResolve(t, example(t, pdExample))
	if r.PD == nil || len(r.PD.Roles) != 2 {
		t.Fatalf("PD = %+v", r.PD)
	}
	for i, want := range []struct{ name, kvRole, all2all, node0 string }{
		{spec.RolePrefill, "kv_producer", "deepep_high_throughput", "node0"},
		{spec.RoleDecode, "kv_consumer", "deepep_low_latency", "node2"},
	} {
		role := r.PD.Roles[i]
		d := role.Deployment
		if role.Name != want.name || role.KVRole != want.kvRole {
			t.Errorf("role %d: %s %s, want %s %s", i, role.Name, role.KVRole, want.name, want.kvRole)
		}
		if d.Layout.TP != 1 || d.Layout.DP != 16 || !d.Layout.EP || d.Layout.ReplicaCount() != 1 || len(d.Nodes) != 2 || d.Nodes[0].Name != want.node0 {
			t.Errorf("%s: layout %+v on %d nodes starting %s", role.Name, d.Layout, len(d.Nodes), d.Nodes[0].Name)
		}
		if d.Engine.All2All.Value != want.all2all || d.Engine.All2All.From != SourceSpec {
			t.Errorf("%s: all2all %+v, want %s from the spec", role.Name, d.Engine.All2All, want.all2all)
		}
		var kv map[string]string
		if err := json.Unmarshal([]byte(role.KVTransferConfig), &kv); err != nil || kv["kv_connector"] != "NixlConnector" || kv["kv_role"] != want.kvRole {
			t.Errorf("%s: --kv-transfer-config %s (%v)", role.Name, role.KVTransferConfig, err)
		}
	}
	if r.PD.Router.Node.Name != "node0" || r.PD.Router.Port != 8000 {
		t.Errorf("router %+v", r.PD.Router)
	}
	if pre, dec := r.PD.Roles[0].Deployment.Engine, r.PD.Roles[1].Deployment.Engine; pre.MaxNumBatchedTokens.Value != 16384 || dec.MaxNumSeqs.Value != 256 {
		t.Errorf("pool overrides lost: prefill batched tokens %d, decode max seqs %d", pre.MaxNumBatchedTokens.Value, dec.MaxNumSeqs.Value)
	}
}

// TestSideChannelsDisjoint: every engine's side-channel port is unique on
// its host and meets none of the host's other ports; DP ranks 8-15 of a
// pool sit on its second node (0.11.0: base 5557, one port per worker).
func TestSideChannelsDisjoint(t *testing.T) {
	r := mustResolve(t, example(t, pdExample))
	if probs := r.PD.PortProblems("bare"); len(probs) != 0 {
		t.Fatalf("port problems: %+v", probs)
	}
	for _, role := range r.PD.Roles {
		if len(role.SideChannels) != 2 {
			t.Fatalf("%s: %d side channels", role.Name, len(role.SideChannels))
		}
		second := role.SideChannels[1]
		if second.BasePort != 5557 || len(second.Ports) != 8 || second.Ports[0] != 5565 || second.Host != second.Node.Address {
			t.Errorf("%s: second node's side channel %+v", role.Name, second)
		}
	}
}

// TestPortProblemsFindTheRouter: a router on an engine's API port is the
// collision PortProblems reports.
func TestPortProblemsFindTheRouter(t *testing.T) {
	d := example(t, pdExample)
	d.VLLM.Port = d.Disaggregation.Router.Port
	probs := mustResolve(t, d).PD.PortProblems("bare")
	if len(probs) != 1 || probs[0].Node != "node0" || probs[0].Port != 8000 || probs[0].Other != "the router's port" {
		t.Errorf("problems %+v, want the router against node0's API port", probs)
	}
}

// TestRouterOnHeadlessNode: a headless node binds no API port, so the
// router may take vllm.port there.
func TestRouterOnHeadlessNode(t *testing.T) {
	d := example(t, pdExample)
	d.VLLM.Port = d.Disaggregation.Router.Port
	d.Disaggregation.Router.Node = "node1"
	if probs := mustResolve(t, d).PD.PortProblems("bare"); len(probs) != 0 {
		t.Errorf("problems %+v on a headless node", probs)
	}
}

// TestPortProblemsByRuntime: on Kubernetes an instance smaller than a node
// is a pod of its own on the pod network (its own IP) binding the slot-0
// instance's ports, so instances sharing a node never clash, even with one
// side-channel base for all (which bare metal reports); a clash inside one
// pod still counts, an instance of whole nodes (host networking) still
// shares its node's ports, and the vLLM router (a Deployment on the pod
// network) claims no node's port.
func TestPortProblemsByRuntime(t *testing.T) {
	const subnode = "gpt-oss-120b-pd-2x8h100.yaml" // 8 × TP1 prefill on node0, 2 × TP4 decode on node1
	oneBase := func(d *spec.Deployment) {
		d.Disaggregation.Decode.VLLM.Env = map[string]string{"VLLM_NIXL_SIDE_CHANNEL_PORT": "5700"}
	}
	for _, tc := range []struct {
		name    string
		example string
		edit    func(*spec.Deployment)
		bare    int // problems on bare metal
		kube    int // and on Kubernetes
	}{
		{"sub-node pools as generated", subnode, nil, 0, 0},
		{"one side-channel base for two decode instances on a node", subnode, oneBase, 1, 0},
		{"a decode engine's port on its own side-channel base", subnode, func(d *spec.Deployment) {
			d.VLLM.Port = 5600 // the 0.22.1 base: every pod's API port meets its first side-channel port
		}, 10, 2}, // bare: each instance's own port; Kubernetes: once per pool's node (its pods are alike)
		{"the router on node0's API port", pdExample, func(d *spec.Deployment) { d.VLLM.Port = d.Disaggregation.Router.Port }, 1, 0},
		{"whole-node pools: the DP RPC port on a side-channel port", pdExample, func(d *spec.Deployment) { d.VLLM.RPCPort = 5560 }, 2, 2}, // each pool's first node
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := example(t, tc.example)
			if tc.edit != nil {
				tc.edit(d)
			}
			r := mustResolve(t, d)
			if got := r.PD.PortProblems("bare"); len(got) != tc.bare {
				t.Errorf("bare: %d problems %+v, want %d", len(got), got, tc.bare)
			}
			if got := r.PD.PortProblems("kubernetes"); len(got) != tc.kube {
				t.Errorf("kubernetes: %d problems %+v, want %d", len(got), got, tc.kube)
			}
		})
	}
}

// TestPoolDCPOverride: a pool's vllm.decode_context_parallel_size overrides
// the top-level one for that pool only (spec.PoolVLLM), and the pool's value
// says where it was written; without either, vLLM's default 1.
func TestPoolDCPOverride(t *testing.T) {
	ip := func(n int) *int { return &n }
	for _, tc := range []struct {
		name           string
		top, pre, dec  *int
		wantPre, wantD int
		fromPre, fromD Source
		poolWhyD       bool
	}{
		{"unset", nil, nil, nil, 1, 1, SourceRelease, SourceRelease, false},
		{"decode pool only", nil, nil, ip(8), 1, 8, SourceRelease, SourceSpec, true},
		{"top level applies to both", ip(2), nil, nil, 2, 2, SourceSpec, SourceSpec, false},
		{"decode overrides the top level", ip(2), nil, ip(8), 2, 8, SourceSpec, SourceSpec, true},
		{"prefill back to 1", ip(8), ip(1), nil, 1, 8, SourceSpec, SourceSpec, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := example(t, pdExample)
			d.VLLM.DecodeContextParallelSize = tc.top
			d.Disaggregation.Prefill.VLLM.DecodeContextParallelSize = tc.pre
			d.Disaggregation.Decode.VLLM.DecodeContextParallelSize = tc.dec
			r := mustResolve(t, d)
			pre, dec := r.PD.Roles[0].Deployment.Engine.DCP, r.PD.Roles[1].Deployment.Engine.DCP
			if pre.Value != tc.wantPre || pre.From != tc.fromPre || dec.Value != tc.wantD || dec.From != tc.fromD {
				t.Errorf("prefill %+v, decode %+v; want %d (%v), %d (%v)", pre, dec, tc.wantPre, tc.fromPre, tc.wantD, tc.fromD)
			}
			if want := PoolOverrideWhy(spec.RoleDecode, "decode_context_parallel_size"); (dec.Why == want) != tc.poolWhyD {
				t.Errorf("decode Why %q, pool override %v", dec.Why, tc.poolWhyD)
			}
			if tc.pre != nil && pre.Why != PoolOverrideWhy(spec.RolePrefill, "decode_context_parallel_size") {
				t.Errorf("prefill Why %q", pre.Why)
			}
		})
	}
}

// TestMooncakeListeners: MooncakeConnector opens no NIXL side channel, and
// each prefill instance's first node runs its bootstrap server on
// vllm.PDBundle.BootstrapPort (8998 + its slot on the node, the port the
// generator writes: generate_pd_mooncake.txtar's 8998 and 9005); decode
// runs none. vllm.port 8998 then meets the slot-0 instance's server (and
// each later instance's API port the next one's: 8998+k both), while
// 0.22.1's NIXL base 5600 is free.
func TestMooncakeListeners(t *testing.T) {
	const subnode = "gpt-oss-120b-pd-2x8h100.yaml" // 8 × TP1 prefill on node0, 2 × TP4 decode on node1
	mc := func(port int) *Deployment {
		d := example(t, subnode)
		d.Disaggregation.Connector = "MooncakeConnector"
		if port > 0 {
			d.VLLM.Port = port
		}
		return mustResolve(t, d)
	}
	r := mc(0)
	pre, dec := r.PD.Roles[0], r.PD.Roles[1]
	if len(pre.SideChannels) != 8 {
		t.Fatalf("prefill: %d listeners, want 8", len(pre.SideChannels))
	}
	for k, sc := range pre.SideChannels {
		if sc.Bootstrap != 8998+k || sc.Slot != k || len(sc.Ports) != 0 {
			t.Errorf("prefill slot %d: bootstrap %d, NIXL ports %v; want %d and none", k, sc.Bootstrap, sc.Ports, 8998+k)
		}
	}
	for _, sc := range dec.SideChannels {
		if sc.Bootstrap != 0 || len(sc.Ports) != 0 {
			t.Errorf("decode: bootstrap %d, NIXL ports %v; want none", sc.Bootstrap, sc.Ports)
		}
	}
	if probs := r.PD.PortProblems("bare"); len(probs) != 0 {
		t.Errorf("as generated: %+v", probs)
	}
	probs := mc(8998).PD.PortProblems("bare")
	if len(probs) != 8 || probs[0].Node != "node0" || probs[0].Port != 8998 || !strings.Contains(probs[0].What, "bootstrap") {
		t.Errorf("vllm.port 8998: %d problems %+v, want node0's 8998-9005", len(probs), probs)
	}
	if probs := mc(5600).PD.PortProblems("bare"); len(probs) != 0 {
		t.Errorf("vllm.port 5600 (a NIXL base, unused by Mooncake): %+v", probs)
	}
}
