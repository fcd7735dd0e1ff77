package estimate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/validate"
)

// A prefill pool holds a request's KV from its prefill until the decode
// pool has pulled it, not for the whole session: 256 sessions of gpt-oss's
// P/D example (eight single-GPU prefill engines with 1.6 GiB of KV each)
// fit; counting every session against them refused it (EST103).
func TestPrefillPoolHoldsOnlyRequestsInFlight(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "examples", "gpt-oss-120b-pd-2x8h100.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, from, to string
		refused        bool
	}{
		{"many sessions, short stay", "concurrency: 64", "concurrency: 256", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.Replace(string(base), tc.from, tc.to, 1)
			if data == string(base) {
				t.Fatalf("%q not in the example", tc.from)
			}
			path := filepath.Join(t.TempDir(), "spec.yaml")
			if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
			d, ds, err := validate.File(path)
			if err != nil || ds.HasErrors() {
				t.Fatal(err, ds)
			}
			r := CheckPD(d, PerfOptions{Seed: 1})
			refused := false
			for _, f := range r.Findings {
				if strings.HasPrefix(f.Message, "prefill pool:") && f.Code == "EST103" {
					refused = true
				}
			}
			if refused != tc.refused {
				t.Errorf("prefill pool refused: %v, want %v (%v)", refused, tc.refused, r.Findings)
			}
			if n := pd.PrefillResident(r.Disaggregated, 256); n < 1 || n > 256 {
				t.Errorf("resident requests %d outside [1, sessions]", n)
			}
		})
	}
}

// PrefillResident is Little's law over the time a request's KV stays on the
// prefill pool (prefill, router, wait for a decode slot, transfer; not the
// queue before prefill or the frontend), the largest over the scenarios,
// within [1, sessions].
func TestPrefillResidentIsLittlesLaw(t *testing.T) {
	sc := func(rate, queue, prefill, router, admit, transfer float64) pd.Scenario {
		return pd.Scenario{RequestsPerS: rate, TTFTParts: pd.TTFTParts{FrontendS: 1, PrefillQueueS: queue, PrefillS: prefill, RouterS: router, DecodeAdmitS: admit, TransferS: transfer, FirstDecodeS: 1}}
	}
	for _, tc := range []struct {
		name     string
		scs      []pd.Scenario
		sessions int
		want     int
	}{
		{"one scenario", []pd.Scenario{sc(10, 5, 1, 0.1, 0.5, 0.4)}, 100, 20},
		{"the busiest scenario", []pd.Scenario{sc(10, 0, 1, 0, 0, 0), sc(4, 0, 2, 0, 1, 0)}, 100, 12},
		{"at most the sessions", []pd.Scenario{sc(100, 0, 2, 0, 0, 0)}, 64, 64},
		{"at least one", []pd.Scenario{sc(0.01, 0, 0.01, 0, 0, 0)}, 64, 1},
		{"no scenario: every session", nil, 64, 64},
	} {
		got := pd.PrefillResident(&pd.Report{Scenarios: tc.scs}, tc.sessions)
		if got != tc.want {
			t.Errorf("%s: %d resident, want %d", tc.name, got, tc.want)
		}
	}
}

// A pool's node count is the nodes it runs on: eight single-GPU prefill
// instances share one node (it read "× 8 instances · 8 nodes").
func TestPoolNodesCountSharedNodesOnce(t *testing.T) {
	for _, tc := range []struct {
		example         string
		prefill, decode int
	}{
		{"gpt-oss-120b-pd-2x8h100.yaml", 1, 1},
		{"deepseek-v3-pd-32xh20.yaml", 2, 2},
	} {
		d, ds, err := validate.File(filepath.Join("..", "examples", tc.example))
		if err != nil || ds.HasErrors() {
			t.Fatal(err, ds)
		}
		r := CheckPD(d, PerfOptions{Seed: 1})
		if p := r.Disaggregated; p == nil || p.Prefill.Nodes != tc.prefill || p.Decode.Nodes != tc.decode {
			t.Errorf("%s: pools on %+v nodes, want prefill %d, decode %d", tc.example, p, tc.prefill, tc.decode)
		}
	}
}

