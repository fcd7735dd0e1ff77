package perf

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestFlashMLAHeadPaddingByHand derives DeepSeek-V3's decode attention on
// an H20 (148 TFLOPS BF16, 4,000 GB/s: catalog h20-96g) for 128 sequences
// × 8,192 context — deepseek-ai/FlashMLA issue #30's case — per layer on
// one rank, at TP8 and TP1, with the padding off and on:
//
//	pairs = 128 × 8,192 = 1,048,576 (query, context token) pairs
//	FLOPs per pair and query row = 2 × (2 × 512 + 64) = 2,176 (absorbed MLA)
//	KV bytes = 1,048,576 × 576 × 2 B = 1,207,959,552 B → 0.302 ms at 4.0 TB/s
//
//	TP8: 128 / 8 = 16 rows; FlashMLA computes ceil(16 / 64) × 64 = 64
//	  off: 2,176 × 16 × pairs = 36.5 GFLOPs → 0.247 ms: memory-bound, 0.302 ms
//	  on:  2,176 × 64 × pairs = 146.0 GFLOPs → 0.987 ms: compute-bound, 3.3×
//	TP1: 128 rows = 2 tiles, nothing pads: 292.0 GFLOPs → 1.974 ms either way
//
// At TP8 the rank does a quarter of TP1's useful work but, padded, half
// its time, where unpadded it was a sixth: issue #30 reads 30 TFLOPS of
// useful work at 16 heads against 120–130 at 48–128 head-rows (≈ ¼).
func TestFlashMLAHeadPaddingByHand(t *testing.T) {
	defer func(v bool) { UseFlashMLAHeadPadding = v }(UseFlashMLAHeadPadding)
	m := perfModel(t, "deepseek-v3")
	g := perfGPU(t, "h20-96g")
	if m.NumHeads != 128 || m.KVLoraRank != 512 || m.QKRopeHeadDim != 64 || g.BF16TFLOPS != 148 || g.HBMBandwidthGBytesPerS != 4000 {
		t.Fatalf("catalog moved: heads %d, kv_lora %d, rope %d, H20 %v TF %v GB/s", m.NumHeads, m.KVLoraRank, m.QKRopeHeadDim, g.BF16TFLOPS, g.HBMBandwidthGBytesPerS)
	}
	const pairs = 128 * 8192.0
	const bytes = pairs * 576 * 2
	l := RankLoad{DecodeSeqs: 128, DecodeCtx: pairs}
	layers := float64(m.NumLayers)
	for _, tt := range []struct {
		tp       int
		pad      bool
		backend  string
		rows     float64 // FLOPs rows per pair
		timeMsPL float64 // decode attention roof per layer, ms
	}{
		{8, false, vllm.MLAFlashMLA, 16, 0.302},
		{8, true, vllm.MLAFlashMLA, 64, 0.987},
		{8, true, vllm.MLAFlashAttn, 64, 0.987}, // FA3's 64-row PackGQA tile: the same padding
		{8, true, vllm.MLATriton, 16, 0.302},    // a backend whose tile is not modelled
		{1, false, vllm.MLAFlashMLA, 128, 1.974},
		{1, true, vllm.MLAFlashMLA, 128, 1.974},
	} {
		UseFlashMLAHeadPadding = tt.pad
		s := StepSetup{Model: m, HW: NewHardware(g, 8, 0, 2, 0, 0, 0), TP: tt.tp, PP: 1, DP: 1,
			WeightDType: "fp8", KVDType: "bf16", CUDAGraphs: true, MLABackend: tt.backend, Eff: idealEff}
		sm := NewStepModel(s)
		f := sm.attnFLOPs(l, true) / layers
		if want := 2 * (2*512 + 64) * tt.rows * pairs; math.Abs(f/want-1) > 1e-12 {
			t.Errorf("TP%d pad %v %s: %.4g FLOPs a layer, hand %.4g", tt.tp, tt.pad, tt.backend, f, want)
		}
		if b := sm.kvBytesTokLayer * sm.layerCtx(l) / layers; math.Abs(b/bytes-1) > 1e-12 {
			t.Errorf("TP%d: %.4g KV bytes a layer, hand %.4g (the padding reads no more)", tt.tp, b, bytes)
		}
		roof := max(f/(148e12), bytes/4000e9) * 1e3
		if math.Abs(roof/tt.timeMsPL-1) > 0.002 {
			t.Errorf("TP%d pad %v %s: %.4f ms a layer, hand %.3f", tt.tp, tt.pad, tt.backend, roof, tt.timeMsPL)
		}
		// The step's attention term carries it (no measured floors here).
		st := sm.StepUniform(l)
		if math.Abs(st.AttentionS/(roof*1e-3*layers)-1) > 0.01 {
			t.Errorf("TP%d pad %v %s: step attention %.3f ms, hand %.3f ms", tt.tp, tt.pad, tt.backend, st.AttentionS*1e3, roof*layers)
		}
	}
}

