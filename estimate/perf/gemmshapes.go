package perf

import (
	"math"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/estimate/input"
)

// gemmShape is one dense projection of a pipeline stage: an N×K weight on
// one GPU (after vLLM's TP split) run count times per step (layers of the
// stage; the LM head 1/PP), on the step's tokens or, for the LM head, on
// the sampled positions.
type gemmShape struct {
	n, k, count float64
	dt          GEMMDType
	lmHead      bool
	flat        []float64 // the table
	// nk is the shape's fixed place in the table's N and K axes
	// (gridNK; newDenseGEMMs sets it once the shape is final).
	nk gridNK
}

// denseGEMMs is a stage's dense projections priced by the measured tables
// (UseGEMMTables), nil where they do not apply (scalar model).
type denseGEMMs struct {
	t      *gemmTables
	shapes []gemmShape
	// kernels is the stage's kernels the shapes stand for (with FP8 the
	// activation quantization too): the table's latency includes their
	// launch, so the step charges them no kernel gap.
	kernels float64
	// share is the MeasuredCompute share a serving step reaches of the
	// tables' compute-bound rates (UseServingGEMMShare; 1: the tables as
	// measured), and peaks the floors that say how far past the ridge a
	// shape's M is (servingFactor) and what a time extrapolated past the
	// tables' grid may not fall below (gemmFloor).
	share float64
	peaks gemmPeaks
}

// UseServingGEMMShare prices the compute-bound dense GEMMs of the measured
// tables (UseGEMMTables) at MeasuredCompute of their measured rate, as
// every other measured compute rate is priced (the scalar GEMM efficiency
// ForGPU derives, prefill attention, the fused-MoE curves): the tables
// time one kernel at a time on hot buffers, and MeasuredCompute is the
// fitted share of such isolated rates that serving steps reach. Without it
// the tables' dense projections alone run at 100%: Qwen3-14B's 8,192-token
// prompt step on one H100 costs 272 ms of GEMMs (776 TFLOPS, 78% of the
// BF16 peak), where GPUStack's burst pages show ITL P99s of 640–660 ms
// for those steps (issue #28, TestDenseBursts). The share ramps in past
// the ridge (servingFactor): a decode-sized GEMM streams its weights and
// keeps its measured latency. Trialled 2026-12-06 (branch densebursts,
// no refit) and left off: the held-out Qwen3-14B H100 bursts 5 -> 18 of 24
// figures within ±30% (random 4K/200 output tok/s +74% -> 0%, 2K/100 +93%
// -> -1%, ShareGPT +48% -> +17%), but the calibration split 139 -> 133 of
// 160 (GPUStack's Qwen3-235B TTFTs, DeepSeek-R1's 32K TPOT, the P2
// prefill nodes), the A100 twin 12 -> 9 of 24 (its random bursts from
// -26% to +45–87%: A100 needs ~1.35×, H100 ~2×, one share cannot carry
// both) and the NIM Llama-3.3-70B 5K TTFT anchor -1% -> +96% (an isolated
// prefill reaches the tables' rate). What makes sustained dense bursts on
// GPUStack's H100 run at about half the tables' rate is not established;
// perf45 found it is not the kernel, the release or the shape: vLLM runs
// the tables' cuBLAS call (F.linear) at the tables' fused shapes, the
// H100 tables of vLLM 0.14, 0.19 and 0.24 agree within ~1–2%, and at
// serving shapes they sit on public matmul measurements
// (TestGEMMTablesAtMAMF; docs/calibration-analysis.md, perf45).
var UseServingGEMMShare = false

