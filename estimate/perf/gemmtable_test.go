package perf

import (
	"bytes"
	"math"
	"os"
	"testing"
)

// TestGEMMTimeTableRows checks the lookup against cells of the embedded
// table (tools/aicdata/gemm_tables.json, h100_sxm) and values derived by
// hand from them: on the grid the cell, between cells the geometric mean
// weighted in log M / log K, below the grid the edge cell, past it
// extrapolated (TestGEMMExtrapolation).
func TestGEMMTimeTableRows(t *testing.T) {
	h100 := perfGPU(t, "h100-sxm")
	us := 1e-6
	for _, c := range []struct {
		name    string
		dt      GEMMDType
		m, n, k float64
		want    float64
	}{
		{"bf16 cell M=1 4096²", GEMMTableBF16, 1, 4096, 4096, 15 * us},
		{"bf16 cell M=4 4096²", GEMMTableBF16, 4, 4096, 4096, 15.4 * us},
		{"bf16 M=2: halfway in log M", GEMMTableBF16, 2, 4096, 4096, math.Sqrt(15*15.4) * us},
		{"bf16 below M=1: held flat", GEMMTableBF16, 0.25, 4096, 4096, 15 * us},
		{"bf16 64² floor cell", GEMMTableBF16, 1, 64, 64, 2.55 * us},
		{"bf16 below N,K=64: held flat", GEMMTableBF16, 1, 8, 16, 2.55 * us},
		{"fp8 cell M=4096 8192²", GEMMTableFP8, 4096, 8192, 8192, 496 * us},
		{"fp8 K=12288 between 8192 and 16384", GEMMTableFP8, 4096, 8192, 12288,
			math.Exp(math.Log(496)+math.Log(1.5)/math.Log(2)*(math.Log(968)-math.Log(496))) * us},
		{"fp8_block host-bound cell holds fp8's least at M ≥ 1", GEMMTableFP8Block, 1, 4096, 4096, 11.7 * us},
		{"fp8_block cell below fp8's (DeepGEMM)", GEMMTableFP8Block, 4096, 8192, 8192, 456 * us},
		// Past M = 16384: affine through M = 4096 (456 µs) and 16384
		// (1690 µs, fp8's cell), 0.1004 µs a row.
		{"fp8_block past M=16384: affine from the last two M", GEMMTableFP8Block, 65536, 8192, 8192,
			(1690 + (65536-16384)*(1690-456)/(16384-4096.0)) * us},
	} {
		got, ok := GEMMTime(h100, c.dt, c.m, c.n, c.k)
		if !ok || math.Abs(got/c.want-1) > 1e-9 {
			t.Errorf("%s: GEMMTime = %.6g, %v; want %.6g", c.name, got, ok, c.want)
		}
	}
	if _, ok := GEMMTime(perfGPU(t, "h20-96g"), GEMMTableBF16, 1, 4096, 4096); ok {
		t.Error("H20 has no table: GEMMTime must report none (scalar model)")
	}
	if _, ok := GEMMTime(perfGPU(t, "a100-80g"), GEMMTableFP8, 1, 4096, 4096); ok {
		t.Error("A100 has no fp8 table")
	}
	// M = 16384, N = K = 65536 has no row on H100: the lookup leaves that
	// corner out rather than read -1.
	if got, ok := GEMMTime(h100, GEMMTableBF16, 16384, 65536, 65536); ok && got <= 0 {
		t.Errorf("missing corner read as %v", got)
	}
}

