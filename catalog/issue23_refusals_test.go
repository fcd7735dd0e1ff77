package catalog

import (
	"errors"
	"strings"
	"testing"
)

// TestIssue23RefusedFamilies: the #23 configs vlaunch does not model are
// refused with the model_type, what vlaunch lacks and the nearest family it
// models (issue #23, "What to build" 5): Step-3.7-Flash in aiconfigurator's
// own flattened step3p7 layout, which lacks the
// text_config and vision_config vLLM's Step3p7ForConditionalGeneration
// reads (the wrapper itself is read: TestStep3p7Wrapper). Kimi-K3 is
// modelled since (TestKimiK3). Step-3.7's nearest family is
// Step-3.5 (the same 45 layers, 512-token window and 288 + 1 experts of
// 1,280), not gpt_oss, which its fields alone would suggest and which the
// refusal named before.
func TestIssue23RefusedFamilies(t *testing.T) {
	for _, tt := range []struct{ file, modelType, lacks, nearest string }{
		{"testdata/hf/step-3.7-flash.aiconfigurator.json", "step3p7", "the checkpoint's text_config and vision_config", "Step-3.x (step3p5: Step-3.5-Flash)"},
	} {
		m, err := LoadHFConfig(tt.file)
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		err = m.Modelled()
		var ue *UnmodelledError
		if !errors.As(err, &ue) {
			t.Fatalf("%s: %v, want a refusal", tt.file, err)
		}
		msg := err.Error()
		for _, w := range []string{`model_type "` + tt.modelType + `"`, "vlaunch lacks " + tt.lacks, "the nearest family it models is " + tt.nearest} {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %q lacks %q", tt.file, msg, w)
			}
		}
	}
}