// servingFactor is what a shape's measured latency is multiplied by for a
// serving step (UseServingGEMMShare): 1 up to the ridge (its FLOPs at the
// dtype's peak no longer than its bytes at the HBM peak), rising with the
// ratio of the two floors past it, up to 1/share once that ratio reaches
// 1/share. Continuous in M, so a step does not jump at the ridge.
func (d *denseGEMMs) servingFactor(g *gemmShape, m float64) float64 {
	if d.share >= 1 || d.share <= 0 {
		return 1
	}
	peak, wb := d.peaks.of(g.dt)
	if peak <= 0 || d.peaks.hbm <= 0 {
		return 1
	}
	compute := 2 * m * g.n * g.k / peak
	memory := (g.n*g.k*wb + 2*m*(g.n+g.k)) / d.peaks.hbm
	return max(1, min(1/d.share, compute/memory))
}

// time is the stage's dense GEMM time for tok tokens of which sampled are
// sampled (LM head rows).
func (d *denseGEMMs) time(tok, sampled float64) float64 {
	c, m := d.timeSplit(tok, sampled, nil)
	return c + m
}

// gemmPeaks is what timeSplit weighs a shape's floors with: the tensor
// peaks of the tables' dtypes and the HBM bandwidth.
type gemmPeaks struct{ bf16, fp8, fp4, hbm float64 }

// of is a table dtype's tensor peak and bytes per weight (NVFP4: 4 bits +
// one FP8 scale per 16, perfBytesPerParam).
func (pk *gemmPeaks) of(dt GEMMDType) (peak, weightBytes float64) {
	switch dt {
	case GEMMTableFP8, GEMMTableFP8Block:
		return pk.fp8, 1
	case GEMMTableNVFP4:
		return pk.fp4, perfBytesPerParam("nvfp4")
	}
	return pk.bf16, 2
}

// timeSplit is time split by the physical floor each shape's measured
// latency sits on: compute where its FLOPs at the tensor peak outlast its
// weights and activations at the HBM peak (prompt-sized M), memory
// otherwise (a decode step streaming the weights). The tables time both
// sides at once; the split only names what binds a step (StepTime.Binding:
// an 8B model's batch-1 decode reads its weights, as the scalar roofline
// said; with the whole latency in the compute column it read "compute").
// With pk nil the whole latency is returned as compute.
func (d *denseGEMMs) timeSplit(tok, sampled float64, pk *gemmPeaks) (compute, memory float64) {
	var pm gridPos
	var lastM float64
	haveM := false
	for i := range d.shapes {
		g := &d.shapes[i]
		m := tok
		if g.lmHead {
			m = sampled
		}
		if m <= 0 {
			continue
		}
		// d.t.at(g.flat, m, g.n, g.k), with the N and K positions the
		// shape's own and M's worked out once per distinct M.
		if m != lastM || !haveM {
			pm, lastM, haveM = d.t.gridM(m), m, true
		}
		v := d.t.atGrid(g.flat, pm, g.nk)
		if v > 0 && d.t.extrapolated(g.flat, pm, g.nk) {
			v = max(v, gemmFloor(&d.peaks, g.dt, m, g.n, g.k))
		}
		t := g.count * v * d.servingFactor(g, m)
		if pk == nil || !g.memoryBound(m, pk) {
			compute += t
		} else {
			memory += t
		}
	}
	return compute, memory
}

// memoryBound says an m-row GEMM of g reads its operands (weights at the
// table dtype's width, BF16 activations in and out) at the HBM peak for
// longer than its FLOPs take at the dtype's tensor peak.
func (g *gemmShape) memoryBound(m float64, pk *gemmPeaks) bool {
	peak, wb := pk.of(g.dt)
	if peak <= 0 || pk.hbm <= 0 {
		return false
	}
	bytes := g.n*g.k*wb + 2*m*(g.n+g.k)
	return bytes/pk.hbm > 2*m*g.n*g.k/peak
}

