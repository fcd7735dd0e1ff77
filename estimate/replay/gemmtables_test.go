package replay

import (
	"flag"
	"os"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/perf"
)

// gemmTables and moeWidth switch issue #28's two measured pricing trials
// for a replay: dense GEMMs priced per shape from the measured tables
// (perf.UseGEMMTables) and the fused-MoE width factor (perf.UseMoEWidth).
// The goldens hold the packages' defaults: a flag that differs from them
// makes the golden checks report differences, which is the trial's output,
// never an -update.
var (
	gemmTables = flag.Bool("gemmtables", perf.UseGEMMTables, "price dense GEMMs from the measured per-shape tables (perf.UseGEMMTables; a trial when it differs from the default: do not -update)")
	moeWidth   = flag.Bool("moewidth", perf.UseMoEWidth, "scale TP-sharded fused-MoE curves by the slice's width factor (perf.UseMoEWidth; a trial when it differs from the default: do not -update)")
	ncclTables = flag.Bool("nccltables", perf.UseNCCLTables, "price NCCL collectives inside a host from the measured tables (perf.UseNCCLTables; a trial when it differs from the default: do not -update)")
	naiveFlag  = flag.Bool("naivea2a", perf.UseNaiveA2A, "price vLLM's naive all-to-all as broadcasts + all-reduce (perf.UseNaiveA2A; a trial when it differs from the default: do not -update)")
	sglFP8     = flag.Bool("sgltritonfp8", perf.UseSGLangTritonMoEFixedFP8Hopper, "with perf.UseSGLangTritonMoEFixed, block-FP8 experts on Hopper too (perf.UseSGLangTritonMoEFixedFP8Hopper; a trial when it differs from the default: do not -update)")
	sglTriton  = flag.Bool("sgltritonfixed", perf.UseSGLangTritonMoEFixed, "add SGLang Triton fused-MoE's measured fixed cost beyond its kernel gaps (perf.UseSGLangTritonMoEFixed; a trial when it differs from the default: do not -update)")
)

func TestMain(m *testing.M) {
	flag.Parse()
	perf.UseGEMMTables = *gemmTables
	perf.UseMoEWidth = *moeWidth
	perf.UseNCCLTables = *ncclTables
	perf.UseNaiveA2A = *naiveFlag
	perf.UseSGLangTritonMoEFixed = *sglTriton
	perf.UseSGLangTritonMoEFixedFP8Hopper = *sglFP8
	os.Exit(m.Run())
}
