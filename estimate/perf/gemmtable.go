package perf

import (
	_ "embed"
	"encoding/json"
	"math"
	"sort"
	"sync"

	"github.com/vlaunch/vlaunch/catalog"
)

// UseGEMMTables switches the dense projections of every step (attention's
// q/k/v/o or MLA's q_a/q_b/kv_a/kv_b/o, dense MLP, shared experts, router,
// LM head) from the scalar GEMM × MeasuredCompute roofline to the sum of
// each GEMM's measured latency at its shape (GEMMTime), on GPUs with
// tables (elsewhere the scalar model stays). Read when a StepModel is
// built.
//
// Switched on 2026-12-06 without a refit (issue #28): DefaultEfficiency
// was fitted with the tables off, and the next step is to refit with them
// on. On that day's main (with the P/D finite runs and the Dynamo
// decode-recompute replay merged) the held-out evidence favoured them:
// P/D calibration TTFT mean 6 -> 7 of 10 within ±30% (median 5 -> 6); P/D
// holdout TTFT mean 1 -> 2 of 5 (worst 298% -> 70%), TPOT 0 -> 3 of 4,
// tok/s 1 -> 4 of 4, requests/s 2 -> 5 of 5; dense anchors 6 -> 8 of 17;
// colocated calibration 131 -> 135 of 155; band coverage 89% -> 90%; NIM's
// dense TTFT error 427% -> 144%. What it cost: the colocated holdout split
// 77 -> 74 of 187 (dstack's DeepSeek-R1 3 -> 2, GLM-4.5-Air 14 -> 13,
// inferencex-pr-3183 B300 27 -> 24, while vLLM #20759 gained 4 -> 6 and
// lmsys-large-ep's left-out figures 1 -> 4) and, against aiconfigurator,
// MoE throughput wins 25 -> 24 and the dense TTFT mean error 61.1% ->
// 68.3%. The tables are measured, not fitted; what they expose (the
// waiting a scalar roofline had stood in for) is the refit's to settle.
var UseGEMMTables = true

// GEMMDType names a table: the linear kernel vLLM runs for the weights.
type GEMMDType string

// The tables' dtypes (tools/aicdata gemmtable).
const (
	// GEMMTableBF16 is torch.nn.functional.linear on BF16 weights.
	GEMMTableBF16 GEMMDType = "bfloat16"
	// GEMMTableFP8 is the per-tensor CUTLASS scaled-mm with its dynamic
	// activation quantization.
	GEMMTableFP8 GEMMDType = "fp8"
	// GEMMTableFP8Block is the block-scaled FP8 kernel vLLM picked
	// (DeepGEMM, CUTLASS or FlashInfer); its host-bound small cells hold
	// the per-tensor figure (tools/aicdata README, "GEMM latency tables").
	GEMMTableFP8Block GEMMDType = "fp8_block"
	// GEMMTableNVFP4 is W4A4 NVFP4 (group 16) as vLLM 0.24.0's
	// init_nvfp4_linear_kernel picks it — FlashInfer's CuTe-DSL mm_fp4 on
	// B200, B300 and GB200, FlashInfer's CUTLASS one on the RTX PRO 6000 —
	// with its dynamic activation quantization to NVFP4 (aiconfigurator's
	// collect_gemm.py builds a compressed-tensors W4A4 layer;
	// vLLM's ModelOptNvFp4LinearMethod takes its kernel from the same
	// init_nvfp4_linear_kernel). Timed in a CUDA graph with one weight
	// copy (tools/aicdata gemmtable.go).
	GEMMTableNVFP4 GEMMDType = "nvfp4"
)