// newDenseGEMMs lists the dense projections of s's model per stage, or nil
// where the tables do not apply: switch off, a GPU or dtype without a
// table, a 4-bit dense model, or a model whose layers the list does not
// describe (hybrids, DeepSeek-V4, sparse-attention indexers, per-layer
// attention, latent MoE).
//
// Shapes as vLLM shards them over TP (its QKVParallelLinear,
// MergedColumnParallelLinear and RowParallelLinear):
//   - GQA: qkv N = (heads/TP·(1 + output gate) + 2·max(1, ⌈kv/TP⌉))·d,
//     K = hidden; o N = hidden, K = heads/TP·d.
//   - MLA (DeepseekV2MLAAttention): fused q_a + kv_a (replicated) N =
//     q_lora + kv_lora + rope, K = hidden; q_b N = heads/TP·(nope + rope),
//     K = q_lora (q_proj from hidden without q_lora, kv_a alone then);
//     kv_b N = heads/TP·(nope + v), K = kv_lora; o N = hidden,
//     K = heads/TP·v. Decode runs kv_b absorbed into attention as BMMs of
//     the same FLOPs; it is priced here as the GEMM.
//   - dense MLP and shared experts: gate_up N = (matrices − 1)·I/TP,
//     K = hidden; down N = hidden, K = I/TP.
//   - router N = experts, K = hidden, BF16 (vLLM leaves the gate
//     unquantized); LM head N = vocab/TP, K = hidden, BF16.
func newDenseGEMMs(s *StepSetup) *denseGEMMs {
	if !UseGEMMTables {
		return nil
	}
	m := s.Model
	t := loadGEMMTables()
	sys := s.Eff.Kernels.System
	if t == nil || sys == "" || m == nil {
		return nil
	}
	if m.DSV4 != nil || m.HasLayerAttention() || m.IndexTopK > 0 || m.MoELatentSize > 0 ||
		m.LinearLayerCount() > 0 || m.MambaLayerCount() > 0 {
		return nil
	}
	dt := GEMMTableBF16
	quant := 0.0 // extra kernels per quantized linear
	switch s.WeightDType {
	case "", "bf16", "fp16", "bfloat16", "float16":
	case "fp8":
		if s.HW.FP8FLOPS <= 0 {
			return nil
		}
		dt, quant = GEMMTableFP8, 1
		if len(m.Quant.WeightBlockSize) == 2 {
			dt = GEMMTableFP8Block
		}
	case "int8":
		if !s.int8AsFP8() {
			return nil // the scalar GEMM efficiency at the INT8 (or BF16) peak
		}
		dt, quant = GEMMTableFP8, 1 // per-token activation quantization, as FP8's
	default:
		if !(fourBit(s.WeightDType) && m.IsMoE()) && !s.nvfp4Dense(t) {
			return nil // dense 4-bit linears: no table
		}
	}
	w, bf := t.table(sys, dt), t.table(sys, GEMMTableBF16)
	if w == nil || bf == nil {
		return nil
	}
	// fp4 is the NVFP4 table where the checkpoint stores dense projections
	// in NVFP4 (UseNVFP4DenseGEMM), nil otherwise.
	var fp4 []float64
	if s.nvfp4Dense(t) {
		fp4 = t.table(sys, GEMMTableNVFP4)
	}
	tp, pp := float64(max(1, s.TP)), float64(max(1, s.PP))
	h := float64(m.HiddenSize)
	fp8 := s.HW.FP8FLOPS
	if s.int8AsFP8() {
		fp8 = s.HW.INT8OPS
	}
	d := &denseGEMMs{t: t, share: 1, peaks: gemmPeaks{bf16: s.HW.BF16FLOPS, fp8: fp8, fp4: s.HW.FP4FLOPS, hbm: s.HW.HBMBytesPerS}}
	if UseServingGEMMShare {
		d.share = scale(s.Eff.MeasuredCompute)
	}
	per := 1 / pp // each layer's share of a stage
	addAt := func(n, k float64, flat []float64, dt GEMMDType, kernels, share float64) {
		if n <= 0 || k <= 0 || share <= 0 {
			return
		}
		d.kernels += per * share * kernels
		for j := range d.shapes { // layers repeat their shapes: one lookup each
			if g := &d.shapes[j]; g.n == n && g.k == k && &g.flat[0] == &flat[0] {
				g.count += per * share
				return
			}
		}
		d.shapes = append(d.shapes, gemmShape{n: n, k: k, count: per * share, dt: dt, flat: flat})
	}
	add := func(n, k float64, flat []float64, dt GEMMDType, kernels float64) {
		addAt(n, k, flat, dt, kernels, 1)
	}
	// proj adds a quantized projection of component comp (attention
	// projection mod): the NVFP4 table for the share of layers the
	// checkpoint stores in NVFP4, the table of the weights dtype for the
	// rest. An NVFP4 linear runs two kernels (the activation quantization
	// and the GEMM), both in the table's latency; the kernel census
	// (eagerLayers) counts one for it, the one taken off here.
	proj := func(n, k float64, comp, mod string) {
		q := 0.0
		if fp4 != nil {
			q = nvfp4Share(m, &s.Storage.NVFP4, comp, mod)
		}
		addAt(n, k, fp4, GEMMTableNVFP4, 1, q)
		addAt(n, k, w, dt, 1+quant, 1-q)
	}
	p := m.ParamCounts()
	f := m.FFNMatrices()
	for i := 0; i < m.NumLayers; i++ {
		if m.HasAttention(i) {
			heads := float64(m.NumHeads) / tp
			if m.IsMLA() {
				nope, rope, v := float64(m.QKNopeHeadDim), float64(m.QKRopeHeadDim), float64(m.VHeadDim)
				kvl, ql := float64(m.KVLoraRank), float64(m.QLoraRank)
				if ql > 0 {
					proj(ql+kvl+rope, h, input.CompAttention, "q_a_proj") // fused with kv_a_proj_with_mqa
					proj(heads*(nope+rope), ql, input.CompAttention, "q_b_proj")
				} else {
					proj(kvl+rope, h, input.CompAttention, "kv_a_proj_with_mqa")
					proj(heads*(nope+rope), h, input.CompAttention, "q_proj")
				}
				proj(heads*(nope+v), kvl, input.CompAttention, "kv_b_proj")
				proj(h, heads*v, input.CompAttention, "o_proj")
			} else {
				hd := float64(m.HeadDim)
				q := heads * hd
				if m.AttnOutputGate {
					q *= 2
				}
				kv := math.Max(1, math.Ceil(float64(m.NumKVHeads)/tp))
				proj(q+2*kv*hd, h, input.CompAttention, "q_proj") // fused qkv
				proj(h, heads*hd, input.CompAttention, "o_proj")
			}
		}
		if m.HasDenseMLP(i) {
			inter := float64(m.LayerIntermediate(i)) / tp
			proj((f-1)*inter, h, input.CompDenseMLP, "")
			proj(h, inter, input.CompDenseMLP, "")
		}
		if m.IsMoELayer(i) {
			add(float64(m.RouterOutputs()), h, bf, GEMMTableBF16, 1) // LongCat-Flash: its zero experts too
			if p.SharedPerLayer > 0 {
				inter := p.SharedPerLayer / (f * h) / tp
				proj((f-1)*inter, h, input.CompShared, "")
				proj(h, inter, input.CompShared, "")
			}
		}
	}
	d.shapes = append(d.shapes, gemmShape{n: lmHeadParams(p) / h / tp, k: h, count: per, dt: GEMMTableBF16, lmHead: true, flat: bf})
	d.kernels += per
	for j := range d.shapes {
		g := &d.shapes[j]
		g.nk = t.gridNK(g.n, g.k)
	}
	return d
}