// TestDenseGEMMShapes lists the per-GPU projections of gpt-oss-120b and
// DeepSeek-V3 at TP8 (hand-derived from their configs as vLLM shards
// them), and checks the switch gates them.
func TestDenseGEMMShapes(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	type shape struct{ n, k, layers float64 }
	h100 := perfGPU(t, "h100-sxm")
	for _, c := range []struct {
		model, dtype string
		want         []shape
		lm           shape
	}{
		// hidden 2880, 64 q / 8 kv heads of 64, 128 experts, 36 layers:
		// qkv (8 + 2)·64, o from 8·64, router 128.
		{"gpt-oss-120b", "mxfp4", []shape{{640, 2880, 36}, {2880, 512, 36}, {128, 2880, 36}}, shape{201088 / 8, 2880, 1}},
		// hidden 7168, 128 heads, q_lora 1536, kv_lora 512, nope 128, rope
		// 64, v 128; 3 dense layers of 18432, 58 MoE of 256 experts + 1
		// shared expert of 2048.
		{"deepseek-v3", "fp8", []shape{
			{1536 + 512 + 64, 7168, 61}, {16 * 192, 1536, 61}, {16 * 256, 512, 61}, {7168, 16 * 128, 61},
			{2 * 2304, 7168, 3}, {7168, 2304, 3},
			{256, 7168, 58}, {2 * 256, 7168, 58}, {7168, 256, 58},
		}, shape{129280 / 8, 7168, 1}},
	} {
		s := StepSetup{Model: perfModel(t, c.model), TP: 8, PP: 1, DP: 1, WeightDType: c.dtype,
			HW: NewHardware(h100, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, h100)}
		UseGEMMTables = false
		if gemmShapesOf(&s) != nil {
			t.Fatalf("%s: shapes with UseGEMMTables off", c.model)
		}
		UseGEMMTables = true
		got := gemmShapesOf(&s)
		if len(got) != len(c.want)+1 {
			t.Fatalf("%s: %d shapes, want %d: %+v", c.model, len(got), len(c.want)+1, got)
		}
		for i, w := range append(c.want, c.lm) {
			g := got[i]
			if math.Abs(g.n-w.n) > 1e-6 || g.k != w.k || math.Abs(g.count-w.layers) > 1e-9 {
				t.Errorf("%s shape %d: N %v K %v ×%v, want N %v K %v ×%v", c.model, i, g.n, g.k, g.count, w.n, w.k, w.layers)
			}
		}
		if c.model == "deepseek-v3" && got[0].dt != GEMMTableFP8Block {
			t.Errorf("deepseek-v3's 128×128 FP8 blocks: table %s, want fp8_block", got[0].dt)
		}
	}
}

// TestGEMMTablesSwitch: with the switch on, a measured GPU's step prices
// its dense GEMMs from the table (so a batch-4 decode step of gpt-oss-120b
// at TP8 on H100 charges their sum, no gap for them), and a GPU without
// tables builds the same model either way.
func TestGEMMTablesSwitch(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	build := func(gpu string, on bool) *StepModel {
		UseGEMMTables = on
		g := perfGPU(t, gpu)
		return NewStepModel(StepSetup{Model: perfModel(t, "gpt-oss-120b"), TP: 8, WeightDType: "mxfp4",
			HW: NewHardware(g, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, g), CUDAGraphs: true})
	}
	off, on := build("h100-sxm", false), build("h100-sxm", true)
	l := RankLoad{DecodeSeqs: 4, DecodeCtx: 1024}
	a, b := off.StepUniform(l), on.StepUniform(l)
	want := on.gemms.time(4, 4)
	if on.gemms == nil || math.Abs(b.DenseS-want) > 1e-12 || b.DenseS == a.DenseS {
		t.Errorf("switch on: dense %.4g s, want the table sum %.4g (off: %.4g)", b.DenseS, want, a.DenseS)
	}
	if gaps := off.kernels - on.kernels; math.Abs(gaps-on.gemms.kernels) > 1e-9 || gaps <= 0 {
		t.Errorf("kernels without a gap: %v, want the GEMMs' %v", gaps, on.gemms.kernels)
	}
	h20off, h20on := build("h20-96g", false), build("h20-96g", true)
	if h20on.gemms != nil || h20off.StepUniform(l) != h20on.StepUniform(l) {
		t.Error("H20 (no table) must keep the scalar model with the switch on")
	}
	// What the reports name: the table with the switch on, none without
	// one (gpt-oss's dense projections are BF16).
	UseGEMMTables = true
	if got := on.S.DenseGEMMTable(); got != "h100_sxm bfloat16" {
		t.Errorf("H100 with the switch on: table %q, want h100_sxm bfloat16", got)
	}
	if got := h20on.S.DenseGEMMTable(); got != "" {
		t.Errorf("H20: table %q, want none", got)
	}
	UseGEMMTables = false
	if got := on.S.DenseGEMMTable(); got != "" {
		t.Errorf("H100 with the switch off: table %q, want none", got)
	}
}

