package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestDockerShmSeverity (qa44a F9): a container without --ipc=host or
// --shm-size is a warning for a multi-worker server and a note for a
// single-GPU one (no NCCL, one worker), whose message does not name NCCL.
func TestDockerShmSeverity(t *testing.T) {
	const run = "docker run --gpus all -p 8000:8000 vllm/vllm-openai:v0.18.0 m"
	for _, tt := range []struct {
		script string
		want   diag.Severity
	}{
		{run + "\n", diag.Info},
		{run + " --tensor-parallel-size 2\n", diag.Warning},
		{run + " --data-parallel-size 2\n", diag.Warning},
	} {
		ds := findingsOf(t, "0.18.0", tt.script, codes.VLDockerShm)
		if len(ds) != 1 || ds[0].Severity != tt.want || (tt.want == diag.Info && strings.Contains(ds[0].Message, "NCCL's")) {
			t.Errorf("%q: %v, want one VL305 %v", tt.script, ds, tt.want)
		}
	}
}

// TestNCCLExportOnce (qa44a F13): one `export NCCL_P2P_DISABLE=1` that
// several servers inherit is one VL131, naming the other servers.
func TestNCCLExportOnce(t *testing.T) {
	script := "export NCCL_P2P_DISABLE=1\n" +
		"vllm serve m --tensor-parallel-size 2 --port 8001 &\n" +
		"vllm serve m --tensor-parallel-size 2 --port 8002 &\n" +
		"vllm serve m --tensor-parallel-size 2 --port 8003 &\n"
	ds := findingsOf(t, "0.18.0", script, codes.VLNCCLTransport)
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "the same export also reaches") || ds[0].Line != 1 {
		t.Errorf("%v, want one VL131 at line 1 naming the other servers", ds)
	}
}

// TestUnresolvedAtUse (qa44a F14): VL004 points at the option whose value
// is unresolved (--node-rank "${NODE_RANK}"), not at the line that set the
// image variable the container command starts with; an unresolved
// positional value leaves it at the command.
func TestUnresolvedAtUse(t *testing.T) {
	script := `IMAGE="${IMAGE:-vllm/vllm-openai:v0.18.0}"
NODE_RANK="${NODE_RANK:?set NODE_RANK}"
docker run --gpus all --ipc=host --network host "${IMAGE}" m \
  --tensor-parallel-size 8 \
  --node-rank "${NODE_RANK}"
`
	ds := findingsOf(t, "0.18.0", script, codes.VLUnresolved)
	if len(ds) != 1 || ds[0].Line != 5 || !strings.Contains(ds[0].Message, "NODE_RANK") {
		t.Errorf("%v, want one VL004 at line 5 (--node-rank)", ds)
	}
	// An unresolved model (no option before it) keeps the note at the
	// command, not where the variable was set (line 1).
	ds = findingsOf(t, "0.18.0", "MODEL=${MODEL:?set MODEL}\n\nvllm serve \"$MODEL\" --port 8001\n", codes.VLUnresolved)
	if len(ds) != 1 || ds[0].Line != 3 {
		t.Errorf("%v, want one VL004 at line 3 (the command)", ds)
	}
}

// TestUnreadFormatNotNoServer (qa44a F10): a YAML file whose fields hold
// `vllm serve` commands (vllm-ascend's multi-node test cases,
// https://github.com/vllm-project/vllm-ascend/issues/5493) is said to be in
// a format vlaunch does not read, not to have no vLLM server.
func TestUnreadFormatNotNoServer(t *testing.T) {
	doc := "test_name: two nodes\ndeployment:\n  -\n    server_cmd: >\n        vllm serve m\n        --data-parallel-size 2\n  -\n    server_cmd: >\n        vllm serve m\n        --headless\n"
	ds, err := Lint([]Input{{Name: "case.yaml", Data: []byte(doc)}}, Options{Version: "0.13.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Code != codes.VLNoLaunch || !strings.Contains(ds[0].Message, "appears 2 time(s), but not in a form vlaunch reads") {
		t.Errorf("%v, want one VL008 saying the commands are in a format vlaunch does not read", ds)
	}
}
