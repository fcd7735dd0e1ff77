package published

import (
	"strings"
	"testing"
)

// minimal is the smallest valid data file: one source, one closed-loop row.
const minimal = `schema: vlaunch/calibration-throughput/v1
sources:
- id: src-a
  split: holdout
  title: A benchmark
  url: https://example.com/a
  date: '2025-01-01'
  access: direct
rows:
- id: row-a
  source: src-a
  split: holdout
  where: table 1
  engine: {name: vllm, version: 0.11.0}
  model: {id: deepseek-ai/DeepSeek-R1, catalog: deepseek-r1, weights: fp8}
  hardware: {gpu: h200, gpus: 8, nodes: 1, gpus_per_node: 8}
  layout: {tp: 8, pp: 1, dp: 1, ep: 1, dp_attention: false, role: colocated}
  speculative:
    method: mtp
    num_speculative_tokens: 1
    verify_positions: 2
    acceptance_length: {mean: 1.8}
    acceptance_includes_bonus: true
  workload: {dataset: random, input_tokens: 1024, output_tokens: 1024}
  load: {kind: closed-loop, concurrency: 8}
  figures:
    output_tok_per_s: 600
    tpot_ms: {mean: 12.8, p99: 14.3}
  confidence: high
`

func parseMinimal(t *testing.T) *Set {
	t.Helper()
	s, err := Parse([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Problems(); len(p) != 0 {
		t.Fatalf("minimal set has problems: %v", p)
	}
	return s
}

func TestProblemsCatchBadRows(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Set)
		want   string
	}{
		{"wrong schema", func(s *Set) { s.Schema = "v0" }, "schema is"},
		{"duplicate row id", func(s *Set) { s.Rows = append(s.Rows, s.Rows[0]) }, "duplicate id"},
		{"bad row id", func(s *Set) { s.Rows[0].ID = "Row A" }, "id must match"},
		{"no source", func(s *Set) { s.Rows[0].Source = "" }, "no source"},
		{"unlisted source", func(s *Set) { s.Rows[0].Source = "src-b" }, "not listed"},
		{"split differs from source", func(s *Set) { s.Rows[0].Split = SplitCalibration }, "differs from its source"},
		{"bad source split", func(s *Set) { s.Sources[0].Split = "test"; s.Rows[0].Split = "test" }, "neither calibration nor holdout"},
		{"source without url", func(s *Set) { s.Sources[0].URL = "" }, "no url"},
		{"no where", func(s *Set) { s.Rows[0].Where = "" }, "no where"},
		{"no figures", func(s *Set) { s.Rows[0].Figures = Figures{} }, "no figures"},
		{"bad role", func(s *Set) { s.Rows[0].Layout.Role = "both" }, "layout.role"},
		{"bad load kind", func(s *Set) { s.Rows[0].Load.Kind = "rate" }, "load.kind"},
		{"bad confidence", func(s *Set) { s.Rows[0].Confidence = "sure" }, "confidence"},
		{"layout does not cover gpus", func(s *Set) { s.Rows[0].Layout.TP = N(4) }, "tp x pp x dp"},
		{"nodes do not cover gpus", func(s *Set) { s.Rows[0].Hardware.Nodes = N(2) }, "nodes x gpus_per_node"},
		{"ep neither 1 nor tp x dp", func(s *Set) { s.Rows[0].Layout.EP = N(4) }, "layout.ep"},
		{"unknown tp", func(s *Set) { s.Rows[0].Layout.TP = Num{} }, "layout.tp must be"},
		{"unknown gpu", func(s *Set) { s.Rows[0].Hardware.GPU = Unknown }, "hardware.gpu is unknown"},
		{"closed loop without concurrency", func(s *Set) { s.Rows[0].Load.Concurrency = Num{} }, "needs load.concurrency"},
		{"closed loop without lengths", func(s *Set) { s.Rows[0].Workload.OutputTokens = Num{} }, "input and output lengths"},
		{"burst without size", func(s *Set) { s.Rows[0].Load.Kind = LoadBurst }, "load.burst_requests"},
		{"poisson without rate", func(s *Set) { s.Rows[0].Load.Kind = LoadPoisson }, "request_rate_per_s"},
		{"steady decode without batch", func(s *Set) { s.Rows[0].Load.Kind = LoadSteadyDecode }, "batch_per_gpu"},
		{"production without context", func(s *Set) { s.Rows[0].Load.Kind = LoadProduction }, "context_tokens"},
		{"per-node figure without nodes", func(s *Set) {
			s.Rows[0].Figures.OutputTokPerSPerNode = N(1)
			s.Rows[0].Hardware.Nodes = Num{}
		}, "hardware.nodes"},
		{"drafts count verified positions", func(s *Set) { s.Rows[0].Speculative.NumSpeculativeTokens = N(2) }, "want 3"},
		{"accept length above verified positions", func(s *Set) { s.Rows[0].Speculative.AcceptanceLength.Mean = N(2.5) }, "acceptance length"},
		{"unknown client", func(s *Set) { s.Rows[0].Workload.Client = "my-script" }, "workload.client"},
		{"unknown api", func(s *Set) { s.Rows[0].Workload.API = "grpc" }, "workload.api"},
		{"prompts seen before without a cache", func(s *Set) {
			s.Rows[0].Load.PromptsSeenBefore = Flag{V: true, Known: true}
			s.Rows[0].Features.PrefixCaching = Flag{V: false, Known: true}
			s.Rows[0].Notes = "its prompts were seen before by run x"
		}, "features.prefix_caching is false"},
		{"prompts seen before offline", func(s *Set) {
			s.Rows[0].Load.PromptsSeenBefore = Flag{V: true, Known: true}
			s.Rows[0].Load.Kind = LoadOfflineBatch
			s.Rows[0].Load.BurstRequests = N(8)
			s.Rows[0].Notes = "its prompts were seen before by run x"
		}, "client-driven run"},
		{"prompts seen before without a note", func(s *Set) { s.Rows[0].Load.PromptsSeenBefore = Flag{V: true, Known: true} }, "'seen before'"},
		{"speculative without drafts", func(s *Set) {
			s.Rows[0].Speculative.NumSpeculativeTokens = Num{}
			s.Rows[0].Speculative.VerifyPositions = Num{}
		}, "num_speculative_tokens"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := parseMinimal(t)
			c.mutate(s)
			p := strings.Join(s.Problems(), "\n")
			if !strings.Contains(p, c.want) {
				t.Errorf("problems %q do not mention %q", p, c.want)
			}
		})
	}
}

