package logs

import (
	"fmt"
	"math"
	"strings"

	"github.com/vlaunch/vlaunch/vllm"
)

// Calibration targets of docs/calibration-memory.md: a logged-vs-predicted
// difference within its target is what vlaunch's estimator is held to; a
// larger one must be explained.
const (
	TargetWeights   = 0.03 // weights per GPU
	TargetKVTokens  = 0.01 // KV tokens (and max concurrency) from the logged available memory
	TargetAvailable = 0.10 // available KV memory
)

// gib is 2^30 bytes, the unit vLLM's figures use.
const gib = 1 << 30

// Prediction is vlaunch's estimate for the spec, per GPU of the first
// pipeline stage (the rank whose lines vLLM's driver prints), with the
// settings it assumed. The caller fills it from the estimator.
type Prediction struct {
	// ModelNames are the names the spec's model goes by (catalog id and
	// repo, model.path, model.served_name): a log of another model is said
	// to be one before any figure is explained.
	ModelNames                                  []string
	Version                                     string
	TP, PP, DP                                  int
	DeviceGiB, Utilization                      float64
	MaxModelLen, MaxNumBatchedTokens, BlockSize int
	KVCacheDType                                string
	WeightsGiB, ActivationGiB, NonTorchGiB      float64
	AvailableKVGiB                              float64
	// KVTokens is "GPU KV cache size" as the release logs it (with
	// decode context parallelism the rank's tokens × DCP).
	KVTokens       int64
	MaxConcurrency float64
	// DCP is the decode context parallel size (0 or 1: off): vLLM's log
	// multiplies the rank's tokens by it ("Multiplying the GPU KV cache size
	// by the dcp_world_size", vllm.DCPLogSource).
	DCP int
	// KVBytesPerToken is the KV one token costs on the GPU.
	KVBytesPerToken int64
	// LoggedKVTokens is the "GPU KV cache size" vLLM logs for avail bytes
	// of KV memory, by the memory model check uses (a packed hybrid
	// layout's rule, memory.KVLayout.ReportedTokens); nil, or ok false,
	// where bytes per token give it (compare_packed.go).
	LoggedKVTokens func(avail float64) (tokens int64, ok bool)
	// SequenceBytes is the KV one sequence of n tokens holds, blocks and
	// sliding-window layers counted as vLLM counts them.
	SequenceBytes func(n int) int64
	// OneSequenceFits is false when vlaunch predicts that one sequence of
	// max_model_len does not fit the KV cache (vLLM then refuses to start).
	OneSequenceFits bool
	// SortingSampler is the prediction for the same spec with
	// VLLM_USE_FLASHINFER_SAMPLER=0, which stands in for a FlashInfer that
	// is not installed (vLLM's TopKTopPSampler then takes the PyTorch sort,
	// vllm.Release.ProfileSampler), as the calibration replay does
	// (estimate/memory calBuild). Compare uses it for an engine whose log
	// says FlashInfer is not available; nil when the caller did not
	// compute it.
	SortingSampler *Prediction
	// EncoderBudgetTokens and EncoderItems are the multimodal encoder
	// profile vlaunch sizes for the spec's model (the largest item's
	// tokens, or max_num_batched_tokens when larger, and how many such
	// items the profile runs); 0 when it sizes none.
	EncoderBudgetTokens int64
	EncoderItems        int
}

// Compare puts each engine's logged figures next to the prediction, term
// by term, and explains every difference above its calibration target from
// what the log says ran — or says that vlaunch cannot explain it.
func Compare(r *Report, p Prediction) {
	r.Comparison = []Comparison{}
	for i := range r.Engines {
		if e := &r.Engines[i]; hasFigures(e) {
			r.Comparison = append(r.Comparison, compareEngine(r, e, p)...)
		}
	}
}

// hasFigures: the engine logged a figure Compare puts beside a prediction.
func hasFigures(e *Engine) bool {
	return e.WeightsGiB != nil || e.AvailableKVGiB != nil || e.KVCacheTokens != nil
}

// compareEngine is one engine's rows against the prediction: the one
// comparison Compare and ComparePools (per pool) make.
func compareEngine(r *Report, e *Engine, p Prediction) []Comparison {
	var out []Comparison
	ep, sorts := p, false
	if e.FlashInfer == FlashInferNotInstalled && p.SortingSampler != nil {
		// What that engine ran: the profile's sampler sorted.
		ep, sorts = *p.SortingSampler, true
		ep.ModelNames, ep.SortingSampler = p.ModelNames, nil
		ep.EncoderBudgetTokens, ep.EncoderItems = p.EncoderBudgetTokens, p.EncoderItems
	}
	c := comparer{e: e, p: ep, inputs: inputDiffs(e, ep), failedKV: failedForKV(r, e.ID)}
	if sorts {
		out = append(out, Comparison{Engine: e.ID, Term: "profile_sampler", Unit: "note",
			Explanation: FlashInferSorts + "; predicted as with " + vllm.FlashInferSamplerVariable + "=0, which stands in for the missing package"})
	}
	return append(out, c.rows()...)
}

