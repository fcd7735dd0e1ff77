package logs

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The two start-up lines that change vLLM's memory profile, as the logs of
// published/vllm-memory-logs.yaml print them: the sipeed 0.11.0 Qwen3-VL
// log (qwen3vl-30b-a3b-sipeed-rtx3090-tp4) and the 0.10.2 Qwen3-Next one
// (qwen3next-80b-instruct-h200-tp2-v0102).
const (
	flashInfer011 = "FlashInfer is not available. Falling back to the PyTorch-native implementation of top-p & top-k sampling. For the best performance, please install FlashInfer."
	flashInfer010 = "FlashInfer is not available. Falling back to the PyTorch-native implementation of top-p & top-k sampling."
	encoderBudget = "Encoder cache will be initialized with a budget of 153600 tokens, and profiled with 1 video items of the maximum feature size."
)

// TestProfileLines reads both lines under the log prefixes of the 0.7–0.31
// formats the fixtures show (unprefixed as 0.11.0's workers print the
// FlashInfer line before their prefix is set, "(Worker_TP0 pid=…)",
// "(EngineCore_DP0 pid=…)", "(Worker_TP0_EP0 pid=…)", V0's old header, and
// kubectl / docker wrappers), and checks what is not one of them is not
// read as one.
func TestProfileLines(t *testing.T) {
	cases := []struct {
		name   string
		log    string
		want   map[string]any
		absent []string
	}{
		{"0.11.0 unprefixed FlashInfer line (sipeed)",
			"WARNING 10-06 15:56:47 [topk_topp_sampler.py:66] " + flashInfer011 + "\n",
			map[string]any{"flashinfer": "not installed"}, []string{"encoder_cache_budget_tokens"}},
		{"0.10.2 FlashInfer line of a worker",
			"(VllmWorker TP0 pid=2403) WARNING 10-23 15:11:02 [topk_topp_sampler.py:69] " + flashInfer010 + "\n",
			map[string]any{"flashinfer": "not installed"}, nil},
		{"0.7.2 V1 old header, no brackets (fixture v0.7.2-12917-v1-load)",
			"WARNING 02-07 19:23:56 topk_topp_sampler.py:46] " + flashInfer011 + "\n",
			map[string]any{"flashinfer": "not installed"}, nil},
		{"0.19 engine core",
			"(EngineCore pid=243) WARNING 04-22 01:06:21 [v1/sample/ops/topk_topp_sampler.py:70] " + flashInfer011 + "\n",
			map[string]any{"flashinfer": "not installed"}, nil},
		{"0.31 worker, kubectl --prefix --timestamps",
			"[pod/vllm-0/vllm] 2025-10-08T00:04:34.123456789Z (Worker_TP0_EP0 pid=257357) WARNING 10-08 00:04:34 [topk_topp_sampler.py:70] " + flashInfer010 + "\n",
			map[string]any{"flashinfer": "not installed"}, nil},
		{"0.11.0 encoder budget of a TP worker (sipeed)",
			"(Worker_TP0 pid=41699) INFO 10-06 15:57:18 [gpu_model_runner.py:3344] " + encoderBudget + "\n",
			map[string]any{"encoder_cache_budget_tokens": 153600.0, "encoder_profile_items": 1.0, "encoder_profile_modality": "video"},
			[]string{"flashinfer"}},
		{"encoder budget of a single-GPU engine core, docker --timestamps",
			"2025-10-06T15:57:18.000000001Z (EngineCore_DP0 pid=41565) INFO 10-06 15:57:18 [v1/worker/gpu_model_runner.py:3344] Encoder cache will be initialized with a budget of 16384 tokens, and profiled with 2 image items of the maximum feature size.\n",
			map[string]any{"encoder_cache_budget_tokens": 16384.0, "encoder_profile_items": 2.0, "encoder_profile_modality": "image"}, nil},
		{"a quoted mention is not the line",
			"(APIServer pid=1) INFO 10-06 15:56:26 [x.py:1] user said: " + flashInfer010 + "\n",
			nil, []string{"flashinfer"}},
		{"a budget with no number is not read",
			"(Worker_TP0 pid=1) INFO 10-06 15:57:18 [gpu_model_runner.py:3344] Encoder cache will be initialized with a budget of many tokens, and profiled with 1 video items of the maximum feature size.\n",
			nil, []string{"encoder_cache_budget_tokens", "encoder_profile_items"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { checkOneEngine(t, c.log, c.want, c.absent) })
	}
}

// TestProfileLinesInText: the text report states both lines among the figures.
func TestProfileLinesInText(t *testing.T) {
	log := "WARNING 10-06 15:56:47 [topk_topp_sampler.py:66] " + flashInfer011 + "\n" +
		"(Worker_TP0 pid=41699) INFO 10-06 15:57:18 [gpu_model_runner.py:3344] " + encoderBudget + "\n"
	rep := analyzeStrings(t, map[string]string{"a.log": log}, "a.log")
	var out bytes.Buffer
	if err := WriteText(&out, rep); err != nil {
		t.Fatal(err)
	}
	want := "  profile: FlashInfer not installed (logged): the profile's sampler sorts · encoder cache budget 153600 tokens, profiled with 1 video item(s) of the maximum feature size\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, out.String())
	}
}

