package validate

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestExtraArgsByReleaseTag: a flag vlaunch's table does not model is
// settled by the release tag's own parser (vllm.TagFlag): --hf-token alone
// (a real option of 0.20.0: arg_utils.py at the tag) passes silently, an
// option no tag registers is a warning naming the tag read, and a release
// newer than the tags read keeps "passed through unchecked".
func TestExtraArgsByReleaseTag(t *testing.T) {
	b := func(version, arg string) string {
		return `apiVersion: vlaunch/v1
kind: Deployment
model: {name: llama-3.1-8b}
hardware:
  gpu: h100-sxm
  nodes:
    - {name: n0, address: 10.0.0.1, gpus: 1}
parallelism: {tensor: 1}
workload: {concurrency: 4, max_model_len: 8192, input_tokens: 1000, output_tokens: 100}
vllm:
  version: "` + version + `"
  extra_args: ["` + arg + `"]
`
	}
	if g := findCode(mustBytes(t, "a.yaml", b("0.20.0", "--hf-token")), codes.GenExtraArg); len(g) != 0 {
		t.Errorf("--hf-token on 0.20.0: want no GEN006, got\n%s", render(g))
	}
	g := findCode(mustBytes(t, "b.yaml", b("0.20.0", "--not-a-flag")), codes.GenExtraArg)
	if len(g) != 1 || !strings.Contains(g[0].Message, "vLLM 0.20.0's parser registers no --not-a-flag (read at the release tag") {
		t.Errorf("--not-a-flag on 0.20.0: got\n%s", render(g))
	}
	g = findCode(mustBytes(t, "c.yaml", b("0.34.0", "--not-a-flag")), codes.GenExtraArg)
	if len(g) != 1 || !strings.Contains(g[0].Message, "passed through unchecked") {
		t.Errorf("--not-a-flag on 0.34.0: got\n%s", render(g))
	}
}
