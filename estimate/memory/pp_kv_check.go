package memory

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/vllm"
)

// CodePPKVCheck: a release whose start-up KV check counts every layer on
// every pipeline stage refuses a deployment whose stages fit.
const CodePPKVCheck = codes.EstPPKVCheck

// PPKVCheck is what the start-up check of a release with the whole-model
// bug (vllm.Release.PPKVCheckWholeModel: PR #29431 until PR #33698)
// demands under pipeline parallelism: vllm/v1/core/kv_cache_utils.py
// get_kv_cache_configs called _check_enough_kv_cache_memory with
// min(available_memory) over the workers against one max_model_len
// sequence of the whole model's KV-cache groups. WholeSeqBytes sums the
// stages' own one-sequence KV (per GPU: every stage is split over the same
// TP), which is the whole model's; a hybrid's global groups may pad a few
// layers more (not modelled).
type PPKVCheck struct {
	Presence vllm.Presence `json:"presence"`
	// WholeSeqBytes is one max_model_len sequence with every layer;
	// StageSeqBytes the largest one stage's own layers need.
	WholeSeqBytes int64 `json:"whole_seq_bytes"`
	StageSeqBytes int64 `json:"stage_seq_bytes"`
	// MinAvailableGiB is the smallest stage's KV memory (what vLLM passed).
	MinAvailableGiB float64 `json:"min_available_gib"`
	// Refuses: WholeSeqBytes > MinAvailableGiB.
	Refuses bool `json:"refuses"`
	// LargestMaxModelLen is the longest max_model_len the buggy check
	// passes (vLLM's own "estimated maximum model length" in its message:
	// _estimate_max_model_len_from_groups binary-searches the same sum).
	LargestMaxModelLen int               `json:"largest_max_model_len"`
	Bug                vllm.PPKVCheckBug `json:"bug"`
}

// ppKVCheck evaluates the whole-model check for the stages; nil when the
// release cannot have the bug or there is one stage.
func ppKVCheck(rel vllm.Release, stages []StageMemory, maxModelLen, block int) *PPKVCheck {
	if len(stages) < 2 || maxModelLen <= 0 {
		return nil
	}
	bug := rel.PPKVCheckWholeModel()
	if bug.Presence == vllm.Absent {
		return nil
	}
	whole := func(n int) int64 {
		var s int64
		for _, st := range stages {
			s += st.KV.SequenceBytes(n, block)
		}
		return s
	}
	p := &PPKVCheck{Presence: bug.Presence, Bug: bug, WholeSeqBytes: whole(maxModelLen)}
	p.MinAvailableGiB = stages[0].AvailableKVGiB
	for _, st := range stages {
		p.MinAvailableGiB = min(p.MinAvailableGiB, st.AvailableKVGiB)
		p.StageSeqBytes = max(p.StageSeqBytes, st.KV.SequenceBytes(maxModelLen, block))
	}
	avail := int64(max(p.MinAvailableGiB, 0) * GiB)
	p.Refuses = p.WholeSeqBytes > avail
	// Binary search over 1..maxModelLen, as vLLM's
	// _estimate_max_model_len_from_groups does (0 when one token fails).
	lo, hi := 0, maxModelLen
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if whole(mid) <= avail {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	p.LargestMaxModelLen = lo
	return p
}

// ppKVCheckFinding: where the per-stage model says one sequence fits but
// the release's whole-model check refuses it, an error (Present) or a
// warning (Maybe: the release may or may not have the bug) naming the
// bug, its span and the workarounds.
func ppKVCheckFinding(in *input.Input, m *Report) *diag.Diagnostic {
	p := m.PPKVCheck
	if p == nil || !p.Refuses || !m.Capacity.OneSequenceFits {
		return nil
	}
	rel := in.Release().Version.String()
	sev, verb, span := diag.Error, "refuses", fmt.Sprintf("confirmed in %s", p.Bug.ConfirmedSpan)
	if p.Presence == vllm.Maybe {
		sev, verb = diag.Warning, "may refuse"
		span = fmt.Sprintf("confirmed in %s, unverified for %s", p.Bug.ConfirmedSpan, rel)
	}
	layers := 0
	for _, st := range m.Stages {
		layers += st.Stage.Layers()
	}
	msg := fmt.Sprintf("vLLM %s %s to start at PP %d: its start-up check (get_kv_cache_configs, from PR %s) counts one max_model_len (%d) sequence with all %d layers, %.2f GiB, against the smallest stage's %.2f GiB of KV memory, though no stage's own layers need more than %.2f GiB; a known false refusal under pipeline parallelism (vllm-project/vllm#32105; %s; fixed by PR %s, first release with the fix: %s)",
		rel, verb, len(m.Stages), p.Bug.RegressionPR, in.MaxModelLen, layers, float64(p.WholeSeqBytes)/GiB, p.MinAvailableGiB, float64(p.StageSeqBytes)/GiB,
		span, p.Bug.FixPR, p.Bug.FixRelease)
	hint := fmt.Sprintf("use a release with PR %s (outside the span; first such release %s), or set max_model_len ≤ %d (what the whole-model check passes)",
		p.Bug.FixPR, p.Bug.FixRelease, p.LargestMaxModelLen)
	return &diag.Diagnostic{Code: CodePPKVCheck, Severity: sev, Path: "workload.max_model_len", Message: msg, Hint: hint}
}

// UsePPKVCheck turns on the model of the whole-model start-up check
// (ppKVCheck). On: vLLM's code at the affected releases and two public
// logs show it; the switch lets the integrator drop it if it proves noisy.
var UsePPKVCheck = true
