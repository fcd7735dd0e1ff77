package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestImagePostReleaseLinted: a vllm-openai image tagged with a .postN
// re-release (v0.6.3.post1, as qa/realin39's compose-llama32-vision-listcmd
// runs) is linted as that release, not as the newest one: a flag that
// release does not have yet (--enable-expert-parallel, first seen in 0.8.3)
// is a VL102 error.
func TestImagePostReleaseLinted(t *testing.T) {
	const compose = `services:
  vllm:
    image: vllm/vllm-openai:v0.6.3.post1
    ipc: host
    command: ["--model", "m/x", "--enable-expert-parallel"]
`
	ds, err := Lint([]Input{{Name: "compose.yaml", Data: []byte(compose)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Code == codes.VLFlagVersion && d.Line == 5 && strings.Contains(d.Message, "0.6.3") {
			return
		}
	}
	t.Errorf("want VL102 at line 5 naming 0.6.3.post1, got\n%s", ds)
}
