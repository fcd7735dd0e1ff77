package slo

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestAPIServersAdviceFires: EST203 is said for the specs whose explicit
// api_server_count costs the workload (two-for-eight: 2 API servers for 8
// DP engines on 0.22.1, whose default is 8; one-old-release: one API
// server for several engines on a release whose default is one) and never
// for the clean ones (count unset, the default, behind a router, or a
// count whose cost is small against the workload's).
func TestAPIServersAdviceFires(t *testing.T) {
	files, err := filepath.Glob("testdata/apiservers/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, f := range files {
		in := adviceInput(t, f, nil)
		got := apiServersAdvice(&in)
		want := !strings.HasPrefix(filepath.Base(f), "clean-")
		if (len(got) > 0) != want {
			t.Errorf("%s: EST203 said %v, want %v (%v)", f, len(got) > 0, want, got)
		}
		for _, d := range got {
			if d.Code != CodeAPIServersThin || d.Path != "vllm.api_server_count" {
				t.Errorf("%s: %s at %q", f, d.Code, d.Path)
			}
		}
	}
}

// TestAPIServersThinMessage: EST203 names vLLM's default for the command
// (vllm.Release.DefaultAPIServers: 8 for DP 8 under internal LB on
// 0.22.1) and the simulated time at the API servers with the spec's count
// and with that default: two processes ingesting 512 sessions' short
// requests hold each far longer than eight, and the workload's mean TTFT
// with them.
func TestAPIServersThinMessage(t *testing.T) {
	in := adviceInput(t, "testdata/apiservers/two-for-eight.yaml", nil)
	got := apiServersAdvice(&in)
	if len(got) != 1 {
		t.Fatalf("want one EST203, got %v", got)
	}
	msg, hint := got[0].Message, got[0].Hint
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
