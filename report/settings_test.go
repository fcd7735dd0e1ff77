package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/resolve"
)

// TestSettingsBlock: the spec's own values share one line without notes;
// every other value gets a line saying where it came from, in the words
// of its source (vllm.env, a release) or after it (assumed, `auto`, derived), and the
// weights name a checkpoint that differs.
func TestSettingsBlock(t *testing.T) {
	in := estimate.InputSummary{CheckpointDType: "fp8", Settings: []resolve.NamedSetting{
		{Name: "vllm_version", Value: "0.22.1", From: resolve.SourceAssumed, Why: "vLLM version not given: assuming 0.22.1"},
		{Name: "weights", Value: "bf16", From: resolve.SourceSpec},
		{Name: "gpu_memory_utilization", Value: 0.925, From: resolve.SourceSpec},
		{Name: "all2all_backend", Value: "naive", From: resolve.SourceEnv, Why: "VLLM_ALL2ALL_BACKEND=naive in vllm.env"},
		{Name: "block_size", Value: 64, From: resolve.SourceDerived, Why: "vLLM forces it for the FLASHMLA backend"},
		{Name: "cuda_graphs", Value: false, From: resolve.SourceSpec, Why: "enforce_eager"},
	}}
	var b bytes.Buffer
	writeSettingsText(&b, in)
	got := b.String()
	for _, want := range []string{
		"  set in the spec: weights bf16 (checkpoint fp8) · gpu_memory_utilization 0.925\n",
		"vllm_version            0.22.1  assumed: vLLM version not given: assuming 0.22.1\n",
		"all2all_backend         naive   VLLM_ALL2ALL_BACKEND=naive in vllm.env\n",
		"block_size              64      derived: vLLM forces it for the FLASHMLA backend\n",
		"cuda_graphs             off     spec: enforce_eager\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Count(got, "\n") != 5 {
		t.Errorf("want one spec line and four others:\n%s", got)
	}
}