// An incomplete row is kept without the reproduction checks, but the
// citation checks still apply.
func TestIncompleteRowsSkipOnlyReproductionChecks(t *testing.T) {
	s := parseMinimal(t)
	s.Rows[0].Incomplete = "layout not stated"
	s.Rows[0].Layout.TP = Num{}
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("incomplete row reported: %v", p)
	}
	s.Rows[0].Source = ""
	if p := s.Problems(); len(p) == 0 {
		t.Error("incomplete row without a source not reported")
	}
}

// A row whose prompts were seen before, with a cache that may be on, a
// client-driven load and a note saying so, is valid.
func TestPromptsSeenBeforeValid(t *testing.T) {
	s := parseMinimal(t)
	s.Rows[0].Load.PromptsSeenBefore = Flag{V: true, Known: true}
	s.Rows[0].Notes = "The first 10 prompts were seen before (the one-session run's)."
	if p := s.Problems(); len(p) != 0 {
		t.Errorf("valid prompts_seen_before row reported: %v", p)
	}
	in := strings.Replace(minimal, "load: {kind: closed-loop, concurrency: 8}", "load: {kind: closed-loop, concurrency: 8, prompts_seen_before: true}", 1)
	got, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if f := got.Rows[0].Load.PromptsSeenBefore; !f.V || !f.Known {
		t.Errorf("prompts_seen_before parsed as %+v, want known true", f)
	}
}

func TestParseIsStrict(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"empty", "", "empty"},
		{"unknown key", strings.Replace(minimal, "  where: table 1", "  wher: table 1", 1), "wher"},
		{"number with unit", strings.Replace(minimal, "concurrency: 8", "concurrency: 8 requests", 1), "not a number"},
		{"misspelt percentile", strings.Replace(minimal, "p99: 14.3", "p95th: 14.3", 1), "unknown statistic"},
		{"flag as word", strings.Replace(minimal, "dp_attention: false", "dp_attention: no-ish", 1), "true, false"},
		{"stat as number", strings.Replace(minimal, "tpot_ms: {mean: 12.8, p99: 14.3}", "tpot_ms: 12.8", 1), "mapping"},
		{"infinite number", strings.Replace(minimal, "concurrency: 8", "concurrency: .inf", 1), "finite"},
		{"two documents", minimal + "---\nschema: x\n", "more than one"},
		{"too big", strings.Repeat("#", MaxBytes+1), "more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

func TestUnknownValuesParse(t *testing.T) {
	in := strings.NewReplacer("tp: 8", "tp: unknown", "dp_attention: false", "dp_attention: unknown",
		"acceptance_length: {mean: 1.8}", "acceptance_length: unknown").Replace(minimal)
	s, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	r := s.Rows[0]
	if r.Layout.TP.Known || r.Layout.DPAttention.Known || r.Speculative.AcceptanceLength.Any() {
		t.Errorf("unknown values parsed as known: %+v %+v %+v", r.Layout.TP, r.Layout.DPAttention, r.Speculative.AcceptanceLength)
	}
	if r.Layout.PP != N(1) || r.Figures.TPOTMs.P99 != N(14.3) {
		t.Errorf("known values lost: pp %v p99 %v", r.Layout.PP, r.Figures.TPOTMs.P99)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(minimal))
	f.Add(ThroughputYAML()[:4096])
	f.Add([]byte("rows: [{id: a, figures: {ttft_ms: unknown}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data)
		if err == nil {
			_ = s.Problems() // must not panic on any parsed input
		}
	})
}

// A row naming a known client and endpoint is clean, and every client has
// its rule and a citation.
func TestKnownClientsParse(t *testing.T) {
	s, err := Parse([]byte(strings.Replace(minimal, "workload: {dataset: random,", "workload: {client: genai-perf, api: chat, dataset: random,", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Problems(); len(p) != 0 || s.Rows[0].Workload.Client != "genai-perf" || s.Rows[0].Workload.API != APIChat {
		t.Fatalf("problems %v, workload %+v", p, s.Rows[0].Workload)
	}
	for _, c := range Clients {
		if c.Stop == StopUnknown || !strings.Contains(c.Source, "@") {
			t.Errorf("client %s: stop %v, source %q (want a rule and a repository@commit citation)", c.Name, c.Stop, c.Source)
		}
	}
}
