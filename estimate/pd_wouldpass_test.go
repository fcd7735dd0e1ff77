package estimate

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/estimate/internal/testinput"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/resolve"
)

// QA finding (session 38): a P/D check's FAIL throughput verdict (GLM-5
// FP8, 2,285 against 5,000 tokens/s) and its uncertain ones came with no
// "what it would take" (JSON what_it_would_take: null); colocated verdicts
// always get one. Every failing or uncertain verdict of the two QA P/D
// specs now has a line, and every line that names a change holds when
// applied: the spec with that change, checked as check checks it
// (CheckPD), gives the verdict the figure the line prints, to the digit.
func TestPDWouldPassApplied(t *testing.T) {
	// The QA37 Qwen3-235B spec: a model whose pools fit in more instances
	// of the same GPUs, so the instance lines carry figures too.
	for _, f := range []string{"pd/testdata/qa38-glm5-fp8-pd-2x8h200.yaml", "pd/testdata/qa38-dsv32-pd-2x8h200.yaml", "pd/testdata/qa37-qwen3-235b-pd.yaml", "pd/testdata/newuser40-glm5-fp8-pd-2x8h200.yaml"} {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		in := testinput.FromYAML(t, f, string(y))
		d := in.Resolved()
		r := CheckPD(d, PerfOptions{Seed: 1})
		for _, v := range r.SLO {
			if (v.Verdict == slo.VerdictFail || v.Verdict == slo.VerdictUncertain) && len(v.WouldPass) == 0 {
				t.Errorf("%s: %s %s has no what it would take", f, v.Verdict, v.Name)
			}
		}
		// The claims behind the lines, each applied.
		// The verdicts the lines were computed on are the advised check's
		// without its lines (pdWouldPass only adds WouldPass lines, and
		// CheckPD without advice differs by nothing else): no second check.
		rep := *r.Disaggregated
		vs := cloneVerdicts(r.SLO)
		claims := pdWouldPass(d, &rep, vs, PerfOptions{Seed: 1})
		applied := 0
		for _, c := range claims {
			if c.edit == nil {
				continue
			}
			found := false
			for _, v := range r.SLO {
				for _, l := range v.WouldPass {
					found = found || l == c.line
				}
			}
			if !found {
				t.Errorf("%s: claim %q is not among the printed lines", f, c.line)
			}
			ed, ok := editPD(d, *c.edit)
			if !ok {
				t.Errorf("%s: %q does not apply", f, c.edit.what)
				continue
			}
			got := CheckPD(ed, PerfOptions{Seed: 1, NoAdvice: true})
			w := verdictNamed(got.SLO, c.verdict)
			if w == nil || w.Predicted != c.figure || w.Verdict != c.verdict2 || !strings.Contains(c.line, figure(w, w.Predicted)+" ("+strings.ToUpper(w.Verdict)+")") {
				t.Errorf("%s: %q applied gives %+v, the line says %s (%s): %s", f, c.edit.what, w, figure(w, c.figure), c.verdict2, c.line)
			}
			applied++
			t.Logf("%s: %s", f, c.line)
		}
		if applied == 0 {
			t.Errorf("%s: no line names a change to apply", f)
		}
	}
}

// pdleftSpec is the slow-NIC P/D spec (pd/testdata/pdleft-llama8b-slownic.yaml)
// with its TTFT targets replaced (p50, p99 in seconds), resolved as check
// resolves it.
func pdleftSpec(t *testing.T, file, p50, p99 string) *resolve.Deployment {
	t.Helper()
	y, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(y), "p50_s: 0.8, p99_s: 1.0", "p50_s: "+p50+", p99_s: "+p99, 1)
	in := testinput.FromYAML(t, file, s)
	return in.Resolved()
}

