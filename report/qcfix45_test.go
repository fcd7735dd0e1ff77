package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestNumberFormatsQA45c (qa45c F11, F14): one style per kind of number in
// one report — token rates grouped by thousands, idle-prefill TTFTs in
// the unit the SLO lines use, sub-µs constants at three significant
// digits — and every idle-prefill term with its binding, the host's parts
// written so the arithmetic reads right.
func TestNumberFormatsQA45c(t *testing.T) {
	r := checkExample(t, "deepseek-v3-fp8-2x8h200.yaml")
	var text, md bytes.Buffer
	WriteText(&text, r)
	WriteMarkdown(&md, r)
	txt := text.String()
	for _, bad := range []*regexp.Regexp{
		// an ungrouped rate in the decode, curve and alternatives lines
		// (the SLO explanations are estimate/slo's words, not these)
		regexp.MustCompile(`(→|·|\() +\d{5,} output tokens/s`),
		regexp.MustCompile(`tokens: TTFT \d{4,} ms`),                 // 15197 ms where the SLO line says 15.2 s
		regexp.MustCompile(`kernel launches [^−=]* − [^ ]+ of them`), // "launches 0 s − 9.67 ms of them"
	} {
		if m := bad.FindString(txt); m != "" {
			t.Errorf("text report has %q", m)
		}
	}
	prefill := regexp.MustCompile(`GPU kernels \S+ \S+ \[[^]]+, most of it (dense|experts|attention)\] · kernel gaps \S+ \S+ \[launch \(kernel gaps\)\] · exposed communication \S+ \S+ \[network \((NICs|NVLink)\)\] · host \S+ \S+ \[host\] \(between steps \S+ \S+ \+ kernel launches \S+ \S+(, none of it| = \S+ \S+, less \S+ \S+ of it) behind the GPU's kernels\)`)
	if !prefill.MatchString(txt) {
		t.Errorf("no idle-prefill line with every term's binding and the host's parts:\n%s", grepLines(txt, "GPU kernels"))
	}
	if m := regexp.MustCompile(`collective \d+ µs,|kernel gap \d\.\d µs`).FindString(md.String()); m != "" {
		t.Errorf("markdown constants rounded: %q", m)
	}
	if !strings.Contains(md.String(), "collective 1.64 µs") {
		t.Errorf("markdown constants lack the collective at three digits:\n%s", grepLines(md.String(), "collective"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