// TestGEMMTablesAreTheDerivedOnes: the embedded table is tools/aicdata's
// output byte for byte, and parses.
func TestGEMMTablesAreTheDerivedOnes(t *testing.T) {
	src, err := os.ReadFile("../../tools/aicdata/gemm_tables.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(src, gemmTablesJSON) {
		t.Error("estimate/perf/gemm_tables.json differs from tools/aicdata/gemm_tables.json (extract.sh copies it)")
	}
	if tb := loadGEMMTables(); tb == nil || len(tb.sys) != 8 {
		t.Fatal("embedded GEMM tables do not parse into 8 systems")
	}
}

// TestDenseGEMMsOutOfScope: the switch leaves the scalar model in place for
// models whose layers the shape list does not describe (a hybrid, DeepSeek-
// V4) and for dense 4-bit linears, which the tables do not time.
func TestDenseGEMMsOutOfScope(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	UseGEMMTables = true
	h100 := perfGPU(t, "h100-sxm")
	for _, c := range []struct{ model, dtype string }{
		{"qwen3-next-80b-a3b", "bf16"},
		{"deepseek-v4-flash", "fp8"},
		{"llama-3.1-8b", "int4"},
		{"llama-3.1-8b", "nvfp4"},
	} {
		s := StepSetup{Model: perfModel(t, c.model), TP: 1, WeightDType: c.dtype,
			HW: NewHardware(h100, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, h100)}
		if got := gemmShapesOf(&s); got != nil {
			t.Errorf("%s %s: %d table shapes, want the scalar model", c.model, c.dtype, len(got))
		}
	}
	s := StepSetup{Model: perfModel(t, "llama-3.1-8b"), TP: 1, WeightDType: "bf16",
		HW: NewHardware(h100, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, h100)}
	if got := gemmShapesOf(&s); len(got) != 5 { // qkv, o, gate_up, down, LM head
		t.Errorf("llama-3.1-8b bf16: %d shapes, want 5: %+v", len(got), got)
	}
}

// TestGEMMTablesNameTheBinding: the tables time a GEMM's weights and FLOPs
// at once, so the step still names what binds it by the shapes' floors: a
// dense 8B model's batch-1 decode streams its weights (memory bandwidth),
// an 8,192-token prefill step computes (compute). The time charged is the
// tables' either way.
func TestGEMMTablesNameTheBinding(t *testing.T) {
	defer func(was bool) { UseGEMMTables = was }(UseGEMMTables)
	UseGEMMTables = true
	g := perfGPU(t, "h100-sxm")
	sm := NewStepModel(StepSetup{Model: perfModel(t, "llama-3.1-8b"), TP: 1, PP: 1, DP: 1, WeightDType: "bf16", KVDType: "bf16",
		HW: NewHardware(g, 8, 0, 2, 0, 0, 0), Eff: ForGPU(DefaultEfficiency, g), CUDAGraphs: true})
	if sm.gemms == nil {
		t.Fatal("H100 BF16 Llama-3.1-8B: no table")
	}
	for _, c := range []struct {
		l    RankLoad
		tok  float64
		want string
	}{
		{RankLoad{DecodeSeqs: 1, DecodeCtx: 1024}, 1, "memory_bandwidth"},
		{RankLoad{PrefillTokens: 8192, PrefillPairs: 8192 * 8193 / 2, PrefillSeqs: 1}, 8192, "compute"},
	} {
		var st StepTime
		sm.rankTime(c.l, &st)
		if got := st.Binding(); got != c.want {
			t.Errorf("%v tokens: bound by %s (compute %.3g / memory %.3g s bound), want %s", c.tok, got, st.ComputeBoundS, st.MemoryBoundS, c.want)
		}
		// The activation passes outside the GEMMs are a few percent.
		if want := sm.gemms.time(c.tok, 1); st.DenseS < want || st.DenseS > 1.05*want {
			t.Errorf("%v tokens: dense %.4g s, want the tables' %.4g s", c.tok, st.DenseS, want)
		}
	}
}
