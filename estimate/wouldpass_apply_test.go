package estimate

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/input"
	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/examples"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// TestWouldPassApplied applies every "what it would take" line that says
// a change would meet a failing SLO — more or fewer sessions, a lower
// arrival rate, a faster inter-node link, an alternative configuration,
// an alternative with a number of sessions — to the spec it was printed
// for, checks the edited spec, and requires the SLO the line names not to
// fail (issue #27: a suggestion is checked with the same simulation the
// verdict used, or it is not made). The specs are every example and
// edited ones where suggestions appear: the throughput target raised above
// what the example reaches, the TTFT targets tightened below its
// predictions, and the fp8 example at the 3760 sessions an earlier
// steady-decode search advised.
func TestWouldPassApplied(t *testing.T) {
	if testing.Short() {
		t.Skip("checks some forty specs")
	}
	type edit = func(*spec.Deployment)
	type tc struct {
		name string
		ex   string
		edit edit
	}
	var cases []tc
	for _, ex := range examples.Names() {
		d := testinput.ExampleSpec(t, ex)
		if d.Disaggregation != nil {
			continue // a P/D check prints no such lines
		}
		cases = append(cases, tc{ex, ex, func(*spec.Deployment) {}})
		r := checked(t, d)
		for _, v := range r.SLO {
			if strings.HasPrefix(v.Name, "throughput") && v.Predicted > 0 {
				target := 2 * v.Predicted
				cases = append(cases, tc{ex + " throughput ×2", ex, func(s *spec.Deployment) { s.SLO.ThroughputTokensPerS = target }})
			}
		}
		pred := map[string]float64{}
		for _, v := range r.SLO {
			pred[v.Name] = v.Predicted
		}
		cases = append(cases, tc{ex + " TTFT ×0.6", ex, func(s *spec.Deployment) {
			for i := range s.SLO.TTFT {
				t := &s.SLO.TTFT[i]
				for _, q := range []struct {
					name string
					p    **float64
				}{{"p50", &t.P50S}, {"p95", &t.P95S}, {"p99", &t.P99S}} {
					if *q.p != nil {
						if got := pred[fmt.Sprintf("TTFT %s at %d input tokens", q.name, t.InputTokens)]; got > 0 {
							x := 0.6 * got
							*q.p = &x
						}
					}
				}
			}
		}})
	}
	cases = append(cases, tc{"fp8 at 3760 sessions", "deepseek-v3-fp8-2x8h200", func(s *spec.Deployment) { s.Workload.Concurrency = 3760 }})

	claims := 0
	for _, c := range cases {
		d := testinput.ExampleSpec(t, c.ex)
		c.edit(d)
		r := checked(t, d)
		for _, v := range r.SLO {
			if v.Verdict != slo.VerdictFail {
				continue
			}
			for _, line := range v.WouldPass {
				apply, ok := wouldPassClaim(line)
				if !ok {
					continue
				}
				claims++
				if apply == nil {
					t.Errorf("%s: %s: cannot apply %q", c.name, v.Name, line)
					continue
				}
				e := testinput.ExampleSpec(t, c.ex)
				c.edit(e)
				apply(e)
				got := checked(t, e)
				var after *slo.Verdict
				for i := range got.SLO {
					if got.SLO[i].Name == v.Name {
						after = &got.SLO[i]
					}
				}
				if after != nil {
					t.Logf("%s: %s: %q applied: %s, predicted %.4g (target %.4g)", c.name, v.Name, line, after.Verdict, after.Predicted, v.Target)
				}
				if after == nil || after.Verdict == slo.VerdictFail {
					pred := "no verdict"
					if after != nil {
						pred = fmt.Sprintf("%s, predicted %.4g", after.Verdict, after.Predicted)
					}
					t.Errorf("%s: %s: %q applied: %s (target %.4g)", c.name, v.Name, line, pred, v.Target)
				}
			}
		}
	}
	if claims == 0 {
		t.Error("no line claimed a change would meet a target: the test checks nothing")
	}
	t.Logf("%d claims applied", claims)
}

// checked is `vlaunch check` of d (seed 1), as the CLI runs it.
func checked(t *testing.T, d *spec.Deployment) Report {
	t.Helper()
	in, ds := input.FromSpec(d)
	if ds.HasErrors() {
		t.Fatalf("resolve: %v", ds)
	}
	r := Check(&in)
	r.AddPerformance(&in, PerfOptions{Seed: 1})
	return r
}

