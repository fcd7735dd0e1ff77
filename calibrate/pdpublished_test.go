package calibrate

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/bench"
	"github.com/vlaunch/vlaunch/estimate/pd"
	"github.com/vlaunch/vlaunch/estimate/perf"
	globalfit "github.com/vlaunch/vlaunch/estimate/replay"
	"github.com/vlaunch/vlaunch/estimate/slo"
	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// anyscaleResults are Anyscale's conc8 and conc32 runs of the P/D example's
// deployment (calibrate_pd.txtar's results: published/pd.yaml
// anyscale-h100-pack-p1tp4-d1tp4-c8 and -c32) as calibrate receives them.
func anyscaleResults() []*bench.Result {
	c8 := anyscaleC8("conc8.json", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 40})
	c32 := anyscaleC8("conc32.json", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 32, Prompts: 160})
	return []*bench.Result{&c8, &c32}
}

// targetableOn lists published/pd.yaml's targetable vLLM rows on gpu.
func targetableOn(t *testing.T, gpu string) []string {
	t.Helper()
	set, err := published.PD()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range set.Rows {
		if r.Targetable() && r.Engine.Name == "vllm" && r.Hardware.GPU == gpu {
			ids = append(ids, r.ID)
		}
	}
	return ids
}

// TestPublishedPDRows: a P/D spec's published check takes every targetable
// vLLM run of published/pd.yaml on its GPU and none of another GPU; of the
// runs with the results' model, load and lengths, only those of the spec's
// own pools (1 × TP4 : 1 × TP4) are the user's own — Anyscale's
// 2 × TP2 : 1 × TP2 run at 32 sessions, the same client and lengths as
// conc32, is a run the fit was not given. A colocated spec owns no P/D run.
func TestPublishedPDRows(t *testing.T) {
	d := pdExample(t)
	if d.GPU == nil || d.GPU.ID != "h100-sxm" {
		t.Fatalf("the example's GPU is %v, want h100-sxm", d.GPU)
	}
	used := anyscaleResults()
	rows, own, refused, err := pdRowsOf(d, d.GPU.ID, legacy(d), modelNames(d), used)
	if err != nil || len(refused) > 0 {
		t.Fatalf("err %v, refused %q", err, refused)
	}
	wantOwn := []string{"anyscale-h100-pack-p1tp4-d1tp4-c8", "anyscale-h100-pack-p1tp4-d1tp4-c32"}
	if !slices.Equal(own, wantOwn) {
		t.Errorf("own rows %q, want %q", own, wantOwn)
	}
	var got []string
	for _, x := range rows {
		if x.row.Hardware.GPU != "h100-sxm" {
			t.Errorf("%s runs on %s", x.row.ID, x.row.Hardware.GPU)
		}
		got = append(got, x.row.ID)
	}
	all := targetableOn(t, "h100-sxm")
	if len(all) < 5 || len(got)+len(own) != len(all) {
		t.Errorf("%d rows + %d own, want the %d targetable H100 rows %q; got %q", len(got), len(own), len(all), all, got)
	}
	if !slices.Contains(got, "anyscale-h100-pack-p2tp2-d1tp2-c32") {
		t.Errorf("the 2 × TP2 : 1 × TP2 run at 32 sessions (other pools) is missing from %q", got)
	}
	h200 := targetableOn(t, "h200")
	other, _, _, err := pdRowsOf(d, "h200", legacy(d), modelNames(d), used)
	if err != nil || len(other) != len(h200) || len(h200) == 0 {
		t.Fatalf("on h200: %d rows (err %v), want the %d targetable", len(other), err, len(h200))
	}
	for _, x := range other {
		if slices.Contains(all, x.row.ID) {
			t.Errorf("an H100 run %s among the h200 rows", x.row.ID)
		}
	}
	// A colocated deployment on H100 owns none of them.
	col := *d
	col.PD = nil
	if _, own, _, _ := pdRowsOf(&col, "h100-sxm", legacy(d), modelNames(d), used); len(own) > 0 {
		t.Errorf("a colocated spec owns the P/D runs %q", own)
	}
}

