package memory

import (
	"fmt"
	"strings"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/internal/textfmt"
	"github.com/vlaunch/vlaunch/vllm"
)

// Note is one derivation shown to the user.
type Note struct {
	Topic string `json:"topic"`
	Text  string `json:"text"`
}

// Notes derive the memory report m's key figures in words (alts: the other
// weights formats), and contrast them with the usual hand-calculation
// mistakes (reference scenario points 1–5): K and V counted for MLA, KV
// divided evenly over ranks, the routed-expert share guessed, the
// checkpoint format ignored, fixed activation allowances.
func Notes(in *input.Input, m *Report, alts []AltWeights) []Note {
	notes := []Note{kvNote(in, m), kvPerRankNote(in, m), weightsNote(in, m)}
	if n, ok := checkpointNote(in, alts); ok {
		notes = append(notes, n)
	}
	notes = append(notes, budgetNote(in, m))
	if n, ok := draftNote(in, m); ok {
		notes = append(notes, n)
	}
	if n, ok := gapNote(m); ok {
		notes = append(notes, n)
	}
	if n, ok := eplbNote(in); ok {
		notes = append(notes, n)
	}
	if n, ok := vllmRulesNote(in); ok {
		notes = append(notes, n)
	}
	return notes
}

// kvNote derives the KV cost per token, with a hybrid's state per
// sequence and a ModelOpt checkpoint's FP8 KV scales where they apply.
func kvNote(in *input.Input, m *Report) Note {
	n := kvBaseNote(in, m)
	n.Text += stateText(m.KV) + kvScalesText(in, m.KV)
	return n
}

func kvBaseNote(in *input.Input, m *Report) Note {
	md, kv := in.Model, m.KV
	b := dtypeBytes(kv.DType)
	if kv.Packing == packingUniformPage && kv.HybridBlock == 0 {
		return Note{"KV cache per token", fmt.Sprintf("%s = %s B per token per GPU counting every layer as full attention. "+
			"vLLM's start-up figures (maximum concurrency, the one-sequence check) charge each sequence the window plus %s in the sliding-window layers, %s, in vLLM's groups and pages.",
			kv.Formula, textfmt.Thousands(kv.BytesPerToken), inFlightText(in), strings.TrimSuffix(runningWindowText(), "."))}
	}
	if kv.Packing == packingDSV4 {
		return Note{"KV cache per token", fmt.Sprintf(
			"DeepSeek-V4 caches each layer's sliding window (%d tokens) and, in its compressed layers, one 584-byte key per 4 (C4A, with the indexer's key) or 128 tokens (C128A), "+
				"in vLLM's fp8_ds_mla layout whatever --kv-cache-dtype says, the same on every TP rank: %s B per token position for the whole-sequence caches on a GPU. "+
				"The windows and the compressors' float32 states are a cost per sequence: vLLM's start-up figures charge a window plus %s, %s %s.",
			md.DSV4.Window, textfmt.Thousands(kv.BytesPerToken), inFlightText(in), runningWindowText(), kv.Formula)}
	}
	if md.IsMLA() {
		w := md.KVLoraRank + md.QKRopeHeadDim
		naive := 2 * md.KVLoraRank * b * kv.Layers
		return Note{"KV cache per token", fmt.Sprintf(
			"MLA caches one compressed latent per token and layer: kv_lora_rank %d + decoupled RoPE key %d = %d values = %s B in %s; "+
				"over %d layers on a GPU that is %s B per token. Counting K and V separately (2 × %d) would give %s B. "+
				"vLLM replicates the latent on every TP rank instead of splitting it (TP=%d here), which is why DP attention suits MLA.",
			md.KVLoraRank, md.QKRopeHeadDim, w, textfmt.Thousands(int64(w*b)), kv.DType, kv.Layers, textfmt.Thousands(kv.BytesPerToken), md.KVLoraRank, textfmt.Thousands(int64(naive)), in.Layout.TP)}
	}
	heads := KVHeadsPerRank(md, in.Layout.TP)
	text := fmt.Sprintf("2 (K and V) × %g KV heads on a GPU × head_dim %d × %d B (%s) × %d layers = %s B per token per GPU.",
		heads, md.HeadDim, b, kv.DType, kv.Layers, textfmt.Thousands(kv.BytesPerToken))
	if in.Layout.TP > md.NumKVHeads {
		text += fmt.Sprintf(" TP=%d exceeds the model's %d KV heads, so vLLM replicates them: KV memory per GPU stops shrinking with TP.", in.Layout.TP, md.NumKVHeads)
	}
	if kv.SlidingLayers > 0 {
		text += fmt.Sprintf(" %d of the %d layers use a %d-token sliding window: vLLM prints its token count as if all were full; its start-up figures (maximum concurrency, the one-sequence check) charge each sequence the window plus %s in those layers, %s",
			kv.SlidingLayers, kv.Layers, kv.SlidingWindow, inFlightText(in), runningWindowText())
	}
	return Note{"KV cache per token", text}
}