// TestFlashMLAQueryRows: MTP's verified positions and DCP's gathered heads
// fold into the rows before padding; a tile's worth or more pads only its
// remainder; DeepSeek-V4 and sparse MLA are left to their own padding.
func TestFlashMLAQueryRows(t *testing.T) {
	defer func(v bool) { UseFlashMLAHeadPadding = v }(UseFlashMLAHeadPadding)
	UseFlashMLAHeadPadding = true
	v3 := perfModel(t, "deepseek-v3")
	for _, tt := range []struct {
		tp, spec, dcp int
		want          float64
	}{
		{8, 0, 1, 64.0 / 16},   // 16 rows → 64
		{8, 1, 1, 64.0 / 32},   // MTP 1: 32 rows → 64
		{8, 3, 1, 1},           // MTP 3: 64 rows, one full tile
		{16, 0, 1, 64.0 / 8},   // 8 rows → 64
		{4, 0, 1, 64.0 / 32},   // 32 rows → 64
		{2, 0, 1, 1},           // 64 rows
		{8, 0, 8, 128.0 / 128}, // DCP 8 gathers the 128 heads: two tiles
		{16, 2, 1, 64.0 / 24},  // 8 × 3 = 24 rows → 64
		{1, 1, 1, 256.0 / 256},
	} {
		s := StepSetup{Model: v3, TP: tt.tp, SpecTokens: tt.spec, DCP: tt.dcp, MLABackend: vllm.MLAFlashMLA}
		if got := flashMLAPadFactor(&s); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("TP%d spec %d DCP %d: pad %.4f, want %.4f", tt.tp, tt.spec, tt.dcp, got, tt.want)
		}
	}
	v32, err := catalog.LoadHFConfig("../../catalog/testdata/deepseek-v3.2-reconstructed.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*catalog.Model{perfModel(t, "deepseek-v4-flash"), v32} {
		s := StepSetup{Model: m, TP: 8, MLABackend: vllm.MLAFlashMLA}
		if got := flashMLAPadFactor(&s); got != 1 {
			t.Errorf("%s: pad %v, want 1 (padded by its own kernels' rule)", m.ID, got)
		}
	}
	s := StepSetup{Model: v3, TP: 8, MLABackend: vllm.MLAFlashMLA, SGLang: true}
	if got := flashMLAPadFactor(&s); got != 1 {
		t.Errorf("SGLang: pad %v, want 1", got)
	}
}

// TestMLADecodeTileByBackend derives each backend's padding by hand for
// DeepSeek-V3 (128 heads):
//
//	FLASHMLA, FLASH_ATTN_MLA: 64-row tiles over heads × positions
//	  TP8 16 rows → 64 (×4); MTP 1: 32 → 64 (×2); MTP 3: 64 (×1)
//	  TP16 8 → 64 (×8); TP1 128 = 2 tiles (×1)
//	CUTLASS_MLA: each query position's heads padded to 128 (MAX_HEADS)
//	  TP8 16 → 128 (×8), also with MTP 1 (per position: ×8);
//	  TP1 128 (×1); TP8 DCP8 16 × 8 = 128 (×1)
//	FLASHINFER_MLA, TRITON_MLA: not modelled (×1)
//
// and each switch turns its own backend off and no other.
func TestMLADecodeTileByBackend(t *testing.T) {
	defer func(a, b, c bool) {
		UseFlashMLAHeadPadding, UseFlashAttnMLAHeadPadding, UseCutlassMLAHeadPadding = a, b, c
	}(UseFlashMLAHeadPadding, UseFlashAttnMLAHeadPadding, UseCutlassMLAHeadPadding)
	UseFlashMLAHeadPadding, UseFlashAttnMLAHeadPadding, UseCutlassMLAHeadPadding = true, true, true
	v3 := perfModel(t, "deepseek-v3")
	for _, tt := range []struct {
		backend       string
		tp, spec, dcp int
		want          float64
	}{
		{vllm.MLAFlashMLA, 8, 0, 1, 4},
		{vllm.MLAFlashAttn, 8, 0, 1, 4},
		{vllm.MLAFlashAttn, 8, 1, 1, 2},
		{vllm.MLAFlashAttn, 8, 3, 1, 1},
		{vllm.MLAFlashAttn, 16, 0, 1, 8},
		{vllm.MLAFlashAttn, 1, 0, 1, 1},
		{vllm.MLACutlass, 8, 0, 1, 8},
		{vllm.MLACutlass, 8, 1, 1, 8},
		{vllm.MLACutlass, 16, 0, 1, 16},
		{vllm.MLACutlass, 1, 0, 1, 1},
		{vllm.MLACutlass, 8, 0, 8, 1},
		{vllm.MLAFlashInfer, 8, 0, 1, 1},
		{vllm.MLATriton, 8, 0, 1, 1},
		{"", 8, 0, 1, 1},
	} {
		s := StepSetup{Model: v3, TP: tt.tp, SpecTokens: tt.spec, DCP: tt.dcp, MLABackend: tt.backend}
		if got := flashMLAPadFactor(&s); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s TP%d spec %d DCP %d: pad %.4f, want %.4f", tt.backend, tt.tp, tt.spec, tt.dcp, got, tt.want)
		}
	}
	for _, tt := range []struct {
		off     *bool
		backend string
	}{
		{&UseFlashMLAHeadPadding, vllm.MLAFlashMLA},
		{&UseFlashAttnMLAHeadPadding, vllm.MLAFlashAttn},
		{&UseCutlassMLAHeadPadding, vllm.MLACutlass},
	} {
		*tt.off = false
		for _, b := range []string{vllm.MLAFlashMLA, vllm.MLAFlashAttn, vllm.MLACutlass} {
			s := StepSetup{Model: v3, TP: 8, MLABackend: b}
			got := flashMLAPadFactor(&s)
			if b == tt.backend && got != 1 {
				t.Errorf("%s switched off: pad %v, want 1", b, got)
			}
			if b != tt.backend && got == 1 {
				t.Errorf("%s off turned %s off too", tt.backend, b)
			}
		}
		*tt.off = true
	}
}