// TestPublishedPDPath: the check predicts a P/D row exactly as
// TestCalibrationPD does (pd.RowSpec → pd.EvaluateRow → pd.PredictRow on
// the pools as check reads them), with the global constants; the fitted
// path with the same constants handed over as a file predicts the same
// figures (so an unchanged fit changes nothing); and the check's figures
// are docs/calibration-pd.md's: anyscale-h100-pack-p1tp4-d1tp4-c64's mean
// TTFT −27.6% and median −15.2% since the API server's tokenizer thread
// (tok43: the encode beside the event loop, sim/tokenizer.go), after
// +14% / +59% with session 43's per-request cached/new draw
// (pd.UseCachedDraw), −32% / −42% with the mean reuse, +59% / −3% until the
// replay priced the client's prompts its engines held cached
// (pd.RowPromptReuse), +60% / −2% until session 40's measured custom
// all-reduce curve (perf.UseCustomARCurve).
func TestPublishedPDPath(t *testing.T) {
	d := pdExample(t)
	rows, _, _, err := pdRowsOf(d, "h100-sxm", legacy(d), modelNames(d), anyscaleResults())
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	before := predictPDRows(rows, nil)
	global := time.Since(start)
	eff := perf.DefaultEfficiency
	same := predictPDRows(rows, &eff)
	t.Logf("%d P/D rows, %d figures: %.2f s with the global constants, %.2f s for both sets", len(rows), len(before), global.Seconds(), time.Since(start).Seconds())
	if len(same) != len(before) || len(before) == 0 {
		t.Fatalf("%d figures with the global constants, %d with the same handed as a file", len(before), len(same))
	}
	for i := range before {
		if before[i] != same[i] {
			t.Errorf("%s %s: %.6g without a file, %.6g with the global constants as one", before[i].Row, before[i].Metric, before[i].Predicted, same[i].Predicted)
		}
	}
	byID := map[string]globalfit.Target{}
	for _, x := range before {
		byID[x.Row+" "+x.Metric] = x
	}
	for key, want := range map[string]float64{"anyscale-h100-pack-p1tp4-d1tp4-c64 ttft_ms.mean": -0.276, "anyscale-h100-pack-p1tp4-d1tp4-c64 ttft_ms.median": -0.152} {
		x, ok := byID[key]
		if got := x.Predicted/x.Published - 1; !ok || got < want-0.005 || got > want+0.005 {
			t.Errorf("%s: %+.3f (found %v), docs/calibration-pd.md %+.2f", key, got, ok, want)
		}
	}
	// The same row through the replay's own path.
	for _, x := range rows {
		if x.row.ID != "anyscale-h100-pack-p1tp4-d1tp4-c64" {
			continue
		}
		pre, dec := x.pre, x.dec
		rep, _ := pd.EvaluateRow(x.row, &pre, &dec, slo.Options{Seed: replaySeed})
		p, _, err := pd.PredictRow(x.row, &rep)
		if err != nil || 1e3*p.TTFTMean != byID["anyscale-h100-pack-p1tp4-d1tp4-c64 ttft_ms.mean"].Predicted {
			t.Errorf("pd.PredictRow: %.6g ms (%v), the check %.6g", 1e3*p.TTFTMean, err, byID["anyscale-h100-pack-p1tp4-d1tp4-c64 ttft_ms.mean"].Predicted)
		}
	}
}