// runningWindowText says what the capacity counts for a windowed layer
// (KVLayout.RunCost).
func runningWindowText() string {
	if !UseWindowResidency {
		return "and the capacity below counts that."
	}
	return "but a running sequence keeps only the window (vLLM frees the blocks that have left it before each step: SlidingWindowManager.remove_skipped_blocks), so the capacity below counts the window per sequence plus one reserve per rank for the prompt chunks in flight."
}

// inFlightText says what a sliding-window layer keeps beside its window
// (inFlightTokens): one prefill chunk, or from vLLM 0.26.0 every batch in
// flight, which can reach max_model_len and so charge the whole request.
func inFlightText(in *input.Input) string {
	n := inFlightTokens(in)
	batched := max(in.MaxNumBatchedTokens, 1)
	if n == batched {
		return fmt.Sprintf("one prefill chunk (max_num_batched_tokens %s)", textfmt.Thousands(int64(batched)))
	}
	text := fmt.Sprintf("the %s tokens of the %d batches vLLM %s keeps in flight (max_num_batched_tokens %s each: from 0.26.0 a windowed layer reserves every batch scheduled but not yet processed)",
		textfmt.Thousands(int64(n)), n/batched, in.Release().Version, textfmt.Thousands(int64(batched)))
	if w := in.Model.SlidingWindow; w > 0 && w-1+n >= in.MaxModelLen {
		text += fmt.Sprintf(", which at max_model_len %s is the whole request", textfmt.Thousands(int64(in.MaxModelLen)))
	}
	if _, p, _ := in.Release().SlidingWindowInFlight(in.MaxNumBatchedTokens, in.AsyncScheduling(), in.Layout.PP); p == vllm.Maybe {
		text += "; read in vLLM's source through 0.27.1 only, assumed for this release (a later one that counts the in-flight tokens once per pool would fit more sequences)"
	}
	return text
}

// stateText adds a hybrid's fixed state per sequence (Gated DeltaNet or
// Mamba-2 layers), "" for every other model.
func stateText(kv KVLayout) string {
	if kv.StateBytesPerSeq == 0 {
		return ""
	}
	text := fmt.Sprintf(" Besides, each sequence holds %.2f MiB of recurrent state per GPU in its %d linear-attention / Mamba layers whatever its length (vLLM's hybrid KV-cache manager allocates it per request); the capacity below counts it.",
		float64(kv.StateBytesPerSeq)/(1<<20), kv.LinearLayers+kv.MambaLayers)
	if kv.HybridBlock > 0 {
		text += fmt.Sprintf(" vLLM raises the attention block to %d tokens so that one attention page holds one layer's state, pads each state to that page and groups the layers (%s), %d state page(s) per sequence and group; the capacity counts those pages.",
			kv.HybridBlock, kv.pack().describe(), kv.StatePages)
	}
	return text
}