// UseNVFP4DenseGEMM prices the dense projections a ModelOpt NVFP4 (W4A4,
// quant_algo NVFP4) checkpoint stores in NVFP4 (input.StorageRule:
// ModelOpt's exclude_modules kept BF16; nvidia/DeepSeek-V3.1-NVFP4
// quantizes o_proj, the dense MLPs and the shared experts, not
// q_a/q_b/kv_a/kv_b) at the measured NVFP4 GEMM table (GEMMTableNVFP4)
// where the GPU has one (b200_sxm, b300_sxm, gb200, rtx_pro_6000_server),
// the other projections at the BF16 table as before (StepSetup.nvfp4Dense
// says which checkpoints). On a GPU with FP4 tensor cores but no NVFP4
// table (GB300, GB10: no measured tables at all) the scalar roofline
// computes those projections' FLOPs at the FP4 peak (Hardware.FP4FLOPS,
// the catalog's datasheet figure) and the others' (excluded projections,
// router, LM head) at the BF16 peak, both at the GEMM efficiency, the
// bytes the storage rule's (StepModel.fp4Split). Off, an NVFP4 MoE
// checkpoint's dense projections all take the BF16 table where there is
// one (2 B a weight streamed, BF16 tensor cores), a dense NVFP4 model
// keeps the scalar roofline, and the scalar roofline runs every dense
// FLOP at the FP4 peak.
//
// What the table says (B200, µs, NVFP4 against BF16): batch-1 decode
// shapes small enough to be launch-bound are slower in NVFP4 (N = 7168,
// K = 2048: 9.2 against 7.2; the NVFP4 floor is 6.1 µs, two kernels),
// weight-streaming shapes faster (N = 7168, K = 16384: 21 against 40),
// compute-bound ones 2.2–2.8× faster (M = 4096, N = K = 8192: 130 against
// 322, 4.2 PFLOPS, 47% of the 9 PFLOPS dense FP4 peak).
//
// Trialled 2026-12-06 (branch nvfp4gemm, no refit) and left on: it prices
// the kernel vLLM runs for those layers, and no calibration or holdout
// figure moves (the only NVFP4 rows, inferencex-pr-3183's SGLang
// DeepSeek-R1-0528-FP4-V2 on B300, stand on the FP8 catalog entry, whose
// storage rule has no NVFP4 dense part). The deepseek-v3.1-nvfp4-4xb200
// example: prefill of 4,096 tokens 132 -> 126 ms, decode step at batch 1
// 11.1 -> 11.3 ms and at 64 31.7 -> 31.9 ms (TP4's o_proj and shared-
// expert shapes are launch-bound), simulated TPOT 38.2 -> 37.9 ms. Against
// it: those SGLang rows given DeepSeek-V3.1-NVFP4's exclusion list (a
// what-if: V2's own list is not in the repository) predict every TPOT
// 1–12 points slower (TP8 batch 1 -1% -> +11%), and the table's separate
// activation-quantization kernel is fused into SiLU-and-mul ahead of
// down_proj by vLLM's default compile passes since PR #34718 (2026-02-17),
// which no table here times on its own (aiconfigurator's quantize tables
// are FP8 only).
var UseNVFP4DenseGEMM = true

// gemmTablesJSON is tools/aicdata gemmtable's output (aiconfigurator's
// measured vLLM GEMM tables at commit 095f58a51c4c: per system the newest
// vLLM release directory, 0.24.0, a100_sxm 0.14.0): latency in µs on the
// grid M × NK × NK, -1 where the table has no row.
//
//go:embed gemm_tables.json
var gemmTablesJSON []byte

// gemmTables is the parsed table, log latencies (NaN: no row).
type gemmTables struct {
	logM, logNK []float64
	m, nk       []float64                          // the grid itself (what extrapolation scales from)
	sys         map[string]map[GEMMDType][]float64 // flat [m][n][k]
}

var (
	gemmTablesOnce sync.Once
	gemmTablesData *gemmTables
)

// loadGEMMTables parses the embedded tables once (a malformed file, which
// a test rules out, leaves none: every GPU then keeps the scalar model).
func loadGEMMTables() *gemmTables {
	gemmTablesOnce.Do(func() {
		var doc struct {
			M       []float64 `json:"m"`
			NK      []float64 `json:"nk"`
			Systems map[string]struct {
				Lat map[string][][][]float64 `json:"lat_us"`
			} `json:"systems"`
		}
		if err := json.Unmarshal(gemmTablesJSON, &doc); err != nil {
			return
		}
		t := &gemmTables{sys: map[string]map[GEMMDType][]float64{}, m: doc.M, nk: doc.NK}
		for _, m := range doc.M {
			t.logM = append(t.logM, math.Log(m))
		}
		for _, n := range doc.NK {
			t.logNK = append(t.logNK, math.Log(n))
		}
		for name, s := range doc.Systems {
			t.sys[name] = map[GEMMDType][]float64{}
			for dt, c := range s.Lat {
				flat := make([]float64, 0, len(doc.M)*len(doc.NK)*len(doc.NK))
				for _, plane := range c {
					for _, row := range plane {
						for _, v := range row {
							lv := math.NaN()
							if v > 0 {
								lv = math.Log(v * 1e-6)
							}
							flat = append(flat, lv)
						}
					}
				}
				if len(flat) == cap(flat) {
					if UseGEMMSmallMStepBound && smallMStep(flat, len(doc.M), len(doc.NK)) > smallMStepLimit {
						boundSmallestM(flat, len(doc.M), len(doc.NK))
					}
					t.sys[name][GEMMDType(dt)] = flat
				}
			}
		}
		gemmTablesData = t
	})
	return gemmTablesData
}

