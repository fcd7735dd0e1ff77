package generator

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// pdConnectorSpec is the P/D fixture with connector c in release v; a
// Mooncake pool takes prefill DP 1 (validate's SPEC127: vllm-router pins no
// prefill DP rank): two TP 8 prefill instances, one per node (into the
// decode pool's TP 1: MooncakeConnector pairs different TPs from 0.19.0,
// vllm.MooncakeTPPairing).
func pdConnectorSpec(t *testing.T, c, v string) *spec.Deployment {
	d := loadSpec(t, "pd")
	d.Disaggregation.Connector, d.VLLM.Version = c, v
	if c == "MooncakeConnector" {
		d.Disaggregation.Transport = ""
		d.Disaggregation.Prefill.Instances = 2
		d.Disaggregation.Prefill.Parallelism = spec.PoolParallelism{Tensor: 8, Pipeline: 1, Data: 1, Expert: true}
	}
	return d
}

// kvConfig parses a pool's --kv-transfer-config.
func kvConfig(t *testing.T, s string) (out struct {
	Connector string            `json:"kv_connector"`
	Role      string            `json:"kv_role"`
	Extra     map[string]string `json:"kv_connector_extra_config"`
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("--kv-transfer-config %q: %v", s, err)
	}
	return out
}

// TestPDConnectorBundles: what each connector vlaunch writes needs to
// start, in every node script and in router.sh, through validate and
// lint-clean (and shellcheck-clean when installed).
//
//   - NixlPullConnector, NixlPushConnector (0.24.0+, #35264): their scheduler
//     (nixl/base_scheduler.py) reads VLLM_NIXL_SIDE_CHANNEL_HOST/PORT as
//     NixlConnector's does and no extra config key unconditionally; push's
//     request_finished (nixl/push_scheduler.py @0316d25ab528) answers the
//     prefill leg with NixlConnector's kv_transfer_params, so vllm-router's
//     NIXL mode (no --kv-connector) forwards them.
//   - MooncakeConnector (0.16.0+, #31034): no extra config key is required
//     (docs/features/mooncake_connector_usage.md @00f4240ee645: defaults
//     num_workers 10, mooncake_protocol "rdma"); vlaunch writes
//     mooncake_protocol from the fabric (RoCE: rdma) and no device_name,
//     which the connector never reads (qa44b F10); the prefill engines get VLLM_MOONCAKE_BOOTSTRAP_PORT
//     (default 8998), no NIXL variable; vllm-router gets --kv-connector
//     mooncake and each --prefill URL's bootstrap port
//     (vllm-project/router@03e9af5c:src/main.rs split_prefill_args_from_others).
func TestPDConnectorBundles(t *testing.T) {
	for _, tc := range []struct {
		connector, version string
		nixl               bool
		router             []string
	}{
		{"NixlPullConnector", "0.24.0", true, []string{"--prefill http://192.168.1.10:8100 \\\n", "--decode http://192.168.1.12:8100 \\\n"}},
		{"NixlPushConnector", "0.24.0", true, []string{"--prefill http://192.168.1.10:8100 \\\n", "--decode http://192.168.1.12:8100 \\\n"}},
		{"MooncakeConnector", "0.19.0", false, []string{"--prefill http://192.168.1.10:8100 8998 \\\n", "--prefill http://192.168.1.11:8100 8998 \\\n",
			"--decode http://192.168.1.12:8100 \\\n", "--kv-connector mooncake \\\n"}},
	} {
		for _, rt := range []string{"bare", "docker"} {
			d := pdConnectorSpec(t, tc.connector, tc.version)
			d.Runtime.Kind = rt
			b, ds := validated(t, d, Options{Runtime: rt})
			if ds.HasErrors() || b == nil {
				t.Fatalf("%s/%s: %v", tc.connector, rt, ds)
			}
			for _, role := range b.PD.Roles {
				c := kvConfig(t, role.KVTransferConfig)
				if c.Connector != tc.connector || c.Role != map[string]string{"prefill": "kv_producer", "decode": "kv_consumer"}[role.Name] {
					t.Errorf("%s/%s %s: %s", tc.connector, rt, role.Name, role.KVTransferConfig)
				}
				if tc.nixl && c.Extra != nil {
					t.Errorf("%s: extra config %v, NixlConnector's bundle writes none", tc.connector, c.Extra)
				}
				if _, named := c.Extra["device_name"]; !tc.nixl && (c.Extra["mooncake_protocol"] != "rdma" || named) {
					t.Errorf("%s %s: extra config %v, want mooncake_protocol rdma (RoCE) and no device_name (never read)", tc.connector, role.Name, c.Extra)
				}
				for _, n := range role.Plan.ActiveNodes() {
					f := string(fileData(t, b, role.Name+"/"+n.ScriptName))
					quoted := role.KVTransferConfig
					if rt == "docker" {
						quoted = strings.ReplaceAll(quoted, "'", `'\''`)
					}
					if !strings.Contains(f, "--kv-transfer-config '"+quoted+"'") {
						t.Errorf("%s/%s %s/%s lacks %s", tc.connector, rt, role.Name, n.ScriptName, role.KVTransferConfig)
					}
					if got := strings.Contains(f, "VLLM_NIXL_SIDE_CHANNEL_HOST="); got != tc.nixl {
						t.Errorf("%s/%s %s/%s: NIXL side channel written %v", tc.connector, rt, role.Name, n.ScriptName, got)
					}
					mooncake := strings.Contains(f, "VLLM_MOONCAKE_BOOTSTRAP_PORT=8998")
					if want := !tc.nixl && role.Name == "prefill"; mooncake != want {
						t.Errorf("%s/%s %s/%s: bootstrap port written %v, want %v", tc.connector, rt, role.Name, n.ScriptName, mooncake, want)
					}
				}
			}
			if readme := string(fileData(t, b, "README.md")); !tc.nixl && !strings.Contains(readme, "Mooncake discovers every RDMA device") {
				t.Errorf("%s/%s README does not say Mooncake picks its NICs itself", tc.connector, rt)
			}
			router := string(fileData(t, b, "router.sh"))
			for _, want := range tc.router {
				if !strings.Contains(router, want) {
					t.Errorf("%s/%s router.sh lacks %q:\n%s", tc.connector, rt, want, router)
				}
			}
			if tc.nixl && strings.Contains(router, "--kv-connector") {
				t.Errorf("%s: router.sh names a --kv-connector; NIXL is vllm-router's default", tc.connector)
			}
			if got := lintBundle(t, d, b); got.HasErrors() {
				t.Errorf("%s/%s: lint: %v", tc.connector, rt, got)
			}
			if sc, err := exec.LookPath("shellcheck"); err == nil {
				for _, f := range b.Files {
					if strings.HasSuffix(f.Path, ".sh") {
						cmd := exec.Command(sc, "-")
						cmd.Stdin = strings.NewReader(string(f.Data))
						if out, err := cmd.CombinedOutput(); err != nil {
							t.Errorf("%s/%s %s: shellcheck: %v\n%s", tc.connector, rt, f.Path, err, out)
						}
					}
				}
			}
		}
	}
}

