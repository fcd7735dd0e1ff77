package lint

import (
	"testing"

	"github.com/vlaunch/vlaunch/diag"
)

// TestModelFromWhatPeopleWrite: a model is recognised from a local path
// with a custom last directory under a recognisable one, a ModelScope cache
// directory, a hub URL and --served-model-name, so the rules that need the
// model run (issue #25); names of other models (a distilled student, another
// family) are not taken for it.
func TestModelFromWhatPeopleWrite(t *testing.T) {
	tests := []struct {
		name, cmd, code string
		want            bool
	}{
		{"custom leaf under org/repo", "vllm serve /data/models/huggingface.co/deepseek-ai/DeepSeek-R1/DeepSeek-R1-Hzz1 --kv-cache-dtype fp8", "VL116", true},
		{"dated variant with slash", "vllm serve /models/DeepSeek-V3-0324/ --kv-cache-dtype fp8", "VL116", true},
		{"snapshot hash under repo", "vllm serve /mnt/DeepSeek-V3/5dde110d1a9ee857b90a6710b7138f9130ce6aa0 --kv-cache-dtype fp8", "VL116", true},
		{"modelscope cache", "VLLM_USE_MODELSCOPE=true vllm serve /root/.cache/modelscope/hub/deepseek-ai/DeepSeek-V3 --kv-cache-dtype fp8", "VL116", true},
		{"modelscope id", "VLLM_USE_MODELSCOPE=true vllm serve deepseek-ai/DeepSeek-V3 --kv-cache-dtype fp8", "VL116", true},
		{"served name, own path", "vllm serve /models/prod-llm --served-model-name deepseek-r1 --kv-cache-dtype fp8", "VL116", true},
		{"served name, unknown path", "vllm serve $MODEL_PATH --served-model-name deepseek-r1 --kv-cache-dtype fp8", "VL116", true},
		{"distilled student under R1", "vllm serve /models/DeepSeek-R1/DeepSeek-R1-Distill-Qwen-32B --kv-cache-dtype fp8", "VL116", false},
		{"served name of another model", "vllm serve /models/DeepSeek-R1-Distill-Llama-8B --served-model-name deepseek-r1 --kv-cache-dtype fp8", "VL116", false},
		{"path names another catalog model", "vllm serve /models/Qwen3-8B --served-model-name deepseek-r1 --kv-cache-dtype fp8", "VL116", false},
		{"generic dir over unknown leaf", "vllm serve /models/my-finetune --kv-cache-dtype fp8", "VL116", false},
		{"modelscope dotted name", "vllm serve /root/.cache/modelscope/hub/Qwen/Qwen2___5-72B-Instruct --max-model-len 200000", "VL117", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ds, err := Lint([]Input{{Name: "serve.sh", Data: []byte(tt.cmd + "\n")}}, Options{Version: "0.8.5"})
			if err != nil {
				t.Fatal(err)
			}
			got := false
			for _, d := range ds {
				got = got || string(d.Code) == tt.code
			}
			if got != tt.want {
				t.Errorf("%s reported: %v, want %v\n%s", tt.code, got, tt.want, ds)
			}
		})
	}
}

// TestServedNameAloneIsLessCertain: a model known only from
// --served-model-name (the path names none) makes VL115 a warning at the
// served name, not an error: the alias is the user's choice.
func TestServedNameAloneIsLessCertain(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want diag.Severity
	}{
		{"vllm serve moonshotai/Kimi-K2-Instruct", diag.Error},
		{"vllm serve /models/Kimi-K2-Instruct/v2", diag.Error},
		{"vllm serve /models/prod --served-model-name kimi-k2-instruct", diag.Warning},
		{"vllm serve $MODEL --served-model-name kimi-k2-instruct", diag.Warning},
	} {
		ds, err := Lint([]Input{{Name: "serve.sh", Data: []byte(tt.cmd + "\n")}}, Options{Version: "0.10.1"})
		if err != nil {
			t.Fatal(err)
		}
		var got []diag.Severity
		for _, d := range ds {
			if d.Code == "VL115" {
				got = append(got, d.Severity)
			}
		}
		if len(got) != 1 || got[0] != tt.want {
			t.Errorf("%s: VL115 severities %v, want [%v]", tt.cmd, got, tt.want)
		}
	}
}
