package slo

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/spec"
)

// A "what it would take" line of more sessions (alone, or with an
// alternative's all-to-all backend) holds when applied: check on the
// spec edited as the line says prints the line's figure, and the verdict
// the line implies — a pass, or uncertain when the line says check would
// call it so. QA session 37: "with allgather_reducescatter, 656 concurrent
// sessions would reach 8041 tokens/s" gave 7,882 and an uncertain verdict
// when applied (the line's figure came from one short run, check's from
// eleven), and "steady decode 8557 at 240" quoted another session count.
func TestWouldPassSessionsHoldWhenApplied(t *testing.T) {
	const path = "testdata/qa37-qwen-dpep.yaml"
	opt := Options{Seed: 1}
	in := adviceInput(t, path, nil)
	v := check(&in, opt).SLO[0]
	if v.Unit != "tokens/s" || v.Verdict != VerdictFail {
		t.Fatalf("the spec's throughput should fail: %+v", v)
	}
	alone := regexp.MustCompile(`^(\d+) concurrent sessions \(\d+ per DP rank\) would reach (\d+) tokens/s`)
	with := regexp.MustCompile(`^with all2all (\S+), (\d+) concurrent sessions would reach (\d+) tokens/s`)
	tried := 0
	for _, line := range v.WouldPass {
		backend, sessions, figure := "", "", ""
		if m := alone.FindStringSubmatch(line); m != nil {
			sessions, figure = m[1], m[2]
		} else if m := with.FindStringSubmatch(line); m != nil {
			backend, sessions, figure = m[1], m[2], m[3]
		} else {
			continue
		}
		if strings.Contains(line, "steady decode") && !strings.Contains(line, "steady decode "+steadyAt(t, path, backend, sessions)) {
			t.Errorf("the line's steady decode is not at the sessions it names: %s", line)
		}
		tried++
		c, _ := strconv.Atoi(sessions)
		applied := adviceInput(t, path, func(d *spec.Deployment) {
			d.Workload.Concurrency = c
			if backend != "" {
				d.VLLM.All2AllBackend = backend
			}
		})
		got := check(&applied, opt).SLO[0]
		if fmt.Sprintf("%.0f", got.Predicted) != figure {
			t.Errorf("applied (%d sessions, backend %q): check predicts %.0f tokens/s, the line said %s: %s", c, backend, got.Predicted, figure, line)
		}
		want := VerdictPass
		if strings.Contains(line, "would still call it uncertain") {
			want = VerdictUncertain
		}
		if got.Verdict != want {
			t.Errorf("applied (%d sessions, backend %q): verdict %s, the line implies %s: %s", c, backend, got.Verdict, want, line)
		}
	}
	if tried == 0 {
		t.Fatalf("no sessions line to apply: %q", v.WouldPass)
	}
}

// steadyAt is the steady decode (output tokens/s) check reports for the
// spec at the given sessions and backend ("": the spec's).
func steadyAt(t *testing.T, path, backend, sessions string) string {
	c, _ := strconv.Atoi(sessions)
	in := adviceInput(t, path, func(d *spec.Deployment) {
		d.Workload.Concurrency = c
		if backend != "" {
			d.VLLM.All2AllBackend = backend
		}
	})
	r := check(&in, Options{Seed: 1, NoAdvice: true})
	return fmt.Sprintf("%.0f", r.Performance.Decode.Point.OutputTokPerS)
}