// comparer builds one engine's rows.
type comparer struct {
	e      *Engine
	p      Prediction
	inputs []string // settings where the log and the spec disagree
	// failedKV: vLLM refused to start for lack of KV memory.
	failedKV bool
}

// failedForKV reports whether the engine's start-up failed for lack of KV memory.
func failedForKV(r *Report, id string) bool {
	for _, f := range r.Failures {
		if f.Engine == id && f.Kind == KindKVCacheInsufficient && f.Severity == "error" {
			return true
		}
	}
	return false
}

func (c comparer) rows() []Comparison {
	var out []Comparison
	add := func(row Comparison, ok bool) {
		if ok {
			row.Engine = c.e.ID
			out = append(out, row)
		}
	}
	add(c.weights())
	add(c.budgetTerm("activation_peak_gib", c.e.ActivationPeakGiB, c.p.ActivationGiB, c.activationCause()))
	add(c.budgetTerm("non_torch_gib", c.e.NonTorchGiB, c.p.NonTorchGiB, c.layoutCause()))
	add(c.available())
	add(c.bytesPerToken())
	add(c.tokens())
	add(c.tokensFromLoggedMemory())
	add(c.concurrency())
	add(c.concurrencyFromLoggedMemory())
	add(c.startUp())
	add(c.encoderBudget())
	return out
}

// startUp compares the outcome when vLLM refused to start for lack of KV
// memory: does vlaunch predict that too?
func (c comparer) startUp() (Comparison, bool) {
	if !c.failedKV {
		return Comparison{}, false
	}
	pred := 0.0
	expl := "vLLM refused to start for lack of KV memory; vlaunch predicts that too"
	if c.p.OneSequenceFits {
		pred = 1
		expl = c.explain([]string{"vLLM refused to start for lack of KV memory, vlaunch predicts one sequence of max_model_len fits"}, c.inputs)
	}
	row := Comparison{Term: "max_model_len_fits", Unit: "bool", Logged: floatPtr(0), Predicted: &pred, Explanation: expl}
	within := pred == 0
	row.Within = &within
	return row, true
}

// encoderBudget puts the logged multimodal encoder cache budget beside the
// one vlaunch sizes for the spec's model, with the items each profiles.
func (c comparer) encoderBudget() (Comparison, bool) {
	if c.e.EncoderCacheBudget == nil {
		return Comparison{}, false
	}
	row := Comparison{Term: "encoder_cache_budget_tokens", Unit: "tokens", Logged: floatPtr(float64(*c.e.EncoderCacheBudget))}
	logged := "the log does not say what the profile ran the encoder on"
	if c.e.EncoderProfileItems != nil {
		logged = fmt.Sprintf("profiled with %d %s item(s) (logged)", *c.e.EncoderProfileItems, orDefault(c.e.EncoderProfileModality, "?"))
	}
	if c.p.EncoderBudgetTokens <= 0 {
		row.Explanation = logged + "; vlaunch sizes no encoder profile for the spec's model"
		return row, true
	}
	row.Predicted = floatPtr(float64(c.p.EncoderBudgetTokens))
	if *c.e.EncoderCacheBudget != 0 {
		err := (float64(c.p.EncoderBudgetTokens) - float64(*c.e.EncoderCacheBudget)) / float64(*c.e.EncoderCacheBudget)
		row.Error = &err
	}
	row.Explanation = fmt.Sprintf("%s, %d item(s) predicted", logged, c.p.EncoderItems)
	return row, true
}

func (c comparer) weights() (Comparison, bool) {
	if c.e.WeightsGiB == nil {
		return Comparison{}, false
	}
	row := newRow("weights_gib", "GiB", *c.e.WeightsGiB, c.p.WeightsGiB, TargetWeights)
	if !*row.Within {
		row.Explanation = c.explain(c.layoutCause(), c.weightsFit(), c.quantCause())
	}
	return row, true
}

// budgetTerm compares a term of vLLM's budget that has no target of its
// own; its difference matters when it moves the available KV memory by
// more than that figure's target.
func (c comparer) budgetTerm(term string, logged *float64, pred float64, causes []string) (Comparison, bool) {
	if logged == nil {
		return Comparison{}, false
	}
	row := newRow(term, "GiB", *logged, pred, 0)
	row.Target, row.Within = nil, nil
	if c.e.AvailableKVGiB != nil && math.Abs(pred-*logged) > TargetAvailable*math.Abs(*c.e.AvailableKVGiB) {
		row.Explanation = c.explain(causes)
	}
	return row, true
}

