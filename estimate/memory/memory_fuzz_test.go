package memory

import (
	"math"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/resolve"
)

// FuzzQuickMemory feeds the quick form's user inputs (names, sizes, dtypes)
// through resolution and the memory model: it must never panic, and every
// reported figure must be finite.
func FuzzQuickMemory(f *testing.F) {
	f.Add("deepseek-v3", "h20", 1, 1, 32, true, 32768, 0.9, "auto", "bf16", "0.11.0", 200)
	f.Add("gpt-oss-120b", "b200", 2, 1, 1, false, 0, 0.0, "fp8", "auto", "", 1)
	f.Add("llama-3.1-405b", "l4", 64, 128, 3, true, 1, 1.0, "fp8_e5m2", "int8", "0.6.4", 0)
	f.Add("qwen3-30b-a3b", "mi300x", 7, 5, 0, true, -5, -1.0, "nope", "mxfp4", "v9", -3)
	f.Add("qwen3-next-80b-a3b", "h100", 3, 2, 2, true, 1000, 0.9, "fp8", "auto", "0.22.1", 7)
	f.Add("glm-5-fp8", "b200", 8, 1, 2, true, 65536, 0.92, "fp8", "auto", "", 64)
	f.Add("minimax-m2.5", "h200", 4, 2, 1, false, 8192, 0.9, "auto", "bf16", "0.11.0", 3)
	f.Fuzz(func(t *testing.T, model, gpu string, tp, pp, dp int, ep bool, mml int, util float64, kv, w, ver string, conc int) {
		if tp > 1024 || pp > 1024 || dp > 4096 || mml > 1<<24 {
			t.Skip()
		}
		in, ds := input.Quick(resolve.QuickOptions{Model: model, GPU: gpu, TP: tp, PP: pp, DP: dp, EP: ep, MaxModelLen: mml,
			GPUMemoryUtilization: util, KVCacheDType: kv, Weights: w, VLLMVersion: ver, Concurrency: conc})
		if ds.HasErrors() {
			return
		}
		m := Estimate(&in)
		_ = Findings(&in, &m)
		p := m.PerGPU
		for _, v := range []float64{p.WeightsGiB, p.ActivationGiB, p.OtherGiB, p.KVCacheGiB, p.UsableGiB, m.MaxConcurrencyAtMaxModelLen} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("non-finite figure in %+v", p)
			}
		}
		if m.KVTokensPerRank < 0 || m.KVTokensPerRank%int64(max(in.BlockSize, 1)) != 0 || m.KVTokensLogged < 0 {
			t.Fatalf("KV tokens %d not a non-negative multiple of block %d", m.KVTokensPerRank, in.BlockSize)
		}
	})
}