// DenseGEMMTable names the measured table s's dense projections are
// priced from — the GPU's system and the table's dtype ("h200_sxm
// fp8_block") — or "" where the scalar roofline prices them (UseGEMMTables
// off, no table for the GPU or dtype, a model the shape list does not
// describe). Reports say which it is: the GEMM efficiencies they print do
// not price what a table does.
func (s *StepSetup) DenseGEMMTable() string {
	d := newDenseGEMMs(s)
	if d == nil || len(d.shapes) == 0 {
		return ""
	}
	if d.has(GEMMTableNVFP4) {
		// The NVFP4-stored projections and the rest (BF16: the excluded
		// projections, router and LM head).
		return s.Eff.Kernels.System + " nvfp4 for the projections stored in NVFP4, " + string(GEMMTableBF16) + " for the others"
	}
	return s.Eff.Kernels.System + " " + string(d.shapes[0].dt)
}

// has reports whether some shape takes dt's table.
func (d *denseGEMMs) has(dt GEMMDType) bool {
	for i := range d.shapes {
		if d.shapes[i].dt == dt {
			return true
		}
	}
	return false
}

// gemmShapesOf is newDenseGEMMs's list for tests and reports.
func gemmShapesOf(s *StepSetup) []gemmShape {
	if d := newDenseGEMMs(s); d != nil {
		return d.shapes
	}
	return nil
}

