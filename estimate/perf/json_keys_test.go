package perf

import (
	"encoding/json"
	"regexp"
	"testing"
)

// TestEfficiencyJSONKeys (qa45c F12): `check -o json`'s
// performance.constants uses snake_case keys, and each constant's key is
// the name a calibration file sets it by (Field), not a Go field name.
func TestEfficiencyJSONKeys(t *testing.T) {
	e := DefaultEfficiency
	e.Kernels = KernelFigures{System: "h100_sxm", GEMMBF16: 0.8}
	data, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	for k, v := range m {
		if !snake.MatchString(k) {
			t.Errorf("key %q is not snake_case", k)
		}
		if k == "measured_kernels" {
			var kf map[string]json.RawMessage
			json.Unmarshal(v, &kf)
			for kk := range kf {
				if !snake.MatchString(kk) {
					t.Errorf("measured_kernels.%s is not snake_case", kk)
				}
			}
			continue
		}
		if e.Field(k) == nil {
			t.Errorf("key %q is not a calibration constant's name", k)
		}
	}
}