// TestCompareSortingSampler: an engine that logged no FlashInfer is
// compared with the prediction for VLLM_USE_FLASHINFER_SAMPLER=0 (its
// larger activation peak and smaller KV memory), and the comparison says
// so; an engine that did not is compared with the default prediction.
func TestCompareSortingSampler(t *testing.T) {
	base := Prediction{WeightsGiB: 14.77, ActivationGiB: 1.0, AvailableKVGiB: 3.0, TP: 4, EncoderBudgetTokens: 153600, EncoderItems: 1}
	sorting := base
	sorting.ActivationGiB, sorting.AvailableKVGiB = 1.7, 2.3
	base.SortingSampler = &sorting
	e := Engine{ID: "dp0", WeightsGiB: f64(14.7708), ActivationPeakGiB: f64(1.7), AvailableKVGiB: f64(2.31),
		EncoderCacheBudget: func() *int64 { v := int64(153600); return &v }(), EncoderProfileItems: intPtr(1), EncoderProfileModality: "video"}
	rows := func(e Engine) map[string]Comparison {
		r := &Report{Engines: []Engine{e}}
		Compare(r, base)
		out := map[string]Comparison{}
		for _, c := range r.Comparison {
			out[c.Term] = c
		}
		return out
	}
	with := e
	with.FlashInfer = FlashInferNotInstalled
	got := rows(with)
	if n, ok := got["profile_sampler"]; !ok || !strings.HasPrefix(n.Explanation, FlashInferSorts) || n.Logged != nil || n.Predicted != nil {
		t.Errorf("profile_sampler note: %+v", n)
	}
	if a := got["activation_peak_gib"]; a.Predicted == nil || *a.Predicted != 1.7 {
		t.Errorf("activation predicted %v, want the sorting sampler's 1.7", a.Predicted)
	}
	if a := got["available_kv_gib"]; a.Predicted == nil || *a.Predicted != 2.3 || !*a.Within {
		t.Errorf("available predicted %v, want the sorting sampler's 2.3 within target", a.Predicted)
	}
	if b := got["encoder_cache_budget_tokens"]; b.Logged == nil || *b.Logged != 153600 || b.Predicted == nil || *b.Predicted != 153600 ||
		b.Explanation != "profiled with 1 video item(s) (logged), 1 item(s) predicted" {
		t.Errorf("encoder row: %+v", b)
	}
	got = rows(e)
	if _, ok := got["profile_sampler"]; ok {
		t.Errorf("profile_sampler note without the logged line")
	}
	if a := got["available_kv_gib"]; a.Predicted == nil || *a.Predicted != 3.0 || *a.Within {
		t.Errorf("available predicted %v, want the default 3.0 above target", a.Predicted)
	}
	// No encoder sized for the spec's model: the logged budget alone.
	base.EncoderBudgetTokens, base.EncoderItems = 0, 0
	got = rows(e)
	if b := got["encoder_cache_budget_tokens"]; b.Predicted != nil || !strings.HasSuffix(b.Explanation, "vlaunch sizes no encoder profile for the spec's model") {
		t.Errorf("encoder row without a sized encoder: %+v", b)
	}
	if _, err := json.Marshal(got); err != nil {
		t.Fatal(err)
	}
}