// kvScalesText says when a ModelOpt checkpoint ships FP8 KV-cache scales
// but the cache is sized in 16 bits, and what the release does with them
// (vllm.Release.CheckpointKVCache: FP8 without --kv-cache-dtype from
// 0.14.0, PR #29980).
func kvScalesText(in *input.Input, kv KVLayout) string {
	if !strings.EqualFold(in.Model.Quant.KVCacheQuantAlgo, "FP8") || kv.DType == "fp8" || kv.Packing == packingDSV4 {
		return ""
	}
	r := in.Release()
	c := r.CheckpointKVCache()
	switch c.FP8WhenUnset {
	case vllm.Present:
		return fmt.Sprintf(" The checkpoint ships FP8 KV-cache scales (kv_cache_quant_algo FP8): vLLM %s caches in FP8 when --kv-cache-dtype is not given (PR #29980), half these bytes, though %s; set vllm.kv_cache_dtype: fp8 to size that.", r.Version, c.ExplicitAuto)
	case vllm.Absent:
		return fmt.Sprintf(" The checkpoint ships FP8 KV-cache scales (kv_cache_quant_algo FP8), which vLLM %s does not apply by itself (PR #29980 came later): the cache stays 16-bit unless vllm.kv_cache_dtype is fp8.", r.Version)
	}
	return fmt.Sprintf(" The checkpoint ships FP8 KV-cache scales (kv_cache_quant_algo FP8): whether vLLM %s caches in FP8 without --kv-cache-dtype is unverified (from 0.14.0 it does, PR #29980), half these bytes; set vllm.kv_cache_dtype: fp8 to size that.", r.Version)
}

func kvPerRankNote(in *input.Input, m *Report) Note {
	c := m.Capacity
	seqGB := float64(c.SeqBytes) / 1e9
	if c.DPRanks <= 1 {
		if c.ReserveGiB > 0 {
			return Note{"Where the KV cache lives", fmt.Sprintf(
				"One engine holds all %d sequences: %d × %.3f GB (what a running sequence of %s tokens holds: its sliding-window layers keep only the last %s tokens, in whole pages)%s = %.1f GB (%.2f GiB) per GPU; it has room for %d (%.2f GiB of KV).",
				c.Concurrency, c.Concurrency, seqGB, textfmt.Thousands(int64(c.SessionTokens)), textfmt.Thousands(int64(m.KV.SlidingWindow)), reserveText(c),
				float64(c.SeqsPerRank)*seqGB+c.ReserveGiB*GiB/1e9, c.NeededGiBPerRank, c.MaxSeqsPerRank, c.AvailableGiB)}
		}
		dcp := ""
		if d := m.KV.DCP; d > 1 && m.KV.Packing == "" {
			dcp = fmt.Sprintf(" ÷ %d (decode context parallelism: a GPU holds every %dth token, in whole blocks)", d, d)
		}
		return Note{"Where the KV cache lives", fmt.Sprintf(
			"One engine holds all %d sequences: %d × %s tokens%s × %s B = %.1f GB (%.2f GiB) per GPU; it has room for %d (%.2f GiB of KV).",
			c.Concurrency, c.Concurrency, textfmt.Thousands(int64(c.SessionTokens)), dcp, textfmt.Thousands(m.KVBytesPerToken), float64(c.SeqsPerRank)*seqGB, c.NeededGiBPerRank,
			c.MaxSeqsPerRank, c.AvailableGiB)}
	}
	text := kvSpreadText(c, seqGB)
	if c.Replicas > 1 {
		text += fmt.Sprintf(" The %d ranks are %d independent replicas of DP=%d, each with its share of the sessions.", c.DPRanks, c.Replicas, c.DPRanks/c.Replicas)
	}
	return Note{"Where the KV cache lives", text}
}

// reserveText is the pool a rank sets aside for the prompt chunks in
// flight in its sliding-window layers (Capacity.ReserveGiB), "" without.
func reserveText(c Capacity) string {
	if c.ReserveGiB <= 0 {
		return ""
	}
	return fmt.Sprintf(" + %.2f GB set aside for the prompt chunks in flight (a prefilling request's sliding-window layers hold its chunk until the step has run)", c.ReserveGiB*GiB/1e9)
}

