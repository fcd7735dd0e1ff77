package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/estimate/slo"
)

// TestMarkdownCarriesTheVerdictLines: the markdown SLO table carries what
// the text report prints under each verdict, in its words: the band after
// the prediction, the band's basis and every "what it would take" (qa38:
// the markdown had no band and reworded the advice, so an "uncertain"
// verdict read as an unexplained fail).
func TestMarkdownCarriesTheVerdictLines(t *testing.T) {
	takes, bands := 0, 0
	for _, name := range []string{"deepseek-v3-32xh20", "qwen3-30b-a3b-1xh100"} {
		r := checkExample(t, name+".yaml")
		var md bytes.Buffer
		WriteMarkdown(&md, r)
		for _, v := range r.SLO {
			row := ""
			for _, l := range strings.Split(md.String(), "\n") {
				if strings.HasPrefix(l, "| "+v.Name+" | ") {
					row = l
				}
			}
			if row == "" {
				t.Fatalf("%s: no markdown row for %q", name, v.Name)
			}
			_, pred := sloPredicted(v)
			want := []string{" | " + pred + " | "}
			if b := bandLine(v); b != "" {
				want = append(want, "<br>"+mdEscape(b))
				bands++
			}
			for _, x := range v.WouldPass {
				want = append(want, "<br>"+mdEscape(wouldTake(x)))
				takes++
			}
			for _, w := range want {
				if !strings.Contains(row, w) {
					t.Errorf("%s: markdown row of %q lacks %q", name, v.Name, w)
				}
			}
		}
	}
	if takes == 0 || bands == 0 {
		t.Fatalf("the fixtures print %d would-take lines and %d bands: the test checks nothing", takes, bands)
	}
}

// TestInfeasibleNamesWhatFails: "feasible: no" says which verdicts make
// it so — failing SLOs and error findings — and an uncertain verdict is
// not one of them (qa38: "feasible: no" for a P/D deployment whose memory
// fits, with no word of what failed).
func TestInfeasibleNamesWhatFails(t *testing.T) {
	r := &estimate.Report{SLO: []slo.Verdict{{Name: "throughput (output tokens/s)", Verdict: slo.VerdictFail},
		{Name: "TPOT (mean)", Verdict: slo.VerdictUncertain}, {Name: "TTFT p50 at 4000 input tokens", Verdict: slo.VerdictPass}}}
	if got, want := feasibleText(r), "no — SLO throughput (output tokens/s) fails"; got != want {
		t.Errorf("one failing SLO: %q, want %q", got, want)
	}
	r.SLO[1].Verdict = slo.VerdictFail
	r.Findings = diag.Diagnostics{{Severity: diag.Warning, Code: "EST104"}, {Severity: diag.Error, Code: "EST102"}, {Severity: diag.Error, Code: "EST102"}}
	if got, want := feasibleText(r), "no — SLOs throughput (output tokens/s), TPOT (mean) fail; error EST102"; got != want {
		t.Errorf("two failing SLOs and an error: %q, want %q", got, want)
	}
	r.Feasible = true
	if got := feasibleText(r); got != "yes" {
		t.Errorf("feasible: %q", got)
	}

	// Every renderer and the bundle summary say it, on the reference: its
	// sessions do not fit at once (EST103, a warning: vLLM queues them, so
	// it is no reason of the verdict) and its SLOs fail.
	ref := checkExample(t, "deepseek-v3-32xh20.yaml")
	why := InfeasibleWhy(ref)
	if strings.Contains(why, "EST103") || !strings.Contains(why, "throughput (output tokens/s)") {
		t.Fatalf("reference: %q", why)
	}
	var text, md, html bytes.Buffer
	WriteText(&text, ref)
	WriteMarkdown(&md, ref)
	if err := WriteHTML(&html, ref); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][2]string{
		"text":     {text.String(), "\nfeasible: no — " + why + "\n"},
		"markdown": {md.String(), "**Feasible: no — " + why + "**"},
		"html":     {html.String(), "feasible: <strong>no</strong> — " + why + "</p>"},
		"summary":  {SummaryMarkdown(ref), "**not feasible** as specified (" + why + ")"},
	} {
		if !strings.Contains(want[0], want[1]) {
			t.Errorf("%s lacks %q", name, want[1])
		}
	}
}

// TestPDHeaderPerPool: the P/D report's settings line gives each pool's
// engine limits where the pools differ, not the decode pool's as the
// deployment's (qa38: "max_num_seqs 256 · max_num_batched_tokens 256"
// with prefill at 1024 and 8192).
func TestPDHeaderPerPool(t *testing.T) {
	r := checkPDExample(t)
	pre, dec := r.Disaggregated.Prefill, r.Disaggregated.Decode
	if pre.MaxNumBatchedTokens == dec.MaxNumBatchedTokens {
		t.Fatalf("the fixture's pools share max_num_batched_tokens %d: the test checks nothing", pre.MaxNumBatchedTokens)
	}
	want := fmt.Sprintf("max_num_batched_tokens %d (prefill) / %d (decode)", pre.MaxNumBatchedTokens, dec.MaxNumBatchedTokens)
	seqs := fmt.Sprintf("max_num_seqs %d", pre.MaxNumSeqs)
	if pre.MaxNumSeqs != dec.MaxNumSeqs {
		seqs = fmt.Sprintf("max_num_seqs %d (prefill) / %d (decode)", pre.MaxNumSeqs, dec.MaxNumSeqs)
	}
	var text, md, html bytes.Buffer
	WriteText(&text, r)
	WriteMarkdown(&md, r)
	if err := WriteHTML(&html, r); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"text": text.String(), "markdown": md.String(), "html": html.String()} {
		for _, w := range []string{want, seqs} {
			if !strings.Contains(out, w) {
				t.Errorf("%s header lacks %q", name, w)
			}
		}
		if bad := fmt.Sprintf("max_num_batched_tokens %d ·", dec.MaxNumBatchedTokens); strings.Contains(out, bad) {
			t.Errorf("%s gives the decode pool's %q as the deployment's", name, bad)
		}
	}
}
