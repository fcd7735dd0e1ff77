package plan

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// Settings is one candidate: the values plan varies, as a spec writes them.
// Everything else (model, hosts, network, workload, SLO, runtime, the rest
// of vllm) is the spec's.
type Settings struct {
	TP int  `json:"tp"`
	PP int  `json:"pp"`
	DP int  `json:"dp"`
	EP bool `json:"ep"`
	// Replicas is parallelism.replicas: independent copies of the layout
	// behind a load balancer (0 or 1: one).
	Replicas int `json:"replicas,omitempty"`
	// Weights is model.weights ("auto": what the checkpoint ships).
	Weights string `json:"weights"`
	// KVCacheDType is vllm.kv_cache_dtype: "auto" or "fp8".
	KVCacheDType string `json:"kv_cache_dtype"`
	// All2All is vllm.all2all_backend ("auto" or a backend the release has).
	All2All string `json:"all2all_backend"`
	// DBO is vllm.enable_dbo.
	DBO bool `json:"enable_dbo"`
	// MaxNumSeqs and MaxNumBatchedTokens are the scheduler limits; 0 leaves
	// the release's default.
	MaxNumSeqs          int `json:"max_num_seqs,omitempty"`
	MaxNumBatchedTokens int `json:"max_num_batched_tokens,omitempty"`
	// Speculative is vllm.speculative.method, "off" for a candidate that
	// turns off the speculative decoding the spec enables, "" when the
	// spec enables none; SpecTokens is num_speculative_tokens.
	Speculative string `json:"speculative,omitempty"`
	SpecTokens  int    `json:"num_speculative_tokens,omitempty"`
	// PD, when set, makes the candidate prefill/decode disaggregated: its
	// pools replace the layout (TP..Replicas are then zero) and the
	// backend and scheduler limits per pool; the top-level fields keep the
	// spec's values (Apply leaves them).
	PD *PDSettings `json:"disaggregation,omitempty"`
	// Nodes, when set, names the hardware.nodes the candidate runs on,
	// comma-separated, the spec's first ones (--objective fewest-gpus);
	// "": all of them. Apply keeps only these in the spec. (A string:
	// Settings is a map key.)
	Nodes string `json:"nodes,omitempty"`
}

// specSettings reads the settings a spec asks for (its layout as resolved,
// `parallelism: auto` after the search).
func specSettings(d *resolve.Deployment) Settings {
	v := d.Spec.VLLM
	s := Settings{TP: d.Layout.TP, PP: d.Layout.PP, DP: d.Layout.DP, EP: d.Layout.EP, Replicas: oneIsZero(d.Layout.ReplicaCount()),
		Weights: orAuto(d.Spec.Model.Weights), KVCacheDType: kvWord(v.KVCacheDType), All2All: orAuto(v.All2AllBackend), DBO: v.EnableDBO}
	if v.MaxNumSeqs != nil {
		s.MaxNumSeqs = *v.MaxNumSeqs
	}
	if v.MaxNumBatchedTokens != nil {
		s.MaxNumBatchedTokens = *v.MaxNumBatchedTokens
	}
	if sp := v.Speculative; sp != nil {
		s.Speculative, s.SpecTokens = sp.Method, sp.NumSpeculativeTokens
	}
	return s
}

// oneIsZero writes one replica as 0, as a spec leaves replicas out.
func oneIsZero(r int) int {
	if r <= 1 {
		return 0
	}
	return r
}

func orAuto(s string) string {
	if s == "" {
		return "auto"
	}
	return s
}

// kvWord folds the fp8 spellings (fp8_e4m3, ...) into "fp8": they store one
// byte per value alike, so plan treats them as one choice.
func kvWord(s string) string {
	if strings.HasPrefix(strings.ToLower(s), "fp8") {
		return "fp8"
	}
	return orAuto(s)
}