// The colocated "what it would take" line had never fired on a test spec.
// A P/D split the KV hand-off sinks (pdleft-llama8b-slownic.yaml): one
// Llama-3.1-8B prefill engine and one decode engine on two H100 nodes
// joined by a 10 Gbit/s Ethernet NIC each. Derived by hand: the KV of an
// 8,000-token prompt is 8,000 × 131,072 B = 1,048,576,000 B, which takes
// 1,048,576,000 / 1.25e9 B/s + 20 µs (Ethernet's default latency) =
// 0.83888 s on an idle NIC, more than the 800 ms TTFT p50 target before
// the prefill or any queue is added, so the split fails it at any load.
// Colocated, the two GPUs are two TP 1 replicas that never move the KV.
//
// The line must fire on both TTFT verdicts with the colocated check's own
// figure: the same number, bit for bit, that `check` of the hand-written
// colocated spec (pdleft-llama8b-slownic-colocated.yaml) predicts, one
// evaluation, not a second formula. It must not fire where the colocated
// verdict is not a PASS: a 200 ms p50 (colocated UNCERTAIN at its
// ≈ 227 ms) and a 100 ms p99 (colocated FAIL), while the other verdict of
// the same spec keeps its line.
func TestPDWouldPassColocatedLine(t *testing.T) {
	const file = "pd/testdata/pdleft-llama8b-slownic.yaml"
	const twin = "pd/testdata/pdleft-llama8b-slownic-colocated.yaml"
	const p50, p99 = "TTFT p50 at 8000 input tokens", "TTFT p99 at 8000 input tokens"
	opt := PerfOptions{Seed: 1}

	// The colocated twin through check's colocated path, advice and all.
	y, err := os.ReadFile(twin)
	if err != nil {
		t.Fatal(err)
	}
	cin := testinput.FromYAML(t, twin, string(y))
	cr := Check(&cin)
	cr.AddPerformance(&cin, opt)
	colo := map[string]*slo.Verdict{p50: verdictNamed(cr.SLO, p50), p99: verdictNamed(cr.SLO, p99)}
	for name, v := range colo {
		if v == nil || v.Verdict != slo.VerdictPass {
			t.Fatalf("colocated twin: %s is %+v, want a PASS", name, v)
		}
	}

	d := pdleftSpec(t, file, "0.8", "1.0")
	r := CheckPD(d, opt)
	sc := r.Disaggregated.Scenario(8000)
	if sc == nil {
		t.Fatal("no scenario at 8,000 input tokens")
	}
	const bytes = 8000 * 2 * 8 * 128 * 2 * 32
	if alone := float64(bytes)/1.25e9 + 20e-6; bytes != 1_048_576_000 || math.Abs(sc.Transfer.AloneS-alone) > 1e-6 || alone <= 0.8 {
		t.Errorf("the hand-off alone takes %.6f s, derived %.6f s (%d B at 1.25 GB/s)", sc.Transfer.AloneS, alone, bytes)
	}
	c := r.Disaggregated.Colocated
	if c == nil || c.Error != "" || !strings.HasPrefix(c.Layout, "TP1 PP1 DP1 × 2 on 2 GPUs, the spec's top-level engine settings and those both pools share (max_num_seqs ") {
		t.Fatalf("colocated comparison %+v", c)
	}
	for _, name := range []string{p50, p99} {
		v := verdictNamed(r.SLO, name)
		if v == nil || v.Verdict != slo.VerdictFail || v.Predicted < sc.Transfer.AloneS {
			t.Fatalf("%s: %+v, want a FAIL above the hand-off alone", name, v)
		}
		if got := verdictNamed(c.SLO, name); got == nil || got.Predicted != colo[name].Predicted || got.Verdict != colo[name].Verdict {
			t.Errorf("%s: the comparison's colocated verdict %+v, check of the colocated spec %+v", name, got, colo[name])
		}
		want := "the same GPUs colocated (" + c.Layout + "; the spec without disaggregation) meet it: " + figure(v, colo[name].Predicted) + " (PASS)"
		if !slices.Contains(v.WouldPass, want) {
			t.Errorf("%s: what it would take %q, want %q", name, v.WouldPass, want)
		}
		t.Logf("%s: P/D %.3f s FAIL; %s", name, v.Predicted, want)
	}

	// Not where the colocated verdict is no PASS; the other verdict keeps it.
	for _, tc := range []struct{ p50, p99, quiet, fires, coloVerdict string }{
		{"0.2", "1.0", p50, p99, slo.VerdictUncertain},
		{"0.8", "0.1", p99, p50, slo.VerdictFail},
	} {
		r := CheckPD(pdleftSpec(t, file, tc.p50, tc.p99), opt)
		if w := verdictNamed(r.Disaggregated.Colocated.SLO, tc.quiet); w == nil || w.Verdict != tc.coloVerdict {
			t.Errorf("p50 %s, p99 %s: colocated %s is %+v, want %s", tc.p50, tc.p99, tc.quiet, w, tc.coloVerdict)
		}
		for name, wantLine := range map[string]bool{tc.quiet: false, tc.fires: true} {
			v := verdictNamed(r.SLO, name)
			has := false
			for _, l := range v.WouldPass {
				has = has || strings.HasPrefix(l, "the same GPUs colocated")
			}
			if v.Verdict != slo.VerdictFail || has != wantLine {
				t.Errorf("p50 %s, p99 %s: %s %s, colocated line %t (want %t): %q", tc.p50, tc.p99, v.Verdict, name, has, wantLine, v.WouldPass)
			}
		}
	}
}

