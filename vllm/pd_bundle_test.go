package vllm

import (
	"strings"
	"testing"
)

// TestPDBundleTable: every connector vlaunch writes is registered, not an
// offloading connector, and registered in the first release it is written
// for; the NIXL connectors are listed first.
func TestPDBundleTable(t *testing.T) {
	names := PDBundleConnectors()
	if want := []string{NixlConnectorName, "NixlPullConnector", "NixlPushConnector", "MooncakeConnector"}; strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("PDBundleConnectors %v, want %v", names, want)
	}
	for _, name := range names {
		b, ok, why := PDBundleOf(name, Version{})
		c, _ := KVConnector(name)
		if !ok || b.Connector != name || c.Offload {
			t.Errorf("%s: bundle %q ok %v (%s), offload %v", name, b.Connector, ok, why, c.Offload)
			continue
		}
		if c.In(b.Since) != Present {
			t.Errorf("%s: written from %s, which does not register it", b.Connector, b.Since)
		}
		if b.Module == "" || b.Package == "" || b.Source == "" || b.SinceSource == "" {
			t.Errorf("%s: module, package or source missing", b.Connector)
		}
		if b.NIXLSideChannel == (b.BootstrapPortEnv != "") {
			t.Errorf("%s: a bundle takes the NIXL side channel or a bootstrap port", b.Connector)
		}
	}
}

// TestPDBundleOf: the release boundaries (NixlPull/NixlPush from 0.24.0,
// #35264 in v0.24.0's notes; MooncakeConnector from 0.16.0, #31034 in
// v0.16.0's), the spec's short names, and refusals that say what is missing.
func TestPDBundleOf(t *testing.T) {
	for _, tc := range []struct {
		name, version string
		ok            bool
		why           string
	}{
		{"nixl", "0.11.0", true, ""},
		{"NixlPushConnector", "0.24.0", true, ""},
		{"nixlpush", "0.24.0", true, ""},
		{"NixlPullConnector", "0.23.0", false, "from vLLM 0.24.0"},
		{"MooncakeConnector", "0.16.0", true, ""},
		{"mooncake", "0.15.1", false, "from vLLM 0.16.0"},
		{"P2pNcclConnector", "0.11.0", false, "http_port"},
		{"MoRIIOConnector", "0.16.0", false, "handshake_port"},
		{"LMCacheConnectorV1", "0.16.0", false, "LMCACHE_CONFIG_FILE"},
		{"FlexKVConnectorV1", "0.20.0", false, "has not read"},
	} {
		_, ok, why := PDBundleOf(tc.name, mustVersion(tc.version))
		if ok != tc.ok || !strings.Contains(why, tc.why) {
			t.Errorf("%s in %s: ok %v (%q), want %v (%q)", tc.name, tc.version, ok, why, tc.ok, tc.why)
		}
	}
	if b, _, _ := PDBundleOf("mooncake", Version{}); b.RouterKVConnector != "mooncake" || b.BootstrapPortDefault != 8998 {
		t.Errorf("MooncakeConnector: router %q, bootstrap port %d", b.RouterKVConnector, b.BootstrapPortDefault)
	}
}
