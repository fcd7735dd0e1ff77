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

// TestContainerEnvFromConfigMap: envFrom reads a ConfigMap of the file
// (with its prefix) before env, whose entries win; configMapKeyRef takes
// one key; a Secret or a ConfigMap defined elsewhere leaves the
// environment open and its references unresolved.
func TestContainerEnvFromConfigMap(t *testing.T) {
	doc := `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
    - name: vllm
      image: vllm/vllm-openai:v0.22.1
      args: ["$(M)", "--tensor-parallel-size", "$(X_TP)", "--port", "$(PORT)", "--seed", "$(S)"]
      envFrom:
        - configMapRef: {name: cm}
          prefix: X_
        - secretRef: {name: creds}
      env:
        - {name: X_TP, value: "2"}
        - name: M
          valueFrom: {configMapKeyRef: {name: cm, key: MODEL}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
data: {TP: "8", MODEL: m1}
`
	invs, _, _ := ParseManifest("p.yaml", []byte(doc))
	if len(invs) != 1 {
		t.Fatalf("want 1 invocation, got %d", len(invs))
	}
	got := argv(invs)[0]
	if got != "m1 --tensor-parallel-size 2 --port $(PORT) --seed $(S)" {
		t.Errorf("argv = %q", got)
	}
	if a := invs[0].Args[4]; a.Known || len(invs[0].UndefinedRefs) != 0 {
		t.Errorf("$(PORT) with a Secret in envFrom must be unresolved, not undefined: %+v %v", a, invs[0].UndefinedRefs)
	}
}
