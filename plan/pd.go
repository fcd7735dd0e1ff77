package plan

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/spec"
)

// PDSettings are the pools of a prefill/decode candidate (issue #24): what
// `disaggregation:` writes. Weights and the KV-cache dtype stay the
// candidate's top-level Settings (both pools share them: NIXL moves the KV
// as it is stored); every other top-level setting is the spec's.
type PDSettings struct {
	Prefill PoolSettings `json:"prefill"`
	Decode  PoolSettings `json:"decode"`
	// RouterPort and EnginePort, when set, are the router's port and the
	// engines' vllm.port a colocated spec's candidate moves to: clients
	// keep talking to the port they used (now the router's), the engines
	// move 100 up, as the P/D example arranges them.
	RouterPort int `json:"router_port,omitempty"`
	EnginePort int `json:"engine_port,omitempty"`
}

// PoolSettings is one pool: instances of one layout on its nodes (whole
// nodes, or its share of a node the other pool also names), and
// the engine settings plan varies per pool ("" and 0: the top-level
// value).
type PoolSettings struct {
	Nodes               []string `json:"nodes"`
	Instances           int      `json:"instances"`
	TP                  int      `json:"tp"`
	PP                  int      `json:"pp"`
	DP                  int      `json:"dp"`
	EP                  bool     `json:"ep"`
	All2All             string   `json:"all2all_backend,omitempty"`
	MaxNumSeqs          int      `json:"max_num_seqs,omitempty"`
	MaxNumBatchedTokens int      `json:"max_num_batched_tokens,omitempty"`
}

// Shape is the candidate's arrangement: "colocated", or "xP+yD" for x
// prefill and y decode instances.
func (s Settings) Shape() string {
	if s.PD == nil {
		return "colocated"
	}
	return fmt.Sprintf("%dP+%dD", s.PD.Prefill.Instances, s.PD.Decode.Instances)
}

// layout words one pool's layout.
func (p PoolSettings) layout() string {
	return fmt.Sprintf("TP %d · PP %d · DP %d · EP %s", p.TP, p.PP, p.DP, textfmt.OnOff(p.EP))
}

// String is one pool in a line: its layout, nodes and engine overrides.
func (p PoolSettings) String() string {
	parts := []string{fmt.Sprintf("%d × %s · nodes %s", p.Instances, p.layout(), strings.Join(p.Nodes, ","))}
	if p.All2All != "" {
		parts = append(parts, "all2all "+p.All2All)
	}
	if p.MaxNumSeqs > 0 {
		parts = append(parts, fmt.Sprintf("max_num_seqs %d", p.MaxNumSeqs))
	}
	if p.MaxNumBatchedTokens > 0 {
		parts = append(parts, fmt.Sprintf("max_num_batched_tokens %d", p.MaxNumBatchedTokens))
	}
	return strings.Join(parts, " · ")
}

// pdString is a P/D candidate in one line, its speculative decoding
// named when the spec enables it: both pools run the spec's (toSpec keeps
// vllm.speculative, which each pool's vllm inherits), and a line without
// it read as if P/D dropped it.
func (s Settings) pdString() string {
	out := fmt.Sprintf("P/D %s · prefill %s · decode %s · weights %s · KV %s", s.Shape(), s.PD.Prefill, s.PD.Decode, s.Weights, s.KVCacheDType)
	if w := s.specWords(); w != "" {
		out += " · " + w
	}
	return out
}

// tuned counts the pool settings moved off the top-level values.
func (p *PDSettings) tuned() int {
	n := 0
	for _, q := range []PoolSettings{p.Prefill, p.Decode} {
		for _, moved := range []bool{q.All2All != "", q.MaxNumSeqs > 0, q.MaxNumBatchedTokens > 0} {
			if moved {
				n++
			}
		}
	}
	return n
}

// groupKey is what a P/D group shares: the node split and both layouts
// (the backends and scheduler limits are its tuning).
func (p *PDSettings) groupKey() string {
	return fmt.Sprintf("%d|%s|%d|%d|%s|%d", len(p.Prefill.Nodes), p.Prefill.layout(), p.Prefill.Instances, len(p.Decode.Nodes), p.Decode.layout(), p.Decode.Instances)
}

// pool returns the spec pool of p with base's other engine overrides
// (a P/D spec's pool keeps what plan does not vary).
func (p PoolSettings) pool(base spec.Pool) spec.Pool {
	out := base
	out.Nodes = append([]string(nil), p.Nodes...)
	out.Instances = p.Instances
	out.Parallelism = spec.PoolParallelism{Tensor: p.TP, Pipeline: p.PP, Data: p.DP, Expert: p.EP}
	out.VLLM.All2AllBackend = optStr(p.All2All)
	out.VLLM.MaxNumSeqs, out.VLLM.MaxNumBatchedTokens = optInt(p.MaxNumSeqs), optInt(p.MaxNumBatchedTokens)
	return out
}