// UseGEMMSmallMStepBound bounds the M = 1 cells of a measured GEMM table
// that carries a step at M = 1 (smallMStep above smallMStepLimit) by the
// least cell of the same N and K at a larger M (boundSmallestM): one
// kernel on one row does no more work than on more, so an M = 1 cell
// slower than a larger M's measures something other than the GEMM's work.
// Read once, when the tables are first loaded.
//
// What it corrects (qa43 F5): the per-tensor FP8 tables of the Blackwell
// systems read 13–15 µs more at M = 1 than at M = 2–16 on most shapes
// (b200_sxm N = K = 4096: 24.6 µs at M = 1, 9.2–9.6 at M = 2–16; N = 16384,
// K = 4096: 30.6 against 16.2–17.8; in aiconfigurator's raw rows the
// median M = 1 cell is 2.35× (b200_sxm) and 2.53× (b300_sxm) the median of
// M = 2–16 of its shape, where those cells scatter 2–7% (p90) about their
// median), yet vLLM runs M ∈ [1, 16] through one CUTLASS configuration
// (csrc/quantization/w8a8/cutlass/c3x/scaled_mm_sm100_fp8_dispatch.cuh:
// cutlass_gemm_sm100_fp8_dispatch sends m <= 16 to
// sm100_fp8_config_M16_swap_ab; read at vllm-project/vllm commit
// 487e7b0e3e4c, whose release was not checked against the tables' 0.24.0).
// Read as measured, Llama-3.1-8B's
// batch-1 decode step on one B200 cost 4.1 ms of FP8 projections against
// 2.8 ms in BF16: FP8 slower than BF16 where both stream their weights and
// FP8 streams half the bytes. Which part of the M = 1 replay carries the
// extra time (the dynamic activation quantization, the swapped-AB
// epilogue writing one column) is not established, nor whether vLLM
// serving pays it: no public B200 FP8-against-BF16 batch-1 figure was
// found. The fp8_block cells were already built this way (tools/aicdata
// gemmtable: the least of the block row and the per-tensor rows at M or
// more).
//
// The tables bounded are those the data shows the step in, not a list:
// b200_sxm, b300_sxm and gb200 fp8 (median M = 1 cell 2.7–3.1× the least
// larger-M cell of its shape) and rtx_pro_6000_server fp8 (1.20×). Every
// other table's median lies at 0.93–1.04×, the scatter of repeated cells:
// bounding those would only take the least of each flat region's noise,
// a few percent low on every decode-sized GEMM (tried on every table and
// every M: the B200 Llama-8B BF16 batch-1 anchor −13% -> −16%, H200
// Llama-70B TP2 decode −8%, and the H100 FP8 NIM figures' median error in
// aiconfigurator's comparison 9.6% -> 11.1%).
//
// Only the M = 1 row: B200's per-tensor FP8 rows also hold isolated cells
// about twice their neighbours at M = 2–64 (5% of the M = 2–16 cells lie
// 87% or more above their shape's median; N = 8192, K = 4096 at M = 16:
// 21.6 µs between 11.4 and 11.6), but bounding every M lowered the
// Dynamo GKE B200 P/D decode TPOTs (vLLM 0.20.1, 16–32 sequences per
// decode rank) from −3…−5% to −6…−14% of the published figures: that
// those cells are noise is not established.
//
// With the bound, FP8 weights at batch 1 (one sequence, the check
// report's "FP8 weights" alternative to a BF16 spec) cost 0.82× BF16's
// step for Llama-3.1-8B on one B200 (2.8 against 3.4 ms; 1.41× before)
// and 0.74× for Llama-3.3-70B at TP2 (10.0 against 13.6 ms; 1.12×
// before); H100's, unchanged, 0.70× and 0.62×. The nearest public
// figures found are Red Hat's FP8-dynamic model cards measured with vLLM
// and GuideLLM: single-stream speedups up to 1.5× (granite-3.1-8b-base,
// L40, vLLM 0.6.6.post1) and 1.3× (Qwen2.5-VL-7B-Instruct, vLLM 0.7.2),
// FP8 at 0.67–0.77× BF16's time per token; none on B200 or for Llama. The
// B200 8B step keeps more than the byte ratio says because its
// projections are small: the tables read 9–10 µs for a 4096 × 4096 GEMM
// at M = 1 in BF16 and in FP8 alike (34 and 17 MB: 4.4 and 2.2 µs at
// 7.7 TB/s).
var UseGEMMSmallMStepBound = true