// TestMooncakeExtraConfig: mooncake_protocol follows the inter-node fabric
// (vLLM's default "rdma" needs an RDMA NIC: Ethernet gets "tcp"); no
// device_name, whatever rdma_devices the nodes list: MooncakeConnector
// passes "" to engine.initialize at v0.14.0-v0.24.0 and never reads the
// key (qa44b F10), so writing it claimed a NIC pinning that does not happen.
func TestMooncakeExtraConfig(t *testing.T) {
	node := func(devs ...string) spec.Node { return spec.Node{RDMADevices: devs} }
	for _, tc := range []struct {
		fabric string
		nodes  []spec.Node
		want   map[string]string
	}{
		{"infiniband", []spec.Node{node("mlx5_0", "mlx5_1"), node("mlx5_0", "mlx5_1")}, map[string]string{"mooncake_protocol": "rdma"}},
		{"roce", []spec.Node{node("mlx5_0"), node("mlx5_2")}, map[string]string{"mooncake_protocol": "rdma"}},
		{"roce", []spec.Node{node(), node()}, map[string]string{"mooncake_protocol": "rdma"}},
		{"ethernet", []spec.Node{node("mlx5_0")}, map[string]string{"mooncake_protocol": "tcp"}},
		{"", nil, map[string]string{"mooncake_protocol": "tcp"}},
	} {
		got := mooncakeExtraConfig(tc.fabric, tc.nodes)
		if len(got) != len(tc.want) {
			t.Errorf("%s %v: %v, want %v", tc.fabric, tc.nodes, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s %v: %v, want %v", tc.fabric, tc.nodes, got, tc.want)
			}
		}
	}
}

