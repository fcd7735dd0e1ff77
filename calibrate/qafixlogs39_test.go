package calibrate

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/bench"
)

// TestFailedRequestsReported (QA 39 #4): a real `vllm bench serve` result
// in which 1 of 200 requests failed says so in calibrate's report (text
// and markdown, the JSON's results[].failed); a run with none says nothing.
func TestFailedRequestsReported(t *testing.T) {
	rs, err := bench.ReadFile(filepath.Join("..", "bench", "testdata", "vllm-serve-openai-1qps-failed1.json"))
	if err != nil || len(rs) != 1 {
		t.Fatal(err, len(rs))
	}
	const want = "1 of 200 requests failed: the client's figures count only the 199 that completed"
	if got := failedText(&rs[0]); got != want {
		t.Fatalf("failedText %q, want %q", got, want)
	}
	ok := rs[0]
	ok.Failed = 0
	if got := failedText(&ok); got != "" {
		t.Errorf("no failure: %q", got)
	}
	rep := &Report{Deployment: "d", Results: []ResultReport{{Name: "r.json", Load: "poisson", Shape: "s", Failed: want}}}
	var text, mdown bytes.Buffer
	rep.WriteText(&text)
	rep.WriteMarkdown(&mdown)
	for name, out := range map[string]string{"text": text.String(), "markdown": mdown.String()} {
		if !strings.Contains(out, want) {
			t.Errorf("%s report does not mention the failed request:\n%s", name, out)
		}
	}
}
