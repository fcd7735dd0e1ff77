package calibrate

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestResultNotesPrinted: how a result was read where its file left
// something out (bench.Result.Notes, e.g. a `vllm bench serve` summary
// pasted without its closing line of '=') reaches the text, Markdown and
// JSON reports; before, the notes were computed and printed nowhere
// (verify39).
func TestResultNotesPrinted(t *testing.T) {
	note := "the printed block has no closing line of '=' (pasted without it)"
	r := &Report{Deployment: "d", Start: "s", Results: []ResultReport{{Name: "c16.txt", Load: "closed loop of 16 sessions", Shape: "1998 in / 2000 out tokens", Notes: []string{note}}}}
	var txt, md bytes.Buffer
	r.WriteText(&txt)
	r.WriteMarkdown(&md)
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for name, out := range map[string]string{"text": txt.String(), "markdown": md.String()} {
		if !strings.Contains(flat(out), "note: "+note) {
			t.Errorf("%s lacks the note:\n%s", name, out)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(js), `"notes":["the printed block`) {
		t.Errorf("json lacks the note: %s", js)
	}
}