// TestPDConnectorRefusedOnKubernetes: generate --runtime kubernetes refuses
// a Mooncake bundle (validate refuses runtime.kind kubernetes, SPEC127):
// the router would query one Service for several instances' bootstrap
// servers.
func TestPDConnectorRefusedOnKubernetes(t *testing.T) {
	d := pdConnectorSpec(t, "MooncakeConnector", "0.16.0")
	if _, ds := gen(t, d, Options{Runtime: "kubernetes"}); !ds.HasErrors() || !strings.Contains(fmt.Sprint(ds), "bare metal and Docker only") {
		t.Errorf("kubernetes: %v", ds)
	}
	if _, ds := gen(t, pdConnectorSpec(t, "MooncakeConnector", "0.15.1"), Options{Runtime: "bare"}); !ds.HasErrors() || !strings.Contains(fmt.Sprint(ds), "from vLLM 0.16.0") {
		t.Errorf("0.15.1: %v", ds)
	}
}

// TestBootstrapPortsAreResolves: the bootstrap port each prefill node's
// script exports and router.sh names is the one validate's port check
// (resolve.SideChannel.Bootstrap, SPEC129) and preflight's ports.free
// reserve: both read vllm.PDBundle.BootstrapPort. Eight TP 1 prefill
// instances share node0 (8998 + slot); a pool vllm.env value is kept for
// every instance, router arguments included (SPEC129 reports the clash).
func TestBootstrapPortsAreResolves(t *testing.T) {
	for _, env := range []string{"", "9100"} {
		d, ds := spec.Load("../examples/gpt-oss-120b-pd-2x8h100.yaml")
		if ds.HasErrors() {
			t.Fatal(ds)
		}
		spec.ApplyDefaults(d)
		d.Disaggregation.Connector = "MooncakeConnector"
		if env != "" {
			d.Disaggregation.Prefill.VLLM.Env = map[string]string{"VLLM_MOONCAKE_BOOTSTRAP_PORT": env}
		}
		r := resolved(t, d)
		b, gds := Generate(r, Options{Runtime: "bare"})
		if gds.HasErrors() {
			t.Fatalf("env %q: %v", env, gds)
		}
		want := map[string]int{} // node/slot → resolve's port
		var order []int
		for _, sc := range r.PD.Roles[0].SideChannels {
			if sc.Bootstrap == 0 {
				t.Fatalf("env %q: prefill %s slot %d has no bootstrap port", env, sc.Node.Name, sc.Slot)
			}
			want[fmt.Sprintf("%s/%d", sc.Node.Name, sc.Slot)] = sc.Bootstrap
			order = append(order, sc.Bootstrap)
		}
		if env == "" && (order[0] != 8998 || order[7] != 9005) {
			t.Errorf("resolve's ports %v, want 8998-9005", order)
		}
		pre := b.PD.Roles[0]
		for _, n := range pre.Plan.Nodes {
			got := ""
			for _, e := range n.Env {
				if e.Name == "VLLM_MOONCAKE_BOOTSTRAP_PORT" {
					got = e.Value
				}
			}
			if w := want[fmt.Sprintf("%s/%d", n.Name, n.Slot)]; got != fmt.Sprint(w) {
				t.Errorf("env %q: %s slot %d exports %q, resolve reserves %d", env, n.Name, n.Slot, got, w)
			}
		}
		if fmt.Sprint(pre.BootstrapPorts) != fmt.Sprint(order) {
			t.Errorf("env %q: router's bootstrap ports %v, resolve's %v", env, pre.BootstrapPorts, order)
		}
	}
}
