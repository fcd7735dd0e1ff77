package logs

import (
	"bytes"
	"strings"
	"testing"
)

// TestPPKVCheckRealFixtures: the two public logs of vLLM's false start-up
// refusal under pipeline parallelism (vllm.Release.PPKVCheckWholeModel).
// vllm-project/vllm#32105 (0.15.0rc1, GLM-4.7-FP8 at PP 8, max_model_len
// 202752): 71.16 GiB is the whole model's KV; an even split leaves each
// stage 71.16 / 8 = 8.895 GiB, under the 28.57 GiB available, so LOG112
// names the known false refusal, PR #33698, and vLLM's own estimate 81392
// as the length that check passes. Edited copies of the same log: at PP 2
// a stage would need 35.58 GiB > 28.57, so the refusal stands (the figures
// are still the whole model's); at 0.13.0 (before PR #29431) and without
// PP the usual advice is kept. #34076's paste is one line with neither the
// version nor the pipeline size: it keeps the usual advice (vlaunch cannot
// tell it is PP from the log).
func TestPPKVCheckRealFixtures(t *testing.T) {
	var fx32105, fx34076 fixture
	for _, fx := range loadFixtures(t) {
		switch {
		case strings.Contains(fx.name, "32105"):
			fx32105 = fx
		case strings.Contains(fx.name, "34076"):
			fx34076 = fx
		}
	}
	lo112 := func(rep *Report) Failure {
		t.Helper()
		for _, f := range rep.Failures {
			if f.Code == CodeMaxLenTooLong {
				return f
			}
		}
		t.Fatalf("no LOG112 in %+v", rep.Failures)
		return Failure{}
	}
	edit := func(fx fixture, old, new string) fixture {
		out := fx
		out.files = append(out.files[:0:0], fx.files...)
		for i := range out.files {
			if !bytes.Contains(out.files[i].Data, []byte(old)) {
				t.Fatalf("%s: no %q", fx.name, old)
			}
			out.files[i].Data = bytes.ReplaceAll(out.files[i].Data, []byte(old), []byte(new))
		}
		return out
	}

	f := lo112(analyzeFixture(t, fx32105))
	for _, s := range []string{"This is vLLM's known false refusal", "PR #29431", "PR #33698", "first release with the fix: 0.17.0", "--max-model-len 81392", "vllm-project/vllm#32105"} {
		if !strings.Contains(f.Fix, s) {
			t.Errorf("#32105 fix lacks %q: %s", s, f.Fix)
		}
	}
	if !strings.Contains(f.Message, "about 8.89 GiB per stage") && !strings.Contains(f.Message, "about 8.90 GiB per stage") {
		t.Errorf("#32105 message: %s", f.Message)
	}

	f = lo112(analyzeFixture(t, edit(fx32105, "'pipeline_parallel_size': 8", "'pipeline_parallel_size': 2")))
	if strings.Contains(f.Fix, "false refusal") || !strings.Contains(f.Message, "about 35.58 GiB, more than is available") || !strings.Contains(f.Fix, "#33698") {
		t.Errorf("PP 2: %s / %s", f.Message, f.Fix)
	}
	for _, e := range []struct{ old, new string }{
		{"version 0.15.0rc1", "version 0.13.0"},
		{"version 0.15.0rc1", "version 0.17.0"}, // PR #33698's first release
		{"'pipeline_parallel_size': 8", "'pipeline_parallel_size': 1"},
	} {
		f = lo112(analyzeFixture(t, edit(fx32105, e.old, e.new)))
		if strings.Contains(f.Fix, "#33698") || !strings.HasPrefix(f.Fix, "vLLM estimates that --max-model-len 81392 fits.") {
			t.Errorf("%s: %s", e.new, f.Fix)
		}
	}
	if f := lo112(analyzeFixture(t, fx34076)); strings.Contains(f.Fix, "#33698") {
		t.Errorf("#34076 names neither version nor PP: %s", f.Fix)
	}
}
