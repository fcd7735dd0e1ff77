package vllm

import (
	"strings"
	"testing"
)

// TestKVHandoffTable: each P/D connector's hand-off as read in its source
// (the file and commit each entry must cite). Unread or configuration-set
// connectors stay unknown.
func TestKVHandoffTable(t *testing.T) {
	v0110 := mustVersion("0.11.0")
	for _, c := range []struct {
		name     string
		v        string
		extra    map[string]string
		env      map[string]string
		dir      string
		layer    Presence
		overlaps bool
		syncLoad bool
		ucx      bool
		cites    []string
	}{
		{name: "nixl", v: "0.11.0", dir: HandoffPull, layer: Absent, ucx: true,
			cites: []string{"b8b302cde434", "nixl_connector.py", "does not do layerwise saving"}},
		{name: "NixlPullConnector", v: "0.24.0", dir: HandoffPull, layer: Absent, ucx: true, cites: []string{"#35264", "nixl_connector.py"}},
		{name: "NixlPushConnector", v: "0.24.0", dir: HandoffPush, layer: Absent, ucx: true, cites: []string{"nixl/push_worker.py", "8cc02e7f", "start_push_kv"}},
		// PUT_ASYNC, as the PR's commands set it (docs/design/v1/p2p_nccl_connector.md at vllm@eccdc8318).
		{name: "P2pNcclConnector", v: "0.9.2", extra: map[string]string{"send_type": "PUT_ASYNC"}, dir: HandoffPush, layer: Present, overlaps: true, syncLoad: true,
			cites: []string{"p2p/p2p_nccl_connector.py", "b8b302cde434", "save_kv_layer", "wait_for_sent", "eccdc8318"}},
		// 0.9.2's default: PUT (send_sync inside the forward).
		{name: "P2pNcclConnector", v: "0.9.2", dir: HandoffPush, layer: Present, syncLoad: true, cites: []string{"\"PUT\""}},
		// 0.11.0's default: PUT_ASYNC (#20906).
		{name: "P2pNcclConnector", v: "0.11.0", dir: HandoffPush, layer: Present, overlaps: true, syncLoad: true, cites: []string{"#20906"}},
		{name: "P2pNcclConnector", v: "0.11.0", extra: map[string]string{"send_type": "GET"}, dir: HandoffPull, layer: Maybe, syncLoad: true},
		{name: "MooncakeConnector", v: "0.21.0", dir: HandoffPush, layer: Absent,
			cites: []string{"mooncake/mooncake_connector.py", "ea0e501bb", "batch_transfer_sync_write"}},
		{name: "MooncakeConnector", v: "0.8.0", layer: Maybe}, // the V0 connector: not read
		{name: "MoRIIOConnector", v: "0.21.0", dir: HandoffPush, layer: Present, overlaps: true,
			cites: []string{"moriio/moriio_connector.py", "ea0e501bb", MoRIIOReadModeEnv}},
		{name: "MoRIIOConnector", v: "0.21.0", env: map[string]string{MoRIIOReadModeEnv: "1"}, dir: HandoffPull, layer: Absent},
		{name: "LMCacheConnectorV1", v: "0.11.0", layer: Maybe, cites: []string{"lmcache_connector.py", "LMCache's configuration"}},
		{name: "LMCacheMPConnector", v: "0.13.0", layer: Maybe},
		{name: "MultiConnector", v: "0.11.0", layer: Maybe, cites: []string{"multi_connector.py"}},
		{name: "NoSuchConnector", v: "0.11.0", layer: Maybe},
	} {
		h := KVHandoffOf(c.name, mustVersion(c.v), c.extra, c.env)
		what := c.name + "@" + c.v
		if h.Direction != c.dir || h.LayerWise != c.layer || h.Overlaps != c.overlaps || h.SyncLoad != c.syncLoad || h.UCX != c.ucx {
			t.Errorf("%s %v: direction %q layer-wise %v overlaps %v sync load %v UCX %v; want %q %v %v %v %v", what, c.extra,
				h.Direction, h.LayerWise, h.Overlaps, h.SyncLoad, h.UCX, c.dir, c.layer, c.overlaps, c.syncLoad, c.ucx)
		}
		if h.Known() != (c.dir != "" && c.layer != Maybe) {
			t.Errorf("%s: Known %v", what, h.Known())
		}
		for _, s := range c.cites {
			if !strings.Contains(h.Source, s) {
				t.Errorf("%s: source %q does not cite %q", what, h.Source, s)
			}
		}
	}
	if d, pinned := P2pNcclSendTypeDefault(mustVersion("0.9.2")); d != P2pNcclPut || !pinned {
		t.Errorf("0.9.2's send_type default %s (pinned %v): #20906 merged after v0.9.2", d, pinned)
	}
	if d, pinned := P2pNcclSendTypeDefault(mustVersion("0.10.0")); d != P2pNcclPutAsync || pinned {
		t.Errorf("0.10.0's send_type default %s (pinned %v): inferred from #20906's merge date", d, pinned)
	}
	if d, _ := P2pNcclSendTypeDefault(v0110); d != P2pNcclPutAsync {
		t.Errorf("0.11.0's send_type default %s", d)
	}
	if NixlHandoff() != KVHandoffOf(NixlConnectorName, v0110, nil, nil) {
		t.Error("NixlHandoff differs from the table's NixlConnector")
	}
}
