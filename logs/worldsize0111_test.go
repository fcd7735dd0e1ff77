package logs

import (
	"strings"
	"testing"
)

// TestTensorSizeRefused0111: vLLM 0.11.1-0.12.x refuse an engine larger
// than the node in other words (vllm.ExecutorTooSmallMessage0111, read at
// the v0.11.1 tag's vllm/config/parallel.py) than the "World size …"
// releases: the same LOG183 with both figures. The line's shape follows the
// world-size fixture's pydantic Value error line; the figures are made up.
func TestTensorSizeRefused0111(t *testing.T) {
	log := "(APIServer pid=7) pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n" +
		"(APIServer pid=7)   Value error, Tensor parallel size (16) cannot be larger than the number of available GPUs (8). [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n"
	rep := analyzeStrings(t, map[string]string{"a.log": log}, "a.log")
	f := failureOf(t, rep, "LOG183")
	if !strings.Contains(f.Message, "world size (tensor × pipeline parallel) is 16 but vLLM sees 8 GPU(s)") {
		t.Errorf("LOG183: %q", f.Message)
	}
}