// nvfp4Dense reports whether s's dense projections take the NVFP4 GEMM
// table (UseNVFP4DenseGEMM): the storage rule stores some dense component
// in NVFP4, the checkpoint is ModelOpt W4A4 NVFP4 (quant_algo NVFP4:
// ModelOptNvFp4LinearMethod quantizes the activations to NVFP4 and takes
// its kernel from init_nvfp4_linear_kernel, the table's), the GPU has FP4
// tensor cores and its system an NVFP4 table. Not the others: ModelOpt's
// W4A16_NVFP4 (alone or inside MIXED_PRECISION, which the catalog files
// under the same format) runs Marlin's weight-only kernel, and the
// catalog does not record whether a compressed-tensors NVFP4 group
// quantizes its activations.
func (s *StepSetup) nvfp4Dense(t *gemmTables) bool {
	q := s.Model.Quant
	return UseNVFP4DenseGEMM && s.Storage.NVFP4.any() && q.Method == "modelopt" && q.Algo == "NVFP4" &&
		s.HW.FP4FLOPS > 0 && t.table(s.Eff.Kernels.System, GEMMTableNVFP4) != nil
}

// nvfp4Share is the share of m's layers whose projection mod of component
// comp is stored in NVFP4: 0 where the storage rule keeps the component
// in another dtype; else the checkpoint's quantized share
// (catalog.QuantShares, what input.StorageRule blends the bytes with): per
// attention projection where the shares say (ModelOpt exclusion lists name
// q_a_proj, kv_b_proj …), 1 without shares (every linear layer
// quantized).
func nvfp4Share(m *catalog.Model, parts *NVFP4Parts, comp, mod string) float64 {
	on := map[string]bool{input.CompAttention: parts.Attention, input.CompDenseMLP: parts.DenseMLP, input.CompShared: parts.Shared}
	if !on[comp] {
		return 0
	}
	sh := m.Quant.Shares
	if sh == nil {
		return 1
	}
	switch comp {
	case input.CompAttention:
		if v, ok := sh.AttnModules["self_attn."+mod]; ok {
			return v
		}
		return sh.Attention
	case input.CompDenseMLP:
		return sh.DenseMLP
	}
	return sh.Shared
}

// nvfp4Roofline reports whether a scalar step splits s's dense FLOPs
// between the FP4 and BF16 peaks (UseNVFP4DenseGEMM where no NVFP4 table
// applies): NVFP4 weights as ModelOpt W4A4 stores them (nvfp4Dense's
// rule) on a GPU with FP4 tensor cores. Elsewhere every dense FLOP runs at
// gemmFLOPS (the FP4 peak for NVFP4 weights).
func (s *StepSetup) nvfp4Roofline() bool {
	q := s.Model.Quant
	return UseNVFP4DenseGEMM && s.WeightDType == catalog.FormatNVFP4 && s.Storage.NVFP4.any() &&
		q.Method == "modelopt" && q.Algo == "NVFP4" && s.HW.FP4FLOPS > 0 && s.HW.BF16FLOPS > 0
}

