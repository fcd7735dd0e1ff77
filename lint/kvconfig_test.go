package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// serversOf parses a script and returns its servers for the newest release.
func serversOf(t testing.TB, script string) []*server {
	t.Helper()
	invs, _, _ := launch.Parse("t.sh", []byte(script))
	var out []*server
	for _, inv := range invs {
		if inv.Kind == launch.KindServe {
			out = append(out, newServer(inv, vllm.Newest(), true))
		}
	}
	return out
}

func TestKVTransferParse(t *testing.T) {
	cases := []struct {
		script, connector, role string
		parsed                  bool
	}{
		{`vllm serve m --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'`, "NixlConnector", "kv_both", true},
		{`vllm serve m --kv_transfer_config '{"kv_connector":"NixlConnector","kv_role":"kv_producer"}'`, "NixlConnector", "kv_producer", true},
		{`vllm serve m --kv-transfer-config.kv_connector NixlConnector --kv-transfer-config.kv_role kv_both --kv-transfer-config.kv_connector_extra_config.backends+ LIBFABRIC`, "NixlConnector", "kv_both", true},
		{`C='{"kv_connector":"P2pNcclConnector","kv_role":"kv_consumer"}'; vllm serve m --kv-transfer-config "$C"`, "P2pNcclConnector", "kv_consumer", true},
		// An unresolved value outside quotes reads as null.
		{`vllm serve m --kv-transfer-config "{\"kv_connector\":\"P2pNcclConnector\",\"kv_role\":\"kv_producer\",\"enable_async_transfers\":$ASYNC}"`, "P2pNcclConnector", "kv_producer", true},
		{`vllm serve m --kv-transfer-config '{kv_connector: NixlConnector}'`, "", "", false},
	}
	for _, c := range cases {
		ss := serversOf(t, c.script)
		if len(ss) != 1 {
			t.Fatalf("%s: %d servers", c.script, len(ss))
		}
		k := ss[0].KV()
		if !k.Given || k.Parsed != c.parsed || k.Connector != c.connector || k.Role != c.role {
			t.Errorf("%s: got given=%v parsed=%v %q %q", c.script, k.Given, k.Parsed, k.Connector, k.Role)
		}
	}
}

// TestSplitInstances: P and D engines that both say kv_both are two
// instances; two primaries naming one routable DP address stay one group.
func TestSplitInstances(t *testing.T) {
	kv := ` --kv-transfer-config '{"kv_connector":"NixlConnector","kv_role":"kv_both"}'`
	ss := serversOf(t, "vllm serve m --data-parallel-size 4"+kv+" &\nvllm serve m --port 8200 --data-parallel-size 4"+kv+" &\n")
	if g := groupServers(ss); len(g) != 2 {
		t.Errorf("P and D on one host: %d groups, want 2", len(g))
	}
	addr := " --data-parallel-size 16 --data-parallel-size-local 8 --data-parallel-address 10.0.0.1"
	ss = serversOf(t, "vllm serve m"+addr+kv+" &\nvllm serve m"+addr+kv+" &\nvllm serve m --headless --data-parallel-start-rank 8"+addr+kv+" &\n")
	if g := groupServers(ss); len(g) != 1 {
		t.Errorf("one instance with a second primary: %d groups, want 1", len(g))
	}
	// An offloading connector makes no P/D instance: still one DP group.
	off := ` --kv-transfer-config '{"kv_connector":"OffloadingConnector","kv_role":"kv_both"}'`
	ss = serversOf(t, "vllm serve m --data-parallel-size 4"+off+" &\nvllm serve m --port 8200 --data-parallel-size 4"+off+" &\n")
	if g := groupServers(ss); len(g) != 1 {
		t.Errorf("offloading connector: %d groups, want 1", len(g))
	}
	// Without a connector nothing changes: two primaries are one DP group.
	ss = serversOf(t, "vllm serve m --data-parallel-size 4 &\nvllm serve m --port 8200 --data-parallel-size 4 &\n")
	if g := groupServers(ss); len(g) != 1 {
		t.Errorf("no connector: %d groups, want 1", len(g))
	}
}

// FuzzKVTransferConfig: any --kv-transfer-config text, as one JSON value or
// dotted keys, must parse and lint without panicking.
func FuzzKVTransferConfig(f *testing.F) {
	f.Add(`{"kv_connector":"NixlConnector","kv_role":"kv_both","engine_id":"e","kv_connector_extra_config":{"connectors":[{"kv_connector":"X"}]}}`, "kv_role")
	f.Add(`{"kv_connector":"P2pNcclConnector","kv_port":"$P","x":$Y}`, "kv_connector_extra_config.backends+")
	f.Add(`[1,2]`, "")
	f.Fuzz(func(t *testing.T, cfg, dotted string) {
		q := "'" + strings.ReplaceAll(cfg, "'", `'\''`) + "'"
		script := "vllm serve m --kv-transfer-config " + q + " &\nVLLM_NIXL_SIDE_CHANNEL_PORT=" + q + " vllm serve m --port 8200 --kv-transfer-config." + dotted + " " + q + " &\n"
		_, _ = Lint([]Input{{Name: "fuzz.sh", Data: []byte(script)}}, Options{})
	})
}