// TestPublishedPDWorsens: a fit whose constants slow vLLM's host step
// (multiproc_step_s ×3, which every decode step of both pools pays)
// worsens the P/D runs' TPOT and throughput: the check names them as P/D
// figures and warns, though the colocated runs compared beside them (here
// many, unchanged) keep the median over all the figures where it was — the
// P/D runs' own median decides.
func TestPublishedPDWorsens(t *testing.T) {
	d := pdExample(t)
	rows, _, _, err := pdRowsOf(d, "h100-sxm", legacy(d), modelNames(d), anyscaleResults())
	if err != nil {
		t.Fatal(err)
	}
	slow := perf.DefaultEfficiency
	slow.MultiprocStepS *= 3
	pb, pa := predictPDRows(rows, nil), predictPDRows(rows, &slow)
	// 200 colocated figures the fit leaves where they were (±5%).
	var cb []globalfit.Target
	for i := range 200 {
		cb = append(cb, globalfit.Target{Row: "colocated", Metric: string(rune('a'+i%26)) + strings.Repeat("x", i/26), Published: 100, Predicted: 95 + float64(i%11)})
	}
	pc := &PublishedCheck{GPU: "h100-sxm", PDMatch: pdMatchRule}
	pc.compare(cb, cb, pb, pa)
	pc.setWarning(2, 0.28, 0.15)
	if pc.PDFigures != len(pb) || pc.Figures != 200+len(pb) {
		t.Fatalf("figures %d (P/D %d), want %d (%d)", pc.Figures, pc.PDFigures, 200+len(pb), len(pb))
	}
	if pc.worseAll() || !pc.worsePD() || !pc.Worse() {
		t.Fatalf("worse over all %v, over the P/D runs %v (median %.1f%% → %.1f%%)", pc.worseAll(), pc.worsePD(), pc.PDMedianBeforePct, pc.PDMedianAfterPct)
	}
	tpot := 0
	for _, f := range pc.Worsened {
		if !f.PD {
			t.Errorf("%s %s worsened, not a P/D figure", f.Row, f.Metric)
		}
		if f.Metric == "tpot_ms.mean" {
			tpot++
		}
	}
	if tpot == 0 {
		t.Errorf("no P/D TPOT worsened: %+v", pc.Worsened)
	}
	if !strings.Contains(pc.Warning, "of vLLM's P/D runs on the same GPU") {
		t.Errorf("warning %q", pc.Warning)
	}
	var text bytes.Buffer
	pc.writeText(&text)
	for _, want := range []string{"published/throughput.yaml and published/pd.yaml", " (P/D) tpot_ms.mean", "P/D runs on h100-sxm", "Warning: the fit"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, text.String())
		}
	}
	var mdText bytes.Buffer
	pc.writeMarkdown(&mdText)
	if !strings.Contains(mdText.String(), " (P/D) | tpot_ms.mean | ") || !strings.Contains(mdText.String(), "All together: median |error|") {
		t.Errorf("the Markdown report does not mark the P/D figures:\n%s", mdText.String())
	}
	// The same constants, unchanged: no figure moves, no warning.
	pc = &PublishedCheck{GPU: "h100-sxm", PDMatch: pdMatchRule}
	pc.compare(cb, cb, pb, pb)
	pc.setWarning(2, 0.28, 0.15)
	if pc.Worse() || len(pc.Worsened) > 0 || pc.Warning != "" {
		t.Errorf("unchanged constants: worse %v, %d worsened, warning %q", pc.Worse(), len(pc.Worsened), pc.Warning)
	}
}

// TestResultAPI: the endpoint each real client file records (bench/
// testdata), read as vLLM's benchmark clients and AIPerf use it; a backend
// that names no OpenAI endpoint of vLLM's is not read.
func TestResultAPI(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"vllm-0.20-closed-loop.json", spec.APIChat},           // backend openai-chat
		{"vllm-serve.json", spec.APICompletions},               // backend openai
		{"vllm-0.11-rate1e9-conc16.json", spec.APICompletions}, // backend vllm
		{"vllm-script-2024.json", spec.APICompletions},         // benchmark_serving.py, backend vllm
		{"aiperf-0.10-concurrency.json", spec.APIChat},         // endpoint.type chat
		{"genai-perf-24.12-measurement-window.json", ""},       // endpoint_type kserve (Triton)
		{"sglang.jsonl", ""},                                   // sglang bench_serving's native backend
	} {
		rs, err := bench.ReadFile(filepath.Join("..", "bench", "testdata", c.file))
		if err != nil && len(rs) == 0 {
			if c.want == "" {
				continue // a file calibrate refuses records nothing it would replay
			}
			t.Fatalf("%s: %v", c.file, err)
		}
		if got, key := resultAPI(&rs[0]); got != c.want || (got != "" && key == "") {
			t.Errorf("%s (backend %q): endpoint %q (%s), want %q", c.file, rs[0].Backend, got, key, c.want)
		}
	}
}