func optStr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// withPD writes the pools into c (a copy of the defaulted spec): the
// disaggregation block (the spec's own connector, transport and router
// when it has one; NIXL over UCX and the vLLM router on the first prefill
// node otherwise), no top-level layout.
func (p *PDSettings) withPD(c *spec.Deployment) {
	var g spec.Disaggregation
	if c.Disaggregation != nil {
		g = *c.Disaggregation
	} else {
		g = spec.Disaggregation{Connector: pdConnector, Router: spec.Router{Kind: spec.RouterKindVLLM}}
	}
	g.Prefill, g.Decode = p.Prefill.pool(g.Prefill), p.Decode.pool(g.Decode)
	if p.RouterPort > 0 {
		g.Router.Port = p.RouterPort
	}
	// The router stays on a CPU-only host of its own (gpus: 0): no pool
	// can take that node.
	if !g.Router.LLMD() && !c.GPULess(g.Router.Node) && (!containsName(p.Prefill.Nodes, g.Router.Node) && !containsName(p.Decode.Nodes, g.Router.Node) || g.Router.Node == "") {
		g.Router.Node = p.Prefill.Nodes[0]
	}
	if p.EnginePort > 0 {
		c.VLLM.Port = p.EnginePort
	}
	c.Disaggregation = &g
	c.Parallelism = spec.Parallelism{}
}

// pdConnector is the connector a colocated spec's P/D candidate writes:
// NIXL, the one vlaunch's P/D model and generator know (its short form,
// as the P/D example writes it).
const pdConnector = "nixl"

func containsName(names []string, n string) bool {
	for _, x := range names {
		if x == n {
			return true
		}
	}
	return false
}

// PDFigures are a P/D candidate's figures beyond a colocated one's: each
// pool's share and load, the hand-off, and the mean TTFT by part at the
// workload's input length (from its simulation, or the bound's floors).
type PDFigures struct {
	PrefillGPUs int `json:"prefill_gpus"`
	DecodeGPUs  int `json:"decode_gpus"`
	// PrefillAll2All and DecodeAll2All are the backends that run in each
	// pool ("" where no all-to-all runs).
	PrefillAll2All string `json:"prefill_all2all_in_effect,omitempty"`
	DecodeAll2All  string `json:"decode_all2all_in_effect,omitempty"`
	// Binding is the part that binds the request rate (prefill pool,
	// decode pool, KV transfer); the utilisations are the rate over each
	// pool's capacity.
	Binding            string  `json:"binding"`
	PrefillUtilization float64 `json:"prefill_utilization"`
	DecodeUtilization  float64 `json:"decode_utilization"`
	// TTFT's mean by part: the prefill queue, the prefill, the KV
	// transfer, the decode pool's admission queue (the wait for a slot and
	// KV blocks there: a queue, not a step — qa44b F15 read 897 s of it as
	// "D first step"), the decode step that emits the first token, and
	// the rest (router hops, API servers).
	PrefillQueueS float64 `json:"prefill_queue_s"`
	PrefillS      float64 `json:"prefill_s"`
	TransferS     float64 `json:"transfer_s"`
	DecodeAdmitS  float64 `json:"decode_admission_s"`
	FirstDecodeS  float64 `json:"first_decode_step_s"`
	OtherS        float64 `json:"other_s"`
	// TransferMB is one request's KV pulled over the link.
	TransferMB float64 `json:"transfer_mb_per_request"`
	// LeaseFits is false when the prefill pool's KV cannot hold the
	// prompts waiting to be pulled.
	LeaseFits bool `json:"kv_lease_fits"`
}

// PDSummary says what plan did about prefill/decode disaggregation.
type PDSummary struct {
	// Tried is whether P/D candidates were enumerated; NotTried says why
	// not.
	Tried    bool   `json:"tried"`
	NotTried string `json:"not_tried,omitempty"`
	// Candidates counts the P/D candidates bounded, Simulated those
	// simulated.
	Candidates int `json:"candidates,omitempty"`
	Simulated  int `json:"simulated,omitempty"`
	// RefusedPools counts the pool choices skipped before pairing because
	// resolve or validate refuses them (poolRefused: validate's own check
	// of a pool's engine), by reason: none of their pairs is a candidate.
	RefusedPools   int      `json:"refused_pools,omitempty"`
	RefusedBecause []Reason `json:"refused_pools_because,omitempty"`
	// RefusedPairs counts the P/D candidates (of pools that are not
	// refused) skipped because validation or the generator refuses the
	// spec they write (pdVerified: a rule on the pair, SPEC127/SPEC128 …),
	// by reason; 0 when plan has no spec source to verify against.
	RefusedPairs        int      `json:"refused_pairs,omitempty"`
	RefusedPairsBecause []Reason `json:"refused_pairs_because,omitempty"`
	// NoPay says, in one line with the figures, why the best P/D
	// candidate ranks below the best colocated one ("" when P/D wins or
	// was not tried).
	NoPay string `json:"does_not_pay,omitempty"`
	// Notes are what the P/D side of the plan leaves out.
	Notes []string `json:"notes,omitempty"`
}