// toSpec returns a copy of the defaulted spec d with s written in; the
// copy shares nothing mutable with d.
func (s Settings) toSpec(d *spec.Deployment) *spec.Deployment {
	c := *d
	if s.PD != nil {
		c.Model.Weights = s.Weights
		c.VLLM.KVCacheDType = s.KVCacheDType
		s.PD.withPD(&c)
		return &c
	}
	c.Disaggregation = nil
	c.Hardware.Nodes = d.GPUNodes() // a P/D router's CPU-only host runs no engine
	c.Parallelism = spec.Parallelism{Tensor: s.TP, Pipeline: s.PP, Data: s.DP, Expert: s.EP, Replicas: s.Replicas}
	c.Model.Weights = s.Weights
	c.VLLM.KVCacheDType, c.VLLM.All2AllBackend, c.VLLM.EnableDBO = s.KVCacheDType, s.All2All, s.DBO
	c.VLLM.MaxNumSeqs, c.VLLM.MaxNumBatchedTokens = optInt(s.MaxNumSeqs), optInt(s.MaxNumBatchedTokens)
	s.withSpeculative(&c)
	return &c
}

func optInt(v int) *int {
	if v <= 0 {
		return nil
	}
	return &v
}

// Layout names the parallel layout as the check report does.
func (s Settings) Layout() string {
	if s.PD != nil {
		return fmt.Sprintf("P/D %s: prefill %s, decode %s", s.Shape(), s.PD.Prefill.layout(), s.PD.Decode.layout())
	}
	l := fmt.Sprintf("TP %d · PP %d · DP %d · EP %s", s.TP, s.PP, s.DP, textfmt.OnOff(s.EP))
	if s.Replicas > 1 {
		l += fmt.Sprintf(" × %d replicas", s.Replicas)
	}
	return l
}

// String is the whole candidate in one line: the layout, then every
// engine setting that is not left to its default.
func (s Settings) String() string {
	if s.Nodes != "" {
		t := s
		t.Nodes = ""
		return t.String() + " · on nodes " + s.Nodes
	}
	if s.PD != nil {
		return s.pdString()
	}
	parts := []string{s.Layout(), "weights " + s.Weights, "KV " + s.KVCacheDType}
	if s.All2All != "auto" {
		parts = append(parts, "all2all "+s.All2All)
	}
	if s.DBO {
		parts = append(parts, "DBO")
	}
	if s.MaxNumSeqs > 0 {
		parts = append(parts, fmt.Sprintf("max_num_seqs %d", s.MaxNumSeqs))
	}
	if s.MaxNumBatchedTokens > 0 {
		parts = append(parts, fmt.Sprintf("max_num_batched_tokens %d", s.MaxNumBatchedTokens))
	}
	if w := s.specWords(); w != "" {
		parts = append(parts, w)
	}
	return strings.Join(parts, " · ")
}

// Full is String with the release's defaults it leaves out named (the
// scheduler limits; with EP, the all-to-all backend and DBO), so a candidate that
// differs from a listed one only by a default reads differently.
func (s Settings) Full() string {
	if s.PD != nil {
		return s.String()
	}
	parts := []string{s.String()}
	if s.EP && s.All2All == "auto" { // the backend and DBO run with expert parallelism
		parts = append(parts, "all2all auto")
	}
	if s.EP && !s.DBO {
		parts = append(parts, "DBO off")
	}
	if s.MaxNumSeqs == 0 {
		parts = append(parts, "max_num_seqs the release's default")
	}
	if s.MaxNumBatchedTokens == 0 {
		parts = append(parts, "max_num_batched_tokens the release's default")
	}
	return strings.Join(parts, " · ")
}

// tuned counts the engine settings moved off their defaults.
func (s Settings) tuned() int {
	if s.PD != nil {
		return s.PD.tuned()
	}
	n := 0
	for _, moved := range []bool{s.All2All != "auto", s.DBO, s.MaxNumSeqs > 0, s.MaxNumBatchedTokens > 0} {
		if moved {
			n++
		}
	}
	return n
}

// group is what the top list shows once: a layout with its weight and KV
// formats; the best tuning of each (backend, DBO, scheduler limits) stands
// for it.
type group struct {
	TP, PP, DP, Replicas int
	EP                   bool
	Weights, KV          string
	// PD is a P/D candidate's split and layouts (PDSettings.groupKey).
	PD string
}

func (s Settings) group() group {
	if s.PD != nil {
		return group{PD: s.PD.groupKey(), Weights: s.Weights, KV: s.KVCacheDType}
	}
	return group{TP: s.TP, PP: s.PP, DP: s.DP, Replicas: s.Replicas, EP: s.EP, Weights: s.Weights, KV: s.KVCacheDType}
}
