package lint

import (
	"testing"
)

// codesIn lints one script and counts its findings by code.
func codesIn(t *testing.T, script string) map[string]int {
	t.Helper()
	ds, err := Lint([]Input{{Name: "notes.sh", Data: []byte(script)}}, Options{Version: "0.22.1"})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, d := range ds {
		n[string(d.Code)]++
	}
	return n
}

// TestSequentialAlternatives: foreground servers one script starts one
// after another never run together (qa/realin39 qwen3-30b-dp-ep-notes.sh,
// cut down): a DP 4 alternative, then a two-node recipe (node 0, then node
// 1 --headless, both foreground) is not one deployment, so no VL202 (DP
// size differs), VL205 (second primary) or VL206 (multi-node DP without an
// address); the two-node recipe stays one (its headless node 1 joins it).
// The same servers backgrounded (&), or in detached containers, do run
// together and keep those findings.
func TestSequentialAlternatives(t *testing.T) {
	const notes = `vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507 --data-parallel-size 4 --enable-expert-parallel
# Node 0
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507 --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.12.1 --data-parallel-rpc-port 13345 --enable-expert-parallel
# Node 1
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507 --headless --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-start-rank 4 --data-parallel-address 10.0.12.1 --data-parallel-rpc-port 13345 --enable-expert-parallel
vllm serve Qwen/Qwen3-30B-A3B-Instruct-2507 --data-parallel-size 4 --enable-expert-parallel --max-model-len 4096
`
	got := codesIn(t, notes)
	for _, c := range []string{"VL201", "VL202", "VL205", "VL206", "VL207"} {
		if got[c] != 0 {
			t.Errorf("notes: %d %s between alternatives, want none (%v)", got[c], c, got)
		}
	}
	// The two-node recipe is still linted as one deployment of 2 nodes:
	// without a socket interface it gets VL209's note once.
	if got["VL209"] != 1 {
		t.Errorf("notes: VL209 %d, want 1 (the two-node recipe) (%v)", got["VL209"], got)
	}

	const bg = `vllm serve m/x --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1 &
vllm serve m/x --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1
`
	if got := codesIn(t, bg); got["VL205"] != 1 {
		t.Errorf("backgrounded: VL205 %d, want 1 (two primaries run together) (%v)", got["VL205"], got)
	}
	const detached = `docker run -d --gpus all --ipc host --network host vllm/vllm-openai:v0.22.1 m/x --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1
docker run -d --gpus all --ipc host --network host vllm/vllm-openai:v0.22.1 m/x --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1
`
	if got := codesIn(t, detached); got["VL205"] != 1 {
		t.Errorf("docker run -d: VL205 %d, want 1 (%v)", got["VL205"], got)
	}
	const fgDocker = `docker run --gpus all --ipc host --network host vllm/vllm-openai:v0.22.1 m/x --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1
docker run --gpus all --ipc host --network host vllm/vllm-openai:v0.22.1 m/x --data-parallel-size 8 --data-parallel-size-local 4 --data-parallel-address 10.0.0.1
`
	if got := codesIn(t, fgDocker); got["VL205"] != 0 {
		t.Errorf("foreground docker run: VL205 %d, want 0 (the second starts after the first exits) (%v)", got["VL205"], got)
	}
}
