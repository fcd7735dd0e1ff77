package validate

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestAPIServersThinMessage: SPEC142 names vLLM's default for the command
// (vllm.Release.DefaultAPIServers: 8 for DP 8 under internal LB on
// 0.22.1) and the simulated time at the API servers with the spec's count
// and with that default: two processes ingesting 512 sessions' short
// requests hold each far longer than eight, and the workload's mean TTFT
// with them. Where that costs the workload little (the qwen fixture's
// longer requests) nothing is said: clean-little-cost.yaml.
func TestAPIServersThinMessage(t *testing.T) {
	src, err := os.ReadFile("testdata/specs/SPEC142/two-for-eight.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var msg, hint string
	for _, d := range mustBytes(t, "two-for-eight.yaml", string(src)) {
		if d.Code == codes.SpecAPIServersThin {
			msg, hint = d.Message, d.Hint
		}
	}
	for _, want := range []string{"api_server_count 2 puts 2 API-server processes in front of the 8 DP engines",
		"vLLM 0.22.1 starts 8 when it is not given (internal LB: API servers = --data-parallel-size)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("no %q in %q", want, msg)
		}
	}
	if want := "drop api_server_count (vLLM's default, 8) or set it to 8"; hint != want {
		t.Errorf("hint %q, want %q", hint, want)
	}
	m := regexp.MustCompile(`puts a request ([\d.]+ m?s) at the API servers, ingested and its first token streamed, of a mean TTFT of ([\d.]+ m?s) \(\d+ output tokens/s\), against ([\d.]+ m?s) of ([\d.]+ m?s) \(\d+ tokens/s\) with 8$`).FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("no simulated front-end figures in %q", msg)
	}
	fe, ttft, feDef, ttftDef := seconds(t, m[1]), seconds(t, m[2]), seconds(t, m[3]), seconds(t, m[4])
	if !(fe-feDef >= 0.1*ttft && feDef > 0 && ttft > ttftDef) {
		t.Errorf("API servers %v s of a %v s TTFT with 2, %v s of %v s with 8: want a material cost of the 2", fe, ttft, feDef, ttftDef)
	}
}

// seconds reads "9.84 ms" or "2.16 s".
func seconds(t *testing.T, s string) float64 {
	t.Helper()
	v, unit, _ := strings.Cut(s, " ")
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatal(err)
	}
	if unit == "ms" {
		x /= 1e3
	}
	return x
}