// smallMStepLimit is the median ratio (smallMStep) above which a table's
// M = 1 row is taken to carry a step rather than scatter: above the
// 0.93–1.04 of the tables without one, below the 1.20–3.08 of those with
// one.
const smallMStepLimit = 1.1

// smallMStep is the median over a table's shapes (N, K) of its M = 1 cell
// over the least cell of the same shape at a larger M (flat: log
// latencies [m][n][k] on an nm × nn × nn grid, NaN: no row); 1 when no
// shape has both.
func smallMStep(flat []float64, nm, nn int) float64 {
	var ratios []float64
	for nk := 0; nk < nn*nn; nk++ {
		least := math.Inf(1)
		for im := 1; im < nm; im++ {
			if v := flat[im*nn*nn+nk]; !math.IsNaN(v) {
				least = math.Min(least, v)
			}
		}
		if v := flat[nk]; !math.IsNaN(v) && !math.IsInf(least, 1) {
			ratios = append(ratios, v-least)
		}
	}
	if len(ratios) == 0 {
		return 1
	}
	sort.Float64s(ratios)
	n := len(ratios)
	return math.Exp((ratios[(n-1)/2] + ratios[n/2]) / 2)
}

// boundSmallestM lowers each M = 1 cell of flat (log latencies [m][n][k]
// on an nm × nn × nn grid, NaN: no row) to the least cell of the same N
// and K at a larger M, where that is lower. Cells without a row stay
// without one; the larger-M cells stay as measured.
func boundSmallestM(flat []float64, nm, nn int) {
	for nk := 0; nk < nn*nn; nk++ {
		least := math.Inf(1)
		for im := 1; im < nm; im++ {
			if v := flat[im*nn*nn+nk]; !math.IsNaN(v) {
				least = math.Min(least, v)
			}
		}
		if v := flat[nk]; !math.IsNaN(v) && v > least {
			flat[nk] = least
		}
	}
}

// table is a system's flat table of dtype, nil without one.
func (t *gemmTables) table(system string, dt GEMMDType) []float64 {
	if t == nil {
		return nil
	}
	return t.sys[system][dt]
}

// at is the latency (s) of an M×K by K×N GEMM in flat: log latency
// interpolated trilinearly in log M, log N, log K inside the grid (corners
// without a row are left out and the others' weights renormalised),
// extrapolated past its largest M, N and K by the work that grows
// (atGrid) and held at the smallest below them; 0 when no corner has a
// row. The extrapolated part is not floored here: GEMMTime and the step's
// timeSplit floor it at the shape's roofline (gemmFloor).
func (t *gemmTables) at(flat []float64, m, n, k float64) float64 {
	return t.atGrid(flat, t.gridM(m), t.gridNK(n, k))
}

// gridPos is a value's place on one axis of the tables (logGridPos): the
// cell and the fraction of the way to the next, and the value itself
// (what extrapolation past the axis's last cell scales by).
type gridPos struct {
	i int
	f float64
	x float64
}

// gridNK is a GEMM's places on the N and K axes.
type gridNK struct{ n, k gridPos }

// gridM is m's place on the M axis.
func (t *gemmTables) gridM(m float64) gridPos {
	i, f := logGridPos(t.logM, m)
	return gridPos{i, f, m}
}

// gridNK is n's and k's places on the N and K axes.
func (t *gemmTables) gridNK(n, k float64) gridNK {
	in, fn := logGridPos(t.logNK, n)
	ik, fk := logGridPos(t.logNK, k)
	return gridNK{gridPos{in, fn, n}, gridPos{ik, fk, k}}
}