// kvSpreadText is the note on how DP ranks share the sessions' KV cache.
func kvSpreadText(c Capacity, seqGB float64) string {
	return fmt.Sprintf(
		"%d sessions × %s tokens (%s) need %.1f GB of KV in total. With DP=%d every rank holds the KV of the sequences scheduled on it and a request is never split, "+
			"so the need per GPU is set by the fullest rank: ceil(%d/%d) = %d sequences × %.2f GB%s = %.1f GB (%.2f GiB), not the total ÷ %d = %.1f GB. "+
			"A rank has room for %d such sessions (%.2f GiB of KV), so at most %d fit.",
		c.Concurrency, textfmt.Thousands(int64(c.SessionTokens)), c.SessionBasis, c.NeededGBTotal, c.DPRanks, c.Concurrency, c.DPRanks, c.SeqsPerRank, seqGB, reserveText(c),
		float64(c.SeqsPerRank)*seqGB+c.ReserveGiB*GiB/1e9, c.NeededGiBPerRank, c.DPRanks, c.NeededGBTotal/float64(c.DPRanks), c.MaxSeqsPerRank, c.AvailableGiB, c.MaxConcurrency)
}

func weightsNote(in *input.Input, m *Report) Note {
	per := map[string]float64{}
	for _, w := range m.Weights {
		per[w.Component] += w.ParamsPerGPU
	}
	p := m.Params
	bf16GiB := m.ParamsPerGPU * bytesBF16 / GiB
	tail := fmt.Sprintf("%.2fB parameters = %.1f GiB (%.1f GB) in BF16; as stored (%s) the GPU holds %.1f GiB of weights%s.",
		m.ParamsPerGPU/1e9, bf16GiB, m.ParamsPerGPU*bytesBF16/1e9, in.WeightsDType, m.PerGPU.WeightsGiB, mlaCopiesNote(m))
	// A multimodal wrapper's encoder (a vision tower) sits whole on every
	// GPU beside the language model; the model's parameter count
	// (catalog.Model.ParamCounts) is the language model's alone.
	enc := per[CompEncoder]
	if !in.Model.IsMoE() {
		if enc > 0 {
			return Note{"Weights per GPU", fmt.Sprintf("%.1fB parameters sit on each GPU: %.1fB of the language model's %.1fB (TP=%d splits layers' matrices, PP=%d splits layers) and the %.2fB of its encoder, whole on every GPU, which the language model's count leaves out: %s",
				m.ParamsPerGPU/1e9, (m.ParamsPerGPU-enc)/1e9, p.Total/1e9, in.Layout.TP, in.Layout.PP, enc/1e9, tail)}
		}
		return Note{"Weights per GPU", fmt.Sprintf("%.1fB of the model's %.1fB parameters sit on each GPU (TP=%d splits layers' matrices, PP=%d splits layers): %s",
			m.ParamsPerGPU/1e9, p.Total/1e9, in.Layout.TP, in.Layout.PP, tail)}
	}
	encText := ""
	if enc > 0 {
		encText = fmt.Sprintf(", encoder %.2fB (whole on every GPU; not in the language model's %.1fB)", enc/1e9, p.Total/1e9)
	}
	routed := per[CompRouted] + per[CompRedundant]
	return Note{"Weights per GPU", fmt.Sprintf(
		"Routed experts are %.1fB of the model's %.1fB parameters (%.1f%%), so they, not attention, decide the weights per GPU. "+
			"Per GPU: %.1fB routed + %.1fB replicated or TP-split (attention %.1fB, dense MLPs %.1fB, shared experts %.1fB, embedding + LM head %.2fB, router + norms %.2fB%s) = %s",
		p.RoutedExperts/1e9, p.Total/1e9, 100*p.RoutedExperts/p.Total, routed/1e9, (m.ParamsPerGPU-routed)/1e9,
		per[CompAttention]/1e9, per[CompDenseMLP]/1e9, per[CompShared]/1e9, (per[CompEmbedding]+per[CompLMHead])/1e9,
		(per[CompRouter]+per[CompNorms])/1e9, encText, tail)}
}