var (
	claimSessions  = regexp.MustCompile(`^(\d+) concurrent sessions \(\d+ per DP rank\) would reach`)
	claimFewer     = regexp.MustCompile(`^at most (\d+) concurrent sessions \(now \d+\) would meet it`)
	claimRate      = regexp.MustCompile(`^an arrival rate of at most ([\d.]+) requests/s \(now [\d.]+\) would meet it`)
	claimBandwidth = regexp.MustCompile(`^inter-node bandwidth of about (\d+) Gbit/s per node \(now \d+\) would meet it`)
	claimAltWith   = regexp.MustCompile(`^with (.+), (\d+) concurrent sessions would reach`)
	claimAlt       = regexp.MustCompile(`^(.+?) \((predicted|re-simulated:) `)
)

// wouldPassClaim parses a line that says a change would meet the target
// into that change (nil when the test cannot apply it; false: the line claims nothing — a bound, a negative,
// or an estimate it says is not confirmed).
func wouldPassClaim(line string) (func(*spec.Deployment), bool) {
	if m := claimSessions.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		return func(s *spec.Deployment) { s.Workload.Concurrency = n }, true
	}
	if m := claimFewer.FindStringSubmatch(line); m != nil {
		n, _ := strconv.Atoi(m[1])
		return func(s *spec.Deployment) { s.Workload.Concurrency = n }, true
	}
	if m := claimRate.FindStringSubmatch(line); m != nil {
		r, _ := strconv.ParseFloat(m[1], 64)
		return func(s *spec.Deployment) { s.Workload.ArrivalRatePerS = r }, true
	}
	if m := claimBandwidth.FindStringSubmatch(line); m != nil {
		bw, _ := strconv.ParseFloat(m[1], 64)
		return func(s *spec.Deployment) {
			s.Hardware.Network.InterNode.BandwidthGbitPerS, s.Hardware.Network.InterNode.NICsPerNode = bw, 1
		}, true
	}
	if m := claimAltWith.FindStringSubmatch(line); m != nil {
		alt, ok := alternativeEdit(m[1])
		if !ok {
			return nil, true
		}
		n, _ := strconv.Atoi(m[2])
		return func(s *spec.Deployment) { alt(s); s.Workload.Concurrency = n }, true
	}
	if m := claimAlt.FindStringSubmatch(line); m != nil && !strings.Contains(m[1], ":") {
		alt, ok := alternativeEdit(m[1])
		if !ok {
			return nil, true // a claim the test cannot apply: reported
		}
		return alt, true
	}
	return nil, false
}

// alternativeEdit is an alternative's name (slo.Alternative.Name) as a
// change to the spec.
func alternativeEdit(name string) (func(*spec.Deployment), bool) {
	var edits []func(*spec.Deployment)
	perGPU := regexp.MustCompile(`^(\d+) Gbit/s per GPU$`)
	nics := regexp.MustCompile(`^inter-node (\d+) × (\d+) Gbit/s NICs per node$`)
	layout := regexp.MustCompile(`^TP=(\d+) (DP|PP)=(\d+)$`)
	for _, part := range strings.Split(name, " + ") {
		switch m := []string(nil); {
		case part == "FP8 weights":
			edits = append(edits, func(s *spec.Deployment) { s.Model.Weights = "fp8" })
		case part == "DBO":
			edits = append(edits, func(s *spec.Deployment) { s.VLLM.EnableDBO = true })
		case strings.HasPrefix(part, "all2all "):
			b := strings.TrimPrefix(part, "all2all ")
			edits = append(edits, func(s *spec.Deployment) { s.VLLM.All2AllBackend = b })
		case part == vllm.BackendDeepEPLowLatency:
			edits = append(edits, func(s *spec.Deployment) { s.VLLM.All2AllBackend = part })
		case perGPU.MatchString(part):
			m = perGPU.FindStringSubmatch(part)
			bw, _ := strconv.ParseFloat(m[1], 64)
			edits = append(edits, func(s *spec.Deployment) {
				s.Hardware.Network.InterNode.BandwidthGbitPerS, s.Hardware.Network.InterNode.NICsPerNode = bw, s.Hardware.Nodes[0].GPUs
			})
		case nics.MatchString(part):
			m = nics.FindStringSubmatch(part)
			n, _ := strconv.Atoi(m[1])
			bw, _ := strconv.ParseFloat(m[2], 64)
			edits = append(edits, func(s *spec.Deployment) {
				s.Hardware.Network.InterNode.BandwidthGbitPerS, s.Hardware.Network.InterNode.NICsPerNode = bw, n
			})
		case layout.MatchString(part):
			m = layout.FindStringSubmatch(part)
			tp, _ := strconv.Atoi(m[1])
			k, _ := strconv.Atoi(m[3])
			edits = append(edits, func(s *spec.Deployment) {
				s.Parallelism.Tensor = tp
				if m[2] == "DP" {
					s.Parallelism.Data = k
				} else {
					s.Parallelism.Pipeline = k
				}
			})
		default:
			return nil, false
		}
	}
	return func(s *spec.Deployment) {
		for _, e := range edits {
			e(s)
		}
	}, len(edits) > 0
}
