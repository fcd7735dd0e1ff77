package published

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"
)

//go:embed pd.yaml
var pdYAML []byte

var (
	pdOnce   sync.Once
	pdLoaded *PDSet
	pdErr    error
)

// PD parses and validates the embedded prefill/decode data (pd.yaml) once;
// every caller shares the result, which it must not modify.
func PD() (*PDSet, error) {
	pdOnce.Do(func() {
		pdLoaded, pdErr = ParsePD(pdYAML)
		if pdErr == nil {
			pdErr = pdLoaded.Validate()
		}
	})
	return pdLoaded, pdErr
}

// PDSchema is the value of pd.yaml's schema key this package reads.
const PDSchema = "vlaunch/calibration-pd/v1"

// LoadConstantRate is a load kind of P/D rows only: RequestRatePerS
// requests a second, NumPrompts in all, sent at the rate by the client's
// own arrival process, which the row's source states: inference-perf's
// load type "constant" (llm-d's benchmark harness) draws exponential gaps
// rescaled to the stage's duration (ConstantLoadTimer, load_timer.py since
// 7424b86) — Poisson despite its name —, vLLM's --burstiness B gamma gaps
// of shape B. The replay's per-source table (estimate/pd/replay_test.go)
// gives each source's process. Throughput rows have no such run.
const LoadConstantRate = "constant-rate"

// pdLoadKinds are the load kinds a P/D row may have: throughput.yaml's and
// the constant rate.
var pdLoadKinds = func() map[string]bool {
	m := set(LoadConstantRate)
	for k := range loadKinds {
		m[k] = true
	}
	return m
}()

// PDSet is the parsed prefill/decode data file (pd.yaml): published runs
// of disaggregated deployments, each with both pools' layouts and the
// figures the client measured through the router.
type PDSet struct {
	Schema  string   `yaml:"schema"`
	Sources []Source `yaml:"sources"`
	Rows    []PDRow  `yaml:"rows"`
}

// PDRow is one benchmark run of one disaggregated deployment. The figures
// are the whole deployment's, as the client measured them through the
// router (TTFT includes prefill, the hand-off and the first decode step).
type PDRow struct {
	ID     string `yaml:"id"`
	Source string `yaml:"source"`
	Split  string `yaml:"split"`
	// Where locates the figures in the source (file, table, line).
	Where  string `yaml:"where"`
	Engine Engine `yaml:"engine"`
	Model  Model  `yaml:"model"`
	// Hardware is the GPU model and the nodes' fabric, shared by both pools.
	Hardware PDHardware `yaml:"hardware"`
	// Connector is the KV connector and its transport ("NixlConnector
	// (UCX)").
	Connector string `yaml:"connector"`
	// Router is what sent each request to a prefill and a decode instance.
	Router   string   `yaml:"router"`
	Prefill  PDPool   `yaml:"prefill"`
	Decode   PDPool   `yaml:"decode"`
	Workload Workload `yaml:"workload"`
	Load     Load     `yaml:"load"`
	Figures  Figures  `yaml:"figures"`
	// Colocated is the source's own colocated run of the same GPUs under
	// the same client and load, when it published one: what check's
	// comparison predicts, and a reading of the step model's error apart
	// from the P/D composition's.
	Colocated *PDColocated `yaml:"colocated"`
	// Inferred lists fields (dotted paths) derived rather than read.
	Inferred []string `yaml:"inferred"`
	// Incomplete says what a reproduction would need that the source does
	// not give; such rows are kept for reference and never targeted.
	Incomplete string `yaml:"incomplete"`
	Confidence string `yaml:"confidence"`
	Notes      string `yaml:"notes"`
}

// PDHardware is the GPUs and fabric of a disaggregated deployment.
type PDHardware struct {
	// GPU is a vlaunch catalog GPU id.
	GPU         string `yaml:"gpu"`
	GPUName     string `yaml:"gpu_name"`
	GPUsPerNode Num    `yaml:"gpus_per_node"`
	IntraNode   string `yaml:"intra_node"`
	// InterNode describes the NICs: "N x M Gbit/s per node" when stated.
	InterNode string `yaml:"inter_node"`
	// InterNodeGbitPerNIC and NICsPerNode are the NICs in numbers, when the
	// source (or the instance type it names) states them.
	InterNodeGbitPerNIC Num `yaml:"inter_node_gbit_per_nic"`
	NICsPerNode         Num `yaml:"nics_per_node"`
	// SameNode is true when the two pools share one node (the KV moves
	// within it, over NVLink / CUDA IPC), false when they sit on different
	// nodes (the KV crosses the NICs).
	SameNode Flag `yaml:"same_node"`
}

