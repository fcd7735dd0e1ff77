package vllm

import (
	"reflect"
	"strings"
	"testing"
)

func TestNixlSideChannelDefaultPort(t *testing.T) {
	for _, tt := range []struct {
		v    string
		want int
	}{{"0.9.0", 5557}, {"0.11.0", 5557}, {"0.11.1", 5600}, {"0.20.0", 5600}} {
		if got := NixlSideChannelDefaultPort(mustVersion(tt.v)); got != tt.want {
			t.Errorf("%s: port %d, want %d", tt.v, got, tt.want)
		}
	}
}

// TestNixlSidePorts: one port per DP engine from 0.12 (base + global DP
// rank), one per worker before (base + rank·TP + tp).
func TestNixlSidePorts(t *testing.T) {
	for _, tt := range []struct {
		v                      string
		base, start, local, tp int
		want                   []int
	}{
		{"0.12.0", 5600, 8, 2, 4, []int{5608, 5609}},
		{"0.11.0", 5557, 1, 2, 2, []int{5559, 5560, 5561, 5562}},
		{"0.11.0", 5557, 0, 0, 8, nil},
	} {
		got := NixlSidePorts(mustVersion(tt.v), tt.base, tt.start, tt.local, tt.tp)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s base %d start %d local %d tp %d: %v, want %v", tt.v, tt.base, tt.start, tt.local, tt.tp, got, tt.want)
		}
	}
}

func TestNixlTPPairing(t *testing.T) {
	for _, tt := range []struct {
		v    string
		p, d int
		want TPPairing
	}{
		{"0.11.0", 4, 4, TPPairing{Pairs: Present}},
		{"0.11.0", 2, 8, TPPairing{Pairs: Present}},
		{"0.11.0", 4, 6, TPPairing{Pairs: Absent, NotDivisible: true}},
		{"0.20.0", 6, 4, TPPairing{Pairs: Absent, NotDivisible: true}},
		{"0.11.0", 8, 4, TPPairing{Pairs: Absent, PrefillLarger: true}},
		// Read at the tags: v0.13.0's tp_ratio asserts, v0.14.0's pairs
		// a larger prefill TP (#27274).
		{"0.12.0", 8, 4, TPPairing{Pairs: Absent, PrefillLarger: true}},
		{"0.13.0", 8, 4, TPPairing{Pairs: Absent, PrefillLarger: true}},
		{"0.14.0", 8, 4, TPPairing{Pairs: Present}},
	} {
		if got := NixlTPPairing(mustVersion(tt.v), tt.p, tt.d); got != tt.want {
			t.Errorf("%s P%d D%d: %+v, want %+v", tt.v, tt.p, tt.d, got, tt.want)
		}
	}
}

func TestNixlBlockSizes(t *testing.T) {
	for _, tt := range []struct {
		v    string
		p, d int
		want Presence
	}{
		{"0.9.1", 16, 16, Present},
		{"0.11.0", 16, 64, Absent},
		{"0.11.1", 16, 64, Present}, // read at the v0.11.1 tag
		{"0.12.0", 16, 64, Present},
		{"0.12.0", 64, 16, Absent},
		{"0.12.0", 48, 64, Absent},
	} {
		if got := NixlBlockSizes(mustVersion(tt.v), tt.p, tt.d); got != tt.want {
			t.Errorf("%s P%d D%d: %s, want %s", tt.v, tt.p, tt.d, got, tt.want)
		}
	}
}

func TestHybridKVWithConnector(t *testing.T) {
	for v, want := range map[string]Presence{"0.12.0": Absent, "0.20.0": Absent, "0.21.0": Maybe, "0.22.0": Present} {
		if got := HybridKVWithConnector(mustVersion(v)); got != want {
			t.Errorf("%s: %s, want %s", v, got, want)
		}
	}
}

// TestKVConnectorNamed: a spec may name a connector short; only the
// registry's names resolve.
func TestKVConnectorNamed(t *testing.T) {
	for name, want := range map[string]string{"nixl": "NixlConnector", "NixlConnector": "NixlConnector", "NIXLConnector": "NixlConnector",
		"lmcacheconnectorv1": "LMCacheConnectorV1", "p2pnccl": "P2pNcclConnector", "nixel": "", "": "", "connector": ""} {
		c, ok := KVConnectorNamed(name)
		if ok != (want != "") || c.Name != want {
			t.Errorf("%q: %q %v, want %q", name, c.Name, ok, want)
		}
	}
}

// TestNixlPrefillLargerFailure: up to 0.11.0 NIXL divides by a zero TP
// ratio (vLLM #21576); from 0.11.1 TpKVTopology.tp_ratio asserts first,
// naming the decode (local) size then the prefill (remote) one (read at
// the v0.11.0 and v0.11.1 tags).
func TestNixlPrefillLargerFailure(t *testing.T) {
	if got := NixlPrefillLargerFailure(mustVersion("0.11.0"), 8, 4); !strings.Contains(got, "divides by zero") {
		t.Errorf("0.11.0: %q", got)
	}
	got := NixlPrefillLargerFailure(mustVersion("0.11.1"), 8, 4)
	if !strings.Contains(got, "Local tensor parallel size 4 is not divisible by remote tensor parallel size 8") {
		t.Errorf("0.11.1: %q", got)
	}
}