// One output token (task pdleft): a P/D check's TPOT verdict is the
// colocated check's, the trivial PASS at 0 s (slo.OneOutputToken), not a
// FAIL with "predicted 0 s" beside a colocated PASS; so no "what it would
// take" proposes more decode instances or the colocated layout for it.
func TestPDOneOutputTokenTPOT(t *testing.T) {
	const file = "pd/testdata/pdleft-llama8b-slownic.yaml"
	y, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.FromYAML(t, file, strings.Replace(string(y), "output_tokens: 200", "output_tokens: 1", 1))
	r := CheckPD(in.Resolved(), PerfOptions{Seed: 1})
	v, c := verdictNamed(r.SLO, "TPOT (mean)"), verdictNamed(r.Disaggregated.Colocated.SLO, "TPOT (mean)")
	if v == nil || c == nil {
		t.Fatalf("TPOT verdicts: P/D %+v, colocated %+v", v, c)
	}
	if v.Verdict != slo.VerdictPass || v.Predicted != 0 || v.Verdict != c.Verdict || v.Predicted != c.Predicted || len(v.WouldPass) != 0 {
		t.Errorf("P/D TPOT %s %v %q, colocated %s %v: want both the trivial PASS at 0 s", v.Verdict, v.Predicted, v.WouldPass, c.Verdict, c.Predicted)
	}
}