func (c comparer) available() (Comparison, bool) {
	if c.e.AvailableKVGiB == nil {
		return Comparison{}, false
	}
	row := newRow("available_kv_gib", "GiB", *c.e.AvailableKVGiB, c.p.AvailableKVGiB, TargetAvailable)
	if !*row.Within {
		row.Explanation = c.budgetBreakdown()
	}
	return row, true
}

// budgetBreakdown splits a difference of available KV memory over the terms
// of vLLM's budget (usable − weights − activation − non-torch), using every
// term the log states.
func (c comparer) budgetBreakdown() string {
	e, p := c.e, c.p
	var parts []string
	known := 0
	if e.GPUTotalGiB != nil && e.GPUMemoryUtilization != nil {
		usable := *e.GPUTotalGiB * *e.GPUMemoryUtilization
		parts = append(parts, fmt.Sprintf("usable memory %+.2f (%.2f × %.2f logged, %.2f × %.2f predicted)",
			p.DeviceGiB*p.Utilization-usable, *e.GPUTotalGiB, *e.GPUMemoryUtilization, p.DeviceGiB, p.Utilization))
		known++
	}
	for _, t := range []struct {
		name   string
		logged *float64
		pred   float64
	}{{"weights", e.WeightsGiB, p.WeightsGiB}, {"activation peak", e.ActivationPeakGiB, p.ActivationGiB}, {"non-torch", e.NonTorchGiB, p.NonTorchGiB}} {
		if t.logged != nil {
			// A term vlaunch predicts larger leaves less for the KV cache.
			parts = append(parts, fmt.Sprintf("%s %+.2f", t.name, *t.logged-t.pred))
			known++
		}
	}
	if w := c.weightsAloneExceed(); w != "" && (e.WeightsGiB == nil || *e.WeightsGiB < p.WeightsGiB) {
		return c.explain([]string{w}, c.inputs)
	}
	if known < 4 {
		msg := "the log does not state every term of vLLM's budget, so vlaunch cannot say which one differs"
		if len(parts) > 0 {
			msg += "; of those it states, predicted − logged moves the KV memory by: " + strings.Join(parts, ", ")
		}
		return c.explain([]string{msg}, c.inputs)
	}
	return c.explain([]string{"predicted − logged moves the KV memory by: " + strings.Join(parts, ", ")}, c.inputs)
}

// bytesPerToken is the KV one token costs: predicted, and implied by the
// log (available memory over tokens) when it states both.
func (c comparer) bytesPerToken() (Comparison, bool) {
	if c.p.KVBytesPerToken <= 0 {
		return Comparison{}, false
	}
	row := Comparison{Term: "kv_bytes_per_token", Unit: "bytes", Predicted: floatPtr(float64(c.p.KVBytesPerToken))}
	if logged, _, ok := c.loggedTokens(); ok && logged > 0 && c.e.AvailableKVGiB != nil && *c.e.AvailableKVGiB > 0 {
		implied := math.Round(*c.e.AvailableKVGiB * gib / (float64(logged) / float64(c.p.dcp())))
		row.Logged = &implied
		err := (float64(c.p.KVBytesPerToken) - implied) / implied
		row.Error = &err
		row.Explanation = "logged: implied by the available memory over the tokens (rounded to whole blocks, so within a block's share)"
		if _, packed, _ := c.loggedMemoryTokens(); packed {
			row.Error, row.Explanation = nil, packedPerTokenWords // not like with like (compare_packed.go)
		}
	}
	return row, true
}

func (c comparer) tokens() (Comparison, bool) {
	logged, how, ok := c.loggedTokens()
	if !ok {
		return Comparison{}, false
	}
	row := newRow("kv_cache_tokens", "tokens", float64(logged), float64(c.p.KVTokens), 0)
	row.Target, row.Within = nil, nil
	row.Explanation = joinNonEmpty(how, "follows the available KV memory and the bytes per token (the rows around it)")
	return row, true
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "; ")
}

// loggedTokens is the KV cache size the log states, or V0's block count
// times the block size the spec assumes (V0 does not log the block size).
func (c comparer) loggedTokens() (int64, string, bool) {
	switch {
	case c.e.KVCacheTokens != nil:
		return *c.e.KVCacheTokens, "", true
	case c.e.NumGPUBlocks != nil && c.p.BlockSize > 0:
		return *c.e.NumGPUBlocks * int64(c.p.BlockSize),
			fmt.Sprintf("logged: %d blocks × the spec's block size %d", *c.e.NumGPUBlocks, c.p.BlockSize), true
	}
	return 0, "", false
}