// PDPool is one pool of a disaggregated run: Instances independent
// engines of the layout TP x PP x DP on Nodes nodes in all.
type PDPool struct {
	Instances Num `yaml:"instances"`
	Nodes     Num `yaml:"nodes"`
	TP        Num `yaml:"tp"`
	PP        Num `yaml:"pp"`
	DP        Num `yaml:"dp"`
	// EP is the expert-parallel size (1: experts tensor-sharded).
	EP Num `yaml:"ep"`
	// BlockSize is the pool's --block-size when the source sets it (the
	// KV block NIXL moves; unknown: the release's default).
	BlockSize Num `yaml:"block_size"`
	// KVConnector is "none" when the source launched the pool's engines
	// without --kv-transfer-config though the row's connector joins the
	// pools (a decode engine then computes every prompt itself); empty:
	// the pool runs the row's connector.
	KVConnector string   `yaml:"kv_connector"`
	Features    Features `yaml:"features"`
}

// KVConnectorNone is PDPool.KVConnector's value for a pool launched
// without a KV connector.
const KVConnectorNone = "none"

// NoConnector reports whether the pool's engines ran without a KV
// connector (KVConnectorNone).
func (p PDPool) NoConnector() bool { return p.KVConnector == KVConnectorNone }

// PDColocated is a colocated run beside a P/D run: Instances independent
// engines of TP × PP × DP on the same GPUs.
type PDColocated struct {
	// Where locates its figures in the source.
	Where     string  `yaml:"where"`
	Instances Num     `yaml:"instances"`
	TP        Num     `yaml:"tp"`
	PP        Num     `yaml:"pp"`
	DP        Num     `yaml:"dp"`
	EP        Num     `yaml:"ep"`
	Figures   Figures `yaml:"figures"`
}

// GPUs is the pool's GPUs: instances × TP × PP × DP (0 when unknown).
func (p PDPool) GPUs() int {
	if !p.Instances.Positive() || !p.TP.Positive() || !p.PP.Positive() || !p.DP.Positive() {
		return 0
	}
	return p.Instances.Int() * p.TP.Int() * p.PP.Int() * p.DP.Int()
}

// Targetable reports whether the row has what a reproduction needs.
func (r PDRow) Targetable() bool { return r.Incomplete == "" }