// A TTFT verdict the KV transfer binds gets the faster-NIC line: the
// slowest per-NIC line rate (nicRates) at which the P/D model on the spec
// with it passes. On the slow-NIC spec (10 Gbit/s, a 0.84 s hand-off
// alone) the p50 target of 800 ms: the line's rate, applied, gives the
// figure and PASS it prints (CheckPD of the edited spec, to the digit),
// and the next slower rate does not pass; the p99 target of 1 s, which no
// rate up to 800 Gbit/s passes, gets the fastest rate's figure and says
// so. No line said what NIC would do before.
func TestPDWouldPassFasterNIC(t *testing.T) {
	const file = "pd/testdata/pdleft-llama8b-slownic.yaml"
	d := pdleftSpec(t, file, "0.8", "1.0")
	opt := PerfOptions{Seed: 1}
	r := CheckPD(d, opt)
	rep := *r.Disaggregated
	vs := CheckPD(d, PerfOptions{Seed: 1, NoAdvice: true}).SLO
	claims := pdWouldPass(d, &rep, vs, opt)
	nic := map[string]pdClaim{}
	for _, c := range claims {
		if c.edit != nil && strings.HasPrefix(c.edit.what, "hardware.network.inter_node.bandwidth_gbit_per_s: ") {
			nic[c.verdict] = c
		}
	}
	const p50, p99 = "TTFT p50 at 8000 input tokens", "TTFT p99 at 8000 input tokens"
	for _, name := range []string{p50, p99} {
		v := verdictNamed(r.SLO, name)
		c, ok := nic[name]
		if v == nil || v.Binding != "hand-off: KV transfer" || !ok || !slices.Contains(v.WouldPass, c.line) {
			t.Fatalf("%s: %+v; faster-NIC claim %+v (found %t)", name, v, c, ok)
		}
		ed, ok := editPD(d, *c.edit)
		if !ok {
			t.Fatalf("%s: %q does not apply", name, c.edit.what)
		}
		w := verdictNamed(CheckPD(ed, PerfOptions{Seed: 1, NoAdvice: true}).SLO, name)
		if w == nil || w.Predicted != c.figure || w.Verdict != c.verdict2 || !strings.Contains(c.line, figure(w, w.Predicted)+" ("+strings.ToUpper(w.Verdict)+")") {
			t.Errorf("%s: %q applied gives %+v; the line: %s", name, c.edit.what, w, c.line)
		}
		t.Logf("%s: %s", name, c.line)
	}
	c := nic[p50]
	if c.verdict2 != slo.VerdictPass {
		t.Fatalf("p50: %s, want a rate that passes", c.line)
	}
	g := ed50Rate(t, c.edit.what)
	i := slices.Index(nicRates, g)
	if i <= 0 {
		t.Fatalf("p50: rate %g is not one of %v above the slowest", g, nicRates)
	}
	slower, _ := editPD(d, nicRate(nicRates[i-1]))
	if w := verdictNamed(CheckPD(slower, PerfOptions{Seed: 1, NoAdvice: true}).SLO, p50); w == nil || w.Verdict == slo.VerdictPass {
		t.Errorf("p50: %g Gbit/s passes too (%+v): the line's rate is not the slowest that does", nicRates[i-1], w)
	}
	if c := nic[p99]; c.verdict2 == slo.VerdictPass || !strings.HasSuffix(c.line, "no NIC tried passes it alone") || !strings.HasPrefix(c.line, "hardware.network.inter_node.bandwidth_gbit_per_s: 800 ") {
		t.Errorf("p99: %s, want the fastest rate's figure, not passing", c.line)
	}
}

// ed50Rate is the rate an edit "hardware.network.inter_node.bandwidth_gbit_per_s: G" sets.
func ed50Rate(t *testing.T, what string) float64 {
	t.Helper()
	var g float64
	if _, err := fmt.Sscanf(what, "hardware.network.inter_node.bandwidth_gbit_per_s: %g", &g); err != nil {
		t.Fatalf("%q: %v", what, err)
	}
	return g
}

// newuser40's GLM-5 FP8 P/D check (01-glm5-fp8-pd-2x8h200: one TP 8
// prefill and one TP 8 decode instance on 2 × 8 H200, 64 sessions of
// 64K context): its TPOT and TTFT verdicts, bound by the decode pool,
// read "more instances of the decode pool …: no such layout that vLLM
// places holds the model and a KV block per GPU", a remedy ruled out in
// its own line. No line proposes more instances when none fits; the line
// says what leaves the instance more KV instead, an FP8 KV cache on the
// pool, evaluated (TestPDWouldPassApplied checks such figures applied).
func TestPDNoLayoutProposesWhatDoes(t *testing.T) {
	const f = "pd/testdata/newuser40-glm5-fp8-pd-2x8h200.yaml"
	y, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	in := testinput.FromYAML(t, f, string(y))
	r := CheckPD(in.Resolved(), PerfOptions{Seed: 1})
	kv := 0
	for _, v := range r.SLO {
		for _, l := range v.WouldPass {
			if strings.HasPrefix(l, "more instances of the") && strings.Contains(l, "no such layout") {
				t.Errorf("%s: proposes more instances and rules them out: %s", v.Name, l)
			}
			if strings.HasPrefix(l, "disaggregation.decode.vllm.kv_cache_dtype: fp8 (now bf16") {
				kv++
			}
		}
	}
	if kv == 0 {
		t.Errorf("no line names the decode pool's FP8 KV cache: %+v", r.SLO)
	}
}
