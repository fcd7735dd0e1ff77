package validate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

const loraSpec = `apiVersion: vlaunch/v1
kind: Deployment
metadata:
  name: lora
model:
  name: MODEL
hardware:
  gpu: h100-sxm
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: GPUS}
workload:
  concurrency: 16
  max_model_len: 32768
  input_tokens: 2000
  output_tokens: 500
parallelism: {tensor: TP, pipeline: 1, data: 1, expert: false}
vllm:
  version: "0.20.0"
  extra_args: ARGS
runtime:
  kind: bare
`

// TestCheckLoRA (qa44b F7, lora44): SPEC142 reads the LoRA settings
// resolve read from extra_args. For Llama-3.1-8B the slots are in the
// estimate, and the warning gives their size (catalog TestLoRASlotParams:
// 184,713,216 elements a slot at TP 1, rank 64: 369 MB a slot, 1.38 GiB for
// 4) and says only the kernels' step cost is missing; for an MoE model
// the slots are not derived and their memory is missing too; LoRA off
// (or turned off again) says nothing.
func TestCheckLoRA(t *testing.T) {
	lora := `["--enable-lora", "--max-loras", "4", "--max-lora-rank", "64"]`
	for _, c := range []struct {
		name, model, tp, args string
		gpus                  string // the node's GPUs: TP unless set
		want, not             []string
	}{
		{"dense", "llama-3.1-8b", "1", lora, "",
			[]string{"adapter slots are in the estimate", "184.71 M elements a slot", "369 MB a slot, 1.38 GiB for 4 slots", "lora_slots", "punica"},
			[]string{"is not in the estimate"}},
		{"dense tp2 sharded", "llama-3.1-8b", "2", `["--enable-lora", "--fully-sharded-loras", "--max-loras=4", "--max-lora-rank=64"]`, "",
			[]string{"100.83 M elements a slot on a GPU of the first stage at TP 2"}, nil},
		{"spec that does not assemble", "llama-3.1-8b", "1", lora, "2",
			[]string{"adapter slots are in the estimate", "184.71 M elements a slot"}, nil},
		// Qwen3-30B-A3B's experts take slots too (catalog
		// TestLoRASlotParamsMoE: 850,440,192 elements at rank 16, × 4 at
		// rank 64: 6,804 MB a slot, 25.35 GiB for 4).
		{"moe", "qwen3-30b-a3b", "1", lora, "",
			[]string{"adapter slots are in the estimate", "3401.76 M elements a slot", "6804 MB a slot, 25.35 GiB for 4 slots"}, []string{"is not in the estimate"}},
		// DeepSeek-V2-Lite's MLA, shared experts and dense first layer
		// (catalog TestLoRASlotParamsMLA: 18,169,728 elements a rank-1
		// unit at TP 1, × 64).
		{"mla", "deepseek-v2-lite", "1", lora, "",
			[]string{"adapter slots are in the estimate", "1162.86 M elements a slot", "2326 MB a slot, 8.66 GiB for 4 slots"}, []string{"is not in the estimate"}},
		{"gated deltanet", "qwen3-next-80b-a3b", "1", lora, "", []string{"is not in the estimate", "does not derive the slots' size"}, []string{"lora_slots"}},
		{"off again", "llama-3.1-8b", "1", `["--enable-lora", "--no-enable-lora"]`, "", nil, nil},
	} {
		gpus := c.gpus
		if gpus == "" {
			gpus = c.tp
		}
		src := strings.NewReplacer("MODEL", c.model, "GPUS", gpus, "TP", c.tp, "ARGS", c.args).Replace(loraSpec)
		all := mustBytes(t, "lora.yaml", src)
		var got []diag.Diagnostic
		for _, d := range all {
			if d.Code == CodeLoRA {
				got = append(got, d)
			}
		}
		if c.want == nil {
			if len(got) != 0 {
				t.Errorf("%s: unexpected %s", c.name, render(got))
			}
			continue
		}
		if len(got) != 1 || got[0].Severity != diag.Warning {
			t.Fatalf("%s: got %s, want one SPEC142 warning", c.name, render(got))
		}
		for _, w := range c.want {
			if !strings.Contains(got[0].Message, w) {
				t.Errorf("%s: message lacks %q: %s", c.name, w, got[0].Message)
			}
		}
		for _, w := range c.not {
			if strings.Contains(got[0].Message, w) {
				t.Errorf("%s: message says %q: %s", c.name, w, got[0].Message)
			}
		}
	}
}