// dcp is the decode context parallel size, at least 1.
func (p Prediction) dcp() int { return max(1, p.DCP) }

// loggedPoolTokens is how many tokens vlaunch's bytes per token fit in the
// logged available memory, block-rounded as vLLM rounds them (one GPU's;
// the log multiplies them by the DCP size).
func (c comparer) loggedPoolTokens() (int64, bool) {
	if c.e.AvailableKVGiB == nil || c.p.KVBytesPerToken <= 0 || c.p.BlockSize <= 0 || *c.e.AvailableKVGiB <= 0 {
		return 0, false
	}
	block := float64(c.p.KVBytesPerToken) * float64(c.p.BlockSize)
	return int64(math.Floor(*c.e.AvailableKVGiB*gib/block)) * int64(c.p.BlockSize), true
}

func (c comparer) tokensFromLoggedMemory() (Comparison, bool) {
	pool, packed, ok := c.loggedMemoryTokens()
	logged, how, okLog := c.loggedTokens()
	if !ok || !okLog || logged <= 0 {
		return Comparison{}, false
	}
	dcp := c.p.dcp()
	row := newRow("kv_cache_tokens_from_logged_memory", "tokens", float64(logged), float64(pool), TargetKVTokens)
	if packed {
		row.Explanation = joinNonEmpty(how, packedWords)
		if !*row.Within {
			row.Explanation = c.explain([]string{row.Explanation}, c.kvCause())
		}
		return row, true
	}
	implied := *c.e.AvailableKVGiB * gib / (float64(logged) / float64(dcp))
	row.Explanation = joinNonEmpty(how, fmt.Sprintf("KV bytes per token: %d predicted, %.0f implied by the log", c.p.KVBytesPerToken, implied))
	if !*row.Within {
		row.Explanation = c.explain([]string{row.Explanation}, c.kvCause(), c.minOverWorkers(implied))
	}
	return row, true
}

// minOverWorkers: vLLM sizes one pool for all of an engine's workers from
// the smallest worker's memory; a log that shows one worker's "Available"
// line can state more than the pool got (calibration case
// qwen3-235b-fp8-21348-h100x4).
func (c comparer) minOverWorkers(implied float64) []string {
	if implied <= float64(c.p.KVBytesPerToken) || c.p.TP*c.p.PP <= 1 {
		return nil
	}
	return []string{fmt.Sprintf("the pool is the minimum over the engine's %d workers: the logged available memory may be one worker's, larger than the smallest", c.p.TP*c.p.PP)}
}

func (c comparer) concurrency() (Comparison, bool) {
	if c.e.MaxConcurrency == nil {
		return Comparison{}, false
	}
	row := newRow("max_concurrency", "x", *c.e.MaxConcurrency, c.p.MaxConcurrency, 0)
	row.Target, row.Within = nil, nil
	return row, true
}

// concurrencyFromLoggedMemory is vLLM's "Maximum concurrency for L tokens"
// recomputed from the logged available memory: the block-rounded pool over
// one sequence of L tokens.
func (c comparer) concurrencyFromLoggedMemory() (Comparison, bool) {
	pool, ok := c.loggedPoolTokens()
	if !ok || c.e.MaxConcurrency == nil || c.e.ConcurrencyTokens == nil || c.p.SequenceBytes == nil {
		return Comparison{}, false
	}
	seq := c.p.SequenceBytes(*c.e.ConcurrencyTokens)
	if seq <= 0 {
		return Comparison{}, false
	}
	pred := float64(pool) * float64(c.p.KVBytesPerToken) / float64(seq)
	row := newRow("max_concurrency_from_logged_memory", "x", *c.e.MaxConcurrency, pred, TargetKVTokens)
	if !*row.Within {
		row.Explanation = c.explain(c.kvCause())
	}
	return row, true
}

func newRow(term, unit string, logged, pred, target float64) Comparison {
	row := Comparison{Term: term, Unit: unit, Logged: floatPtr(logged), Predicted: floatPtr(pred), Target: floatPtr(target)}
	if logged != 0 {
		err := (pred - logged) / math.Abs(logged)
		row.Error = &err
		within := math.Abs(err) <= target
		row.Within = &within
	} else {
		within := pred == 0
		row.Within = &within
	}
	return row
}

// explain joins the causes found, or says that none was.
func (c comparer) explain(causes ...[]string) string {
	var all []string
	for _, cs := range causes {
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return "vlaunch cannot explain this difference from the log: the settings it states match the spec"
	}
	return strings.Join(all, "; ")
}