// beyond is how many times the axis's last cell x lies past it (1 inside
// the grid and below it).
func (p gridPos) beyond(grid []float64) float64 {
	return max(1, p.x/grid[len(grid)-1])
}

// extrapolated reports whether a GEMM of m rows and shape pnk lies past
// the grid's largest M, N or K (or, on M, past the largest M the table
// has a row of that shape for): its time is then extrapolated (atGrid),
// and its callers floor it at the roofline.
func (t *gemmTables) extrapolated(flat []float64, pm gridPos, pnk gridNK) bool {
	if pnk.n.beyond(t.nk) > 1 || pnk.k.beyond(t.nk) > 1 {
		return true
	}
	top := t.topM(flat, pnk)
	return top >= 0 && pm.x > t.m[top]
}

// atGrid is at given the places of M, N and K on the axes.
//
// Past the largest N or K (65,536 on every table: a 128K–256K-vocabulary
// LM head at TP1, a 106,496-wide fused gate_up of Llama-3.1-405B) the
// time is the last cell's scaled by n/N_max · k/K_max: an N×K GEMM's
// FLOPs (2MNK), weight bytes (NK) and output bytes (MN) all grow linearly
// in N, its FLOPs, weight and input bytes (MK) in K; only the launch does
// not, a few µs against the ≥ 80 µs of any 65,536-wide cell.
//
// Past the largest M with a row for the shape (16,384 on every table but
// a100_sxm's, whose 16,384 plane is empty: 4,096 there) the time is
// affine in M through the last two measured M (mPrev, mTop):
// T(mTop) + (m − mTop)·max(0, (T(mTop) − T(mPrev))/(mTop − mPrev)). The
// marginal time per row is what another row costs — its FLOPs and its
// activation bytes — while the weight read and the launch, which do not
// grow with M, stay in the intercept; scaling the last cell by the ratio
// of FLOPs would scale them too (small at M = 16,384, far past every
// dtype's ridge, but the whole time of a launch-bound router or 64-wide
// cell). A slope of measurement scatter below the physical one is caught
// by the roofline floor the callers apply (gemmFloor).
//
// Below the smallest M, N or K (M = 1, N or K = 64: an 8-expert router)
// the smallest cell is held: those cells are launch-bound or bound by the
// other operand (an M × K activation read does not shrink with N), so
// less work there does not cost less time.
func (t *gemmTables) atGrid(flat []float64, pm gridPos, pnk gridNK) float64 {
	scale := pnk.n.beyond(t.nk) * pnk.k.beyond(t.nk)
	top := t.topM(flat, pnk)
	if top < 0 || pm.x <= t.m[top] {
		return t.interp(flat, pm, pnk) * scale
	}
	mTop := t.m[top]
	last := t.interp(flat, gridPos{top, 0, mTop}, pnk)
	if top == 0 {
		return last * scale // one measured M: nothing to take a slope from
	}
	mPrev := t.m[top-1]
	prev := t.interp(flat, gridPos{top - 1, 0, mPrev}, pnk)
	slope := 0.0
	if prev > 0 {
		slope = max(0, (last-prev)/(mTop-mPrev))
	}
	return (last + (pm.x-mTop)*slope) * scale
}

// topM is the largest M index at which flat has a row for some corner of
// pnk that the interpolation weighs, -1 when none has one.
func (t *gemmTables) topM(flat []float64, pnk gridNK) int {
	nm, nn := len(t.logM), len(t.logNK)
	top := -1
	for b := 0; b < 2; b++ {
		if corner(pnk.n.f, b) == 0 {
			continue
		}
		for d := 0; d < 2; d++ {
			if corner(pnk.k.f, d) == 0 {
				continue
			}
			nk := min(pnk.n.i+b, nn-1)*nn + min(pnk.k.i+d, nn-1)
			for im := nm - 1; im > top; im-- {
				if !math.IsNaN(flat[im*nn*nn+nk]) {
					top = im
					break
				}
			}
		}
	}
	return top
}

