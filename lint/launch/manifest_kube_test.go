package launch

import (
	"reflect"
	"testing"
)

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

// TestSkyPilotTask: a SkyPilot task's run script is read with its envs,
// SkyPilot's node count and GPUs per node, in its docker image; the
// rank-branched launches are arms of one if.
func TestSkyPilotTask(t *testing.T) {
	doc := `envs:
  MODEL: m
resources:
  image_id: docker:vllm/vllm-openai:v0.22.1
  accelerators: H100:8
num_nodes: 2
run: |
  if [ "$SKYPILOT_NODE_RANK" == "0" ]; then
    vllm serve $MODEL --tensor-parallel-size $SKYPILOT_NUM_GPUS_PER_NODE --nnodes $SKYPILOT_NUM_NODES --node-rank 0 &
  else
    vllm serve $MODEL --tensor-parallel-size 8 --nnodes 2 --node-rank $SKYPILOT_NODE_RANK --headless
  fi
`
	invs, _, _ := ParseManifest("task.yaml", []byte(doc))
	got := argv(invs)
	want := []string{"m --tensor-parallel-size 8 --nnodes 2 --node-rank 0", "m --tensor-parallel-size 8 --nnodes 2 --node-rank $SKYPILOT_NODE_RANK --headless"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("argv = %q, want %q", got, want)
	}
	if invs[0].ImageVersion != "0.22.1" || invs[0].GPUs != 8 || !Exclusive(invs[0], invs[1]) {
		t.Errorf("image %q, GPUs %d, exclusive %v", invs[0].ImageVersion, invs[0].GPUs, Exclusive(invs[0], invs[1]))
	}
	if skypilotGPUs("A100") != 1 || skypilotGPUs("{A100:8, H100:8}") != 0 || skypilotGPUs("L4:2") != 2 {
		t.Error("accelerator counts")
	}
}