func mlaCopiesNote(m *Report) string {
	for _, w := range m.Weights {
		if w.Component == CompMLACopies {
			return fmt.Sprintf(", including %.2f GiB of de-quantized W_UK/W_UV copies vLLM's MLA keeps for decoding", w.GiB)
		}
	}
	return ""
}

func checkpointNote(in *input.Input, alts []AltWeights) (Note, bool) {
	ckpt := in.CheckpointDType()
	if ckpt == "bf16" || ckpt == "fp16" || len(alts) == 0 {
		return Note{}, false
	}
	var parts []string
	for _, a := range alts {
		verdict := "fits the workload"
		if !a.Fits {
			verdict = "does not fit the workload"
		}
		src := "converted"
		if a.FromCheckpoint {
			src = "the checkpoint as shipped"
		}
		parts = append(parts, fmt.Sprintf("%s (%s): %.1f GiB weights, %.1f GiB KV, %d max-length sequences per rank — %s",
			a.WeightsDType, src, a.WeightsGiB, a.KVCacheGiB, a.MaxSeqsPerRank, verdict))
	}
	return Note{"Checkpoint format", fmt.Sprintf(
		"The checkpoint ships %s weights%s; serving it \"without quantization\" in BF16 means an up-cast copy at about twice the memory of its linear layers. %s.",
		ckpt, blockNote(in), strings.Join(parts, "; "))}, true
}

func blockNote(in *input.Input) string {
	if q := in.Model.Quant; q.Method == "fp8" && len(q.WeightBlockSize) == 2 {
		return fmt.Sprintf(" (block-wise, one fp32 scale per %d×%d block; embeddings, LM head and router stay BF16)", q.WeightBlockSize[0], q.WeightBlockSize[1])
	}
	return ""
}

func budgetNote(in *input.Input, m *Report) Note {
	p := m.PerGPU
	var act, other []string
	for _, t := range m.Activation {
		act = append(act, fmt.Sprintf("%s %.2f", t.Name, t.GiB))
	}
	for _, t := range m.NonTorch {
		other = append(other, fmt.Sprintf("%s %.2f", t.Name, t.GiB))
	}
	return Note{"vLLM's memory budget", fmt.Sprintf(
		"vLLM multiplies gpu_memory_utilization %.2f by the total the CUDA runtime reports (%.2f GiB on %s, less than the nominal size): %.2f GiB per GPU. "+
			"From that it subtracts the weights (%.2f GiB), the activation peak it profiles with max_num_batched_tokens %d and max_num_seqs %d (%.2f GiB; %s) "+
			"and memory outside PyTorch (%.2f GiB; %s), %s. These terms are derived from the model's shapes and the settings, not fixed allowances.",
		p.Utilization, p.DeviceGiB, in.GPU.Name, p.UsableGiB, p.WeightsGiB, in.MaxNumBatchedTokens, in.MaxNumSeqs, p.ActivationGiB,
		strings.Join(act, ", "), p.OtherGiB, strings.Join(other, ", "), kvLeftText(p.KVCacheGiB))}
}

// eplbNote prices one redundant expert, the real cost unit of EPLB.
func eplbNote(in *input.Input) (Note, bool) {
	m := in.Model
	if !m.IsMoE() || !in.Layout.EP {
		return Note{}, false
	}
	p, st := expertParamsPerRank(in, 1)
	rule := StorageRule(in, CompRouted)
	moe := m.MoELayerCount()
	gib := float64(moe) * st * rule.BytesPerParam / GiB
	text := fmt.Sprintf("EPLB's cost is per redundant expert: one more expert on a GPU is %.1fM parameters × %d MoE layers = %.2f GiB in %s.",
		p/1e6, moe, gib, rule.DType)
	if in.EnableEPLB {
		text += fmt.Sprintf(" This spec adds %d redundant experts over %d ranks.", in.NumRedundantExperts, in.Layout.EPSize())
	}
	return Note{"EPLB", text}, true
}
