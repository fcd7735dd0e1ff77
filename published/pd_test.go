package published

import (
	"strings"
	"testing"
)

// The embedded P/D file parses strictly and validates; issue #24 asks for
// at least three published P/D runs, some held out.
func TestEmbeddedPDIsValid(t *testing.T) {
	s, err := PD()
	if err != nil {
		t.Fatal(err)
	}
	targets, held := 0, 0
	for _, r := range s.Rows {
		if r.Targetable() {
			targets++
			if r.Split == SplitHoldout {
				held++
			}
		}
	}
	if targets < 3 || held < 1 {
		t.Errorf("%d targetable P/D rows, %d held out; want at least 3 and 1", targets, held)
	}
}

// Validation catches what a reproduction needs: a pool's layout, the NICs
// when the KV crosses nodes, a source listed with the row's split.
func TestPDProblems(t *testing.T) {
	s, err := PD()
	if err != nil {
		t.Fatal(err)
	}
	base := s.Rows[0]
	var srcs []Source // the base row's source alone: the others would have no rows
	for _, src := range s.Sources {
		if src.ID == base.Source {
			srcs = append(srcs, src)
		}
	}
	rate := func(r *PDRow) {
		r.Load = Load{Kind: LoadConstantRate, RequestRatePerS: N(45), NumPrompts: N(5400)}
	}
	for name, c := range map[string]struct {
		edit func(*PDRow)
		want string
	}{
		"decode tp unknown":        {func(r *PDRow) { r.Decode.TP = Num{} }, "decode.tp must be a known positive number"},
		"NICs half known":          {func(r *PDRow) { r.Hardware.SameNode = Flag{V: false, Known: true}; r.Hardware.NICsPerNode = Num{} }, "known together or not at all"},
		"constant rate, no count":  {func(r *PDRow) { rate(r); r.Load.NumPrompts = Num{} }, "constant-rate needs load.request_rate_per_s and load.num_prompts"},
		"constant rate, no length": {func(r *PDRow) { rate(r); r.Workload.OutputTokens = Num{} }, "constant-rate needs input and output lengths"},
		"load kind":                {func(r *PDRow) { r.Load.Kind = "uniform" }, `load.kind "uniform" is unknown`},
		"split":                    {func(r *PDRow) { r.Split = SplitHoldout }, "differs from its source's"},
		"pool too big":             {func(r *PDRow) { r.Hardware.SameNode = Flag{V: false, Known: true}; r.Prefill.Instances = N(3) }, "do not fit"},
		"ep":                       {func(r *PDRow) { r.Prefill.EP = N(3) }, "prefill.ep 3 is neither 1 nor"},
		"no connector":             {func(r *PDRow) { r.Connector = "" }, "no connector"},
		"colocated GPUs":           {func(r *PDRow) { c := *r.Colocated; c.Instances = N(3); r.Colocated = &c }, "colocated runs 12 GPUs"},
		"pool connector spelling":  {func(r *PDRow) { r.Decode.KVConnector = "NixlConnector" }, `decode.kv_connector "NixlConnector": only "none"`},
		"prefill without one":      {func(r *PDRow) { r.Prefill.KVConnector = KVConnectorNone }, "a prefill pool without a connector"},
	} {
		r := base
		c.edit(&r)
		bad := PDSet{Schema: PDSchema, Sources: srcs, Rows: []PDRow{r}}
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	// Incomplete rows are kept but not checked for a reproduction's needs.
	r := base
	r.Decode.TP, r.Incomplete = Num{}, "layout not stated"
	if err := (&PDSet{Schema: PDSchema, Sources: srcs, Rows: []PDRow{r}}).Validate(); err != nil {
		t.Errorf("incomplete row: %v", err)
	}
	// A decode pool launched without a connector is a valid row.
	r = base
	r.Decode.KVConnector = KVConnectorNone
	if err := (&PDSet{Schema: PDSchema, Sources: srcs, Rows: []PDRow{r}}).Validate(); err != nil || !r.Decode.NoConnector() {
		t.Errorf("decode without a connector: %v", err)
	}
	// A constant rate with its parameters, and pools on different nodes
	// whose NICs the source does not state (check's default fabric), are
	// targetable.
	r = base
	rate(&r)
	r.Hardware.SameNode = Flag{V: false, Known: true}
	r.Hardware.NICsPerNode, r.Hardware.InterNodeGbitPerNIC = Num{}, Num{}
	if err := (&PDSet{Schema: PDSchema, Sources: srcs, Rows: []PDRow{r}}).Validate(); err != nil {
		t.Errorf("constant rate, NICs unknown: %v", err)
	}
}

// Unknown keys and a second document are errors.
func TestParsePDStrict(t *testing.T) {
	if _, err := ParsePD([]byte("schema: x\nrows: []\nbogus: 1\n")); err == nil {
		t.Error("unknown key accepted")
	}
	if _, err := ParsePD([]byte("schema: x\n---\nschema: y\n")); err == nil {
		t.Error("second document accepted")
	}
	if _, err := ParsePD(nil); err == nil {
		t.Error("empty file accepted")
	}
}

func FuzzParsePD(f *testing.F) {
	f.Add(pdYAML[:4096])
	f.Add([]byte("schema: vlaunch/calibration-pd/v1\nrows: [{id: a, prefill: {tp: unknown}, colocated: {instances: 2}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParsePD(data)
		if err == nil {
			_ = s.Problems() // must not panic on any parsed input
		}
	})
}