// TestEndpointFromResult: a result that records its endpoint is replayed
// with it over the spec's workload.api, and the report says so; one that
// records none keeps the spec's. Colocated: the real vllm bench serve file
// of Qwen3-8B with backend openai-chat on a spec that says completions —
// the chat endpoint costs the API server the template's parse, so TTFT
// rises. P/D: Anyscale's conc8 with backend vllm (/v1/completions) on the
// example, whose spec leaves the chat default.
func TestEndpointFromResult(t *testing.T) {
	rs, err := bench.ReadFile("../bench/testdata/vllm-0.20-closed-loop.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "qwen3-8b.yaml")
	y := `apiVersion: vlaunch/v1
kind: Deployment
metadata: {name: qwen3-8b}
model: {name: qwen3-8b, path: /models/qwen3-8b, served_name: Qwen/Qwen3-8B}
hardware:
  gpu: h100-sxm
  nodes:
    - {name: node0, address: 10.0.0.1, gpus: 1}
parallelism: {tensor: 1}
workload: {concurrency: 1, input_tokens: 72, output_tokens: 16, api: completions}
vllm: {version: "0.11.0"}
runtime: {kind: bare}
`
	if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	d, ds, err := validate.File(path)
	if err != nil || ds.HasErrors() {
		t.Fatalf("%v %v", err, ds)
	}
	ttft := func(r bench.Result) (float64, string) {
		t.Helper()
		rep, err := Compare(d, []bench.Result{r}, Options{Metrics: []Metric{TTFT}})
		if err != nil || rep.Results[0].NotUsed != "" {
			t.Fatalf("%v %s", err, rep.Results[0].NotUsed)
		}
		return rep.Targets[0].Before, rep.Results[0].Endpoint
	}
	chat, said := ttft(rs[0])
	if want := `endpoint /v1/chat/completions (the result's backend "openai-chat"), not the spec's /v1/completions`; said != want {
		t.Errorf("colocated: the report says %q, want %q", said, want)
	}
	none := rs[0]
	none.Backend = ""
	spec_, said := ttft(none)
	if said != "" || !(chat > spec_) {
		t.Errorf("colocated: TTFT %.4g ms with the result's chat endpoint, %.4g with the spec's completions (%q): the endpoint did not reach the replay", chat, spec_, said)
	}

	pdD := pdExample(t)
	c8 := anyscaleC8("conc8.json", bench.Load{Kind: bench.LoadClosedLoop, Concurrency: 8, Prompts: 40})
	c8.Format, c8.Backend = bench.FormatVLLM, "vllm"
	c, err := setup(pdD, []bench.Result{c8}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	q := c.replays[0].pd
	if q.pre.Workload.API != spec.APICompletions || q.dec.Workload.API != spec.APICompletions {
		t.Errorf("P/D: pools replayed with %q / %q, want completions", q.pre.Workload.API, q.dec.Workload.API)
	}
	if got := c.rep.Results[0].Endpoint; got != `endpoint /v1/completions (the result's backend "vllm"), not the spec's /v1/chat/completions` {
		t.Errorf("P/D: the report says %q", got)
	}
	var text bytes.Buffer
	c.rep.WriteText(&text)
	if !strings.Contains(text.String(), `; endpoint /v1/completions (the result's backend "vllm")`) {
		t.Errorf("the results line does not name the endpoint:\n%s", text.String())
	}
}
