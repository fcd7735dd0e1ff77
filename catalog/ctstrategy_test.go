package catalog

import "testing"

// TestCompressedTensorsWeightStrategy: an 8-bit compressed-tensors
// checkpoint's weight scale granularity is read when every config group
// states the same one (nm-testing's naive-quantized FP8: "tensor";
// RedHatAI's FP8-dynamic and W8A8: "channel"), and left empty otherwise,
// so that the memory model falls back to one scale per output channel.
func TestCompressedTensorsWeightStrategy(t *testing.T) {
	group := func(strategy interface{}) map[string]interface{} {
		w := map[string]interface{}{"num_bits": 8.0, "type": "float"}
		if strategy != nil {
			w["strategy"] = strategy
		}
		return map[string]interface{}{"weights": w, "targets": []interface{}{"Linear"}}
	}
	for _, c := range []struct {
		name   string
		groups map[string]interface{}
		want   string
	}{
		{"one tensor group", map[string]interface{}{"group_0": group("tensor")}, "tensor"},
		{"one channel group", map[string]interface{}{"group_0": group("channel")}, "channel"},
		{"two agreeing groups", map[string]interface{}{"group_0": group("channel"), "group_1": group("channel")}, "channel"},
		{"groups disagree", map[string]interface{}{"group_0": group("tensor"), "group_1": group("channel")}, ""},
		{"no strategy", map[string]interface{}{"group_0": group(nil)}, ""},
		{"not a string", map[string]interface{}{"group_0": group(3.0)}, ""},
		{"no groups", nil, ""},
	} {
		q := map[string]interface{}{"quant_method": "compressed-tensors"}
		if c.groups != nil {
			q["config_groups"] = c.groups
		}
		got := parseQuant(q)
		if got.WeightStrategy != c.want {
			t.Errorf("%s: strategy %q, want %q", c.name, got.WeightStrategy, c.want)
		}
		// Every group above states type "float".
		if wantType := map[bool]string{true: "float", false: ""}[c.groups != nil]; got.WeightType != wantType {
			t.Errorf("%s: type %q, want %q", c.name, got.WeightType, wantType)
		}
	}
}