// interp is the trilinear interpolation of log latency at the places
// (held at the grid's ends); 0 when no weighted corner has a row.
func (t *gemmTables) interp(flat []float64, pm gridPos, pnk gridNK) float64 {
	im, fm := pm.i, pm.f
	in, fn := pnk.n.i, pnk.n.f
	ik, fk := pnk.k.i, pnk.k.f
	nm, nn := len(t.logM), len(t.logNK)
	var sum, wsum float64
	for a := 0; a < 2; a++ {
		wa := corner(fm, a)
		if wa == 0 {
			continue
		}
		for b := 0; b < 2; b++ {
			wb := wa * corner(fn, b)
			if wb == 0 {
				continue
			}
			for d := 0; d < 2; d++ {
				w := wb * corner(fk, d)
				if w == 0 {
					continue
				}
				v := flat[(min(im+a, nm-1)*nn+min(in+b, nn-1))*nn+min(ik+d, nn-1)]
				if math.IsNaN(v) {
					continue
				}
				sum += w * v
				wsum += w
			}
		}
	}
	if wsum == 0 {
		return 0
	}
	return math.Exp(sum / wsum)
}

// corner is the weight of the lower (a = 0) or upper cell at fraction f.
func corner(f float64, a int) float64 {
	if a == 0 {
		return 1 - f
	}
	return f
}

// logGridPos is x's cell in the ascending log grid: index and fraction,
// clamped to the ends (atGrid extrapolates past the last from the value).
func logGridPos(logs []float64, x float64) (int, float64) {
	lx := math.Log(max(x, 1e-9))
	if lx <= logs[0] {
		return 0, 0
	}
	last := len(logs) - 1
	if lx >= logs[last] {
		return last, 0
	}
	i := sort.SearchFloat64s(logs, lx) - 1
	return i, (lx - logs[i]) / (logs[i+1] - logs[i])
}

// gemmFloor is the roofline of an m-row GEMM of an n×k weight in dtype dt:
// the longer of its FLOPs at the dtype's tensor peak and its operands
// (weights at the dtype's width, BF16 activations in and out) at the HBM
// peak; 0 where pk lacks either peak. What an extrapolated time
// (gemmTables.atGrid) may not fall below.
func gemmFloor(pk *gemmPeaks, dt GEMMDType, m, n, k float64) float64 {
	peak, wb := pk.of(dt)
	if peak <= 0 || pk.hbm <= 0 {
		return 0
	}
	bytes := n*k*wb + 2*m*(n+k)
	return max(2*m*n*k/peak, bytes/pk.hbm)
}

// GEMMTime is the measured GPU time (s) of one GEMM of M tokens by an
// N×K weight in dtype on g, launch and activation quantization included
// (aiconfigurator's CUDA-graph replays; fp8_block's large cells eager):
// false for a GPU or dtype without a table, which keeps the scalar model.
//
// Past the grid's largest M, N or K the time is extrapolated (atGrid) and
// floored at g's roofline for the shape (gemmFloor).
func GEMMTime(g *catalog.GPU, dt GEMMDType, m, n, k float64) (float64, bool) {
	kf, ok := MeasuredKernels(g)
	if !ok {
		return 0, false
	}
	pk := gemmPeaks{bf16: g.BF16TFLOPS * 1e12, fp8: g.FP8TFLOPS * 1e12, fp4: g.FP4TFLOPS * 1e12, hbm: g.HBMBandwidthGBytesPerS * 1e9}
	return gemmTimeOn(kf.System, dt, m, n, k, &pk)
}

// gemmTimeOn is GEMMTime by aiconfigurator system name, the extrapolated
// part floored at pk's roofline (pk nil: not floored).
func gemmTimeOn(system string, dt GEMMDType, m, n, k float64, pk *gemmPeaks) (float64, bool) {
	t := loadGEMMTables()
	flat := t.table(system, dt)
	if flat == nil {
		return 0, false
	}
	v := t.timeOn(flat, dt, m, n, k, pk)
	return v, v > 0
}

// timeOn is the latency (s) of an m-row GEMM of an n×k weight in flat
// (a table of dtype dt): at, the extrapolated part floored at pk's
// roofline (pk nil: not floored); 0 without a row.
func (t *gemmTables) timeOn(flat []float64, dt GEMMDType, m, n, k float64, pk *gemmPeaks) float64 {
	pm, pnk := t.gridM(m), t.gridNK(n, k)
	v := t.atGrid(flat, pm, pnk)
	if v > 0 && pk != nil && t.extrapolated(flat, pm, pnk) {
		v = max(v, gemmFloor(pk, dt, m, n, k))
	}
	return v
}
