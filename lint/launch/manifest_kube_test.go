package launch

import "testing"

// TestExpandKubeRefs follows the kubelet's expansion of command, args and
// env values: "$$" is one literal "$" (how generated manifests escape a
// "$(" that must arrive as written), "$(VAR)" expands only when defined.
func TestExpandKubeRefs(t *testing.T) {
	defined := map[string]Value{"N": knownValue("8", Pos{}), "ADDR": unknownValue("$ADDR", Pos{}, "ADDR")}
	for _, tt := range []struct {
		in, want  string
		known     bool
		undefined int
	}{
		{"--dp $(N)", "--dp 8", true, 0},
		{"$$(N)", "$(N)", true, 0},
		{`"$$((LWS_WORKER_INDEX * 8))"`, `"$((LWS_WORKER_INDEX * 8))"`, true, 0},
		{"a$$$$b", "a$$b", true, 0},
		{"$$$(N)", "$8", true, 0},
		{"$(MISSING) x", "$(MISSING) x", true, 1},
		{"$(ADDR):1", "${ADDR}:1", false, 0},
		{"$(unterminated", "$(unterminated", true, 0},
		{"trailing $", "trailing $", true, 0},
	} {
		got, und := expandKubeRefs(knownValue(tt.in, Pos{Line: 1, Col: 1}), defined)
		if got.Text != tt.want || got.Known != tt.known || len(und) != tt.undefined {
			t.Errorf("%q: got %q known=%v undefined=%d, want %q known=%v undefined=%d",
				tt.in, got.Text, got.Known, len(und), tt.want, tt.known, tt.undefined)
		}
	}
}