// ParsePD decodes a P/D data file strictly (unknown keys, a second YAML
// document and numbers written as anything but a number or "unknown" are
// errors). It does not validate the rows (PDSet.Validate).
func ParsePD(data []byte) (*PDSet, error) {
	var s PDSet
	if err := decodeStrict(data, "P/D calibration data", &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// Validate checks the whole set and returns every problem found, joined.
func (s *PDSet) Validate() error {
	if p := s.Problems(); len(p) > 0 {
		return errors.New(strings.Join(p, "\n"))
	}
	return nil
}

// Problems lists what is wrong with the set: schema, ids, sources without
// a citation, rows whose split differs from their source's, and targetable
// rows without what a reproduction needs (both pools' layouts, the fabric
// when the pools sit on different nodes, the load's parameters).
func (s *PDSet) Problems() []string {
	var p []string
	if s.Schema != PDSchema {
		p = append(p, fmt.Sprintf("schema is %q, want %q", s.Schema, PDSchema))
	}
	srcSplit := map[string]string{}
	for _, src := range s.Sources {
		p = append(p, sourceProblems(src, srcSplit)...)
		srcSplit[src.ID] = src.Split
	}
	seen, used := map[string]bool{}, map[string]bool{}
	for _, r := range s.Rows {
		if seen[r.ID] {
			p = append(p, fmt.Sprintf("row %s: duplicate id", r.ID))
		}
		seen[r.ID], used[r.Source] = true, true
		for _, msg := range pdRowProblems(r, srcSplit) {
			p = append(p, fmt.Sprintf("row %s: %s", r.ID, msg))
		}
	}
	for _, src := range s.Sources {
		if !used[src.ID] {
			p = append(p, fmt.Sprintf("source %s: no rows", src.ID))
		}
	}
	if len(s.Rows) == 0 {
		p = append(p, "no rows")
	}
	return p
}

func pdRowProblems(r PDRow, srcSplit map[string]string) []string {
	var p []string
	if !idPattern.MatchString(r.ID) {
		p = append(p, "id must match "+idPattern.String())
	}
	p = append(p, rowSourceProblems(r.Source, r.Split, srcSplit)...)
	for field, v := range map[string]string{"where": r.Where, "engine.name": r.Engine.Name, "model.id": r.Model.ID,
		"hardware.gpu": r.Hardware.GPU, "connector": r.Connector} {
		if strings.TrimSpace(v) == "" {
			p = append(p, "no "+field)
		}
	}
	if !confidences[r.Confidence] {
		p = append(p, fmt.Sprintf("confidence %q is not high, medium or low", r.Confidence))
	}
	if !pdLoadKinds[r.Load.Kind] {
		p = append(p, fmt.Sprintf("load.kind %q is unknown", r.Load.Kind))
	}
	if !r.Figures.any() {
		p = append(p, "no figures")
	}
	if r.Targetable() {
		p = append(p, pdNeeds(r)...)
	}
	for role, pool := range map[string]PDPool{"prefill": r.Prefill, "decode": r.Decode} {
		if c := pool.KVConnector; c != "" && c != KVConnectorNone {
			p = append(p, fmt.Sprintf("%s.kv_connector %q: only %q is written (empty: the row's connector)", role, c, KVConnectorNone))
		}
	}
	if r.Prefill.NoConnector() {
		p = append(p, "prefill.kv_connector none: a prefill pool without a connector hands nothing off (not a P/D run)")
	}
	return p
}

// pdNeeds lists what a targetable row lacks: a catalog model, both pools'
// layouts on whole nodes, the fabric's NICs given whole (both or neither:
// a row whose source does not state them is replayed on check's default
// fabric, as check runs a spec without one), and its load's parameters
// (the colocated rules of needs.go; a constant rate needs its rate and
// count).
func pdNeeds(r PDRow) []string {
	var p []string
	h := r.Hardware
	if h.GPU == Unknown || r.Model.Catalog == "" || r.Model.Catalog == Unknown {
		return []string{"hardware.gpu and model.catalog must be known (or mark the row incomplete)"}
	}
	if !h.GPUsPerNode.Positive() || !h.SameNode.Known {
		return []string{"hardware.gpus_per_node and hardware.same_node must be known (or mark the row incomplete)"}
	}
	if h.InterNodeGbitPerNIC.Positive() != h.NICsPerNode.Positive() {
		p = append(p, "hardware.inter_node_gbit_per_nic and hardware.nics_per_node are known together or not at all")
	}
	for role, pool := range map[string]PDPool{"prefill": r.Prefill, "decode": r.Decode} {
		p = append(p, poolNeeds(role, pool, h, h.SameNode.V)...)
	}
	if r.Load.Kind == LoadConstantRate {
		l, w := r.Load, r.Workload
		if !l.RequestRatePerS.Positive() || !l.NumPrompts.Positive() {
			p = append(p, "load constant-rate needs load.request_rate_per_s and load.num_prompts")
		}
		if !(w.InputTokens.Positive() || w.InputTokensMean.Positive()) || !(w.OutputTokens.Positive() || w.OutputTokensMean.Positive()) {
			p = append(p, "load constant-rate needs input and output lengths")
		}
	} else {
		p = append(p, loadNeeds(Row{Workload: r.Workload, Load: r.Load, Figures: r.Figures})...)
	}
	if c := r.Colocated; c != nil {
		p = append(p, colocatedNeeds(*c, r.Prefill.GPUs()+r.Decode.GPUs())...)
	}
	return p
}

// colocatedNeeds checks a colocated baseline: its own citation and
// figures, a known layout on the P/D run's GPUs.
func colocatedNeeds(c PDColocated, gpus int) []string {
	var p []string
	if strings.TrimSpace(c.Where) == "" {
		p = append(p, "no colocated.where")
	}
	if !c.Figures.any() {
		p = append(p, "colocated: no figures")
	}
	pool := PDPool{Instances: c.Instances, Nodes: N(1), TP: c.TP, PP: c.PP, DP: c.DP, EP: c.EP}
	if n := pool.GPUs(); n != gpus {
		p = append(p, fmt.Sprintf("colocated runs %d GPUs (instances x tp x pp x dp, all known), the P/D pools %d", n, gpus))
	}
	return p
}

func poolNeeds(role string, pool PDPool, h PDHardware, same bool) []string {
	for name, n := range map[string]Num{"instances": pool.Instances, "nodes": pool.Nodes, "tp": pool.TP, "pp": pool.PP, "dp": pool.DP, "ep": pool.EP} {
		if !n.Positive() {
			return []string{fmt.Sprintf("%s.%s must be a known positive number (or mark the row incomplete)", role, name)}
		}
	}
	var p []string
	if per := pool.GPUs(); !same && per > pool.Nodes.Int()*h.GPUsPerNode.Int() {
		p = append(p, fmt.Sprintf("%s: %d GPUs do not fit %s nodes of %s", role, per, pool.Nodes, h.GPUsPerNode))
	}
	if pool.EP.V != 1 && pool.EP.V != pool.TP.V*pool.DP.V {
		p = append(p, fmt.Sprintf("%s.ep %s is neither 1 nor tp x dp = %g", role, pool.EP, pool.TP.V*pool.DP.V))
	}
	return p
}