// nvfp4DenseParams is one GPU's dense parameters (all its layers) stored
// in NVFP4: each component's at the quantized share input.StorageRule
// blends its bytes with (attention at one TP rank's heads).
func nvfp4DenseParams(s *StepSetup, tp float64) float64 {
	m := s.Model
	var sum float64
	for _, d := range denseParts(m, tp) {
		switch {
		case d.comp == input.CompAttention && s.Storage.NVFP4.Attention:
			share := 1.0
			if m.Quant.Shares != nil {
				t := max(1, s.TP)
				share = m.AttentionQuantShare(input.HeadsPerRank(m.NumHeads, t), input.KVHeadsPerRank(m, t))
			}
			sum += d.params * share
		case d.comp == input.CompDenseMLP && s.Storage.NVFP4.DenseMLP:
			sum += d.params * nvfp4Share(m, &s.Storage.NVFP4, d.comp, "")
		case d.comp == input.CompShared && s.Storage.NVFP4.Shared:
			sum += d.params * nvfp4Share(m, &s.Storage.NVFP4, d.comp, "")
		}
	}
	return sum
}

// gemmSplitCache remembers timeSplit's results by their arguments (a
// direct-mapped table; a slot holds the last arguments that hashed to
// it): an engine's steps come back to the same token counts over and
// over, and each lookup of the tables costs three logarithms and an
// exponential per shape. timeSplit is a pure function of its arguments
// and of the tables, so a hit returns the very bits a call would.
type gemmSplitCache struct {
	d     *denseGEMMs // whose times the slots hold
	slots [gemmSplitSlots]gemmSplitSlot
}

// gemmSplitBits is the slot index's width: gemmSplitSlots = 2^gemmSplitBits.
const gemmSplitBits = 8

const gemmSplitSlots = 1 << gemmSplitBits

type gemmSplitSlot struct {
	used            bool
	hasPK           bool
	tok, sampled    uint64 // the arguments' bits
	pk              gemmPeaks
	compute, memory float64
}

// gemmSplitSlotOf is the slot of gemmSplitCache that timeSplit's
// arguments map to. Multiplicative hashing keeps the product's top bits,
// which depend on every bit of the arguments: a whole token count's
// float64 bits are zero below bit 40, so the middle bits it took before
// were the same for every count, and all of them shared one slot.
func gemmSplitSlotOf(tok, sampled float64, pk *gemmPeaks) uint64 {
	h := (math.Float64bits(tok)*0x9e3779b97f4a7c15 ^ math.Float64bits(sampled)*0xc2b2ae3d27d4eb4f) >> (64 - gemmSplitBits)
	if pk != nil {
		h ^= 0x5bd1e995
	}
	return h & (gemmSplitSlots - 1)
}

// timeSplit is d.timeSplit(tok, sampled, pk), from c when it holds it (c
// nil: always computed).
func (c *gemmSplitCache) timeSplit(d *denseGEMMs, tok, sampled float64, pk *gemmPeaks) (compute, memory float64) {
	if c == nil {
		return d.timeSplit(tok, sampled, pk)
	}
	if c.d != d {
		*c = gemmSplitCache{d: d}
	}
	tb, sb := math.Float64bits(tok), math.Float64bits(sampled)
	e := &c.slots[gemmSplitSlotOf(tok, sampled, pk)]
	if e.used && e.tok == tb && e.sampled == sb && e.hasPK == (pk != nil) && (pk == nil || e.pk == *pk) {
		return e.compute, e.memory
	}
	compute, memory = d.timeSplit(tok, sampled, pk)
	*e = gemmSplitSlot{used: true, hasPK: pk != nil, tok: tb, sampled: sb, compute: compute, memory: memory}
	if pk != nil {
		e.pk = *pk
	}
	return compute, memory
}