// The spec's pools sharing a node reach pd.Evaluate as the same-node flag
// (resolve's Disaggregated.SameNode): examples/gpt-oss-120b-pd-1node-8xh100
// (1 P × TP 4 + 1 D × TP 4 on one node) hands the KV over cuda_ipc
// (NVLink) on bare metal and on docker (whose bundle runs both pools with
// --pid host and every GPU visible); decode spread over a second node
// (the router then pairs across nodes) is priced over the NICs.
func TestSameNodeReachesEvaluate(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("..", "examples", "gpt-oss-120b-pd-1node-8xh100.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	spread := strings.Replace(string(base), "    - {name: node0, address: 192.168.2.10, gpus: 8, interface: eth0}\n",
		"    - {name: node0, address: 192.168.2.10, gpus: 8, interface: eth0}\n    - {name: node1, address: 192.168.2.11, gpus: 8, interface: eth0}\n", 1)
	spread = strings.Replace(spread, "  decode:\n    instances: 1\n    nodes: [node0]", "  decode:\n    instances: 3\n    nodes: [node0, node1]", 1)
	for _, tc := range []struct {
		name, yaml, link, transport string
	}{
		{"bare", string(base), "NVLink", "cuda_ipc"},
		{"docker", strings.Replace(string(base), "kind: bare", "kind: docker", 1), "NVLink", "cuda_ipc"},
		{"decode over two nodes", spread, "inter-node NICs", ""},
	} {
		path := filepath.Join(t.TempDir(), "s.yaml")
		if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		d, ds, err := validate.File(path)
		if err != nil || ds.HasErrors() {
			t.Fatalf("%s: %v %v", tc.name, err, ds)
		}
		r := CheckPD(d, PerfOptions{Seed: 1})
		if r.Disaggregated == nil || len(r.Disaggregated.Scenarios) == 0 {
			t.Fatalf("%s: no P/D scenario", tc.name)
		}
		tr := r.Disaggregated.Scenarios[0].Transfer
		if tr.Link != tc.link || !strings.HasPrefix(tr.Transport, tc.transport) {
			t.Errorf("%s: hand-off over %q (%q), want %q (%q)", tc.name, tr.Link, tr.Transport, tc.link, tc.transport)
		}
	}
}

// A prefix-cache hit rate applies to both sides of a P/D check (pd43): the
// prefill pool computes the uncached share of each prompt (pd's
// prefixRate) and the colocated comparison its own, like with like. On the
// DeepSeek-V3 example at rate 0.5 both TTFTs fall, and the P/D report says
// what its prefill pool computed.
func TestPDHitRateAppliesToBothSides(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "deepseek-v3-pd-32xh20.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(yaml string) *pd.Report {
		path := filepath.Join(t.TempDir(), "spec.yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		d, ds, err := validate.File(path)
		if err != nil || ds.HasErrors() {
			t.Fatal(err, ds)
		}
		return CheckPD(d, PerfOptions{Seed: 1, NoAdvice: true}).Disaggregated
	}
	base := run(string(src))
	hitSrc := strings.Replace(string(src), "  output_tokens: 1024\n", "  output_tokens: 1024\n  prefix_cache_hit_rate: 0.5\n", 1)
	if hitSrc == string(src) {
		t.Fatal("the example has no '  output_tokens: 1024' line to add the rate after")
	}
	hit := run(hitSrc)
	if base == nil || hit == nil || base.Colocated == nil || hit.Colocated == nil || len(base.Scenarios) == 0 || len(hit.Scenarios) == 0 {
		t.Fatal("no P/D report or colocated comparison")
	}
	if !(hit.Colocated.TTFTP50S < base.Colocated.TTFTP50S) {
		t.Errorf("colocated comparison TTFT p50 %.4f -> %.4f s with rate 0.5: want lower", base.Colocated.TTFTP50S, hit.Colocated.TTFTP50S)
	}
	b, h := base.Scenarios[0], hit.Scenarios[0]
	if !(h.TTFTParts.PrefillS < b.TTFTParts.PrefillS && h.TTFT.Mean < b.TTFT.Mean) {
		t.Errorf("P/D prefill %.1f -> %.1f ms, TTFT %.1f -> %.1f ms with rate 0.5: want both lower", 1e3*b.TTFTParts.PrefillS, 1e3*h.TTFTParts.PrefillS, 1e3*b.TTFT.Mean, 1e3*h.TTFT.Mean)
	}
	if h.Transfer.Tokens != b.Transfer.Tokens {
		t.Errorf("hand-off %d -> %d tokens: the decode pool reads the whole prompt either way", b.Transfer.Tokens, h.Transfer.Tokens)
	}
	if !slices.ContainsFunc(hit.Notes, func(n string) bool { return strings.Contains(n, "prefix cache hit rate 0.5") }) {
		t.Errorf("no note on the prefill pool's cached prefix: %q", hit.Notes)
	}
}
