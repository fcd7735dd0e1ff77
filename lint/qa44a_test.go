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
