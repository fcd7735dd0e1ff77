package launch

import (
	"strconv"
	"strings"
	"testing"
)

// TestFences: which blocks a Markdown document has, their languages and
// where their lines are.
func TestFences(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string // lang:first line number:text of the first line
	}{
		{"plain", "a\n```bash\nvllm serve m\n```\n", []string{"bash:3:vllm serve m"}},
		{"tilde and longer close", "~~~sh\nx\n~~~~\n", []string{"sh:2:x"}},
		{"indented in a list", "1. a\n\n   ```yaml\n   k: v\n     n: 1\n   ```\n", []string{"yaml:4:k: v"}},
		{"attributes and title", "```{.bash .copy}\nx\n```\n```bash title=\"run.sh\"\ny\n```\n", []string{"bash:2:x", "bash:5:y"}},
		{"inline code is no fence", "use ```vllm serve``` here\n", nil},
		{"shorter close does not close", "````sh\n```\nx\n````\n", []string{"sh:2:```"}},
		{"unclosed runs to the end", "```sh\nx\ny", []string{"sh:2:x"}},
		{"crlf", "```sh\r\nx\r\n```\r\n", []string{"sh:2:x"}},
		{"untagged", "```\nx\n```\n", []string{":2:x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range fences([]byte(tt.doc)) {
				if len(f.lines) > 0 {
					got = append(got, f.lang+":"+strconv.Itoa(f.lines[0].no)+":"+f.lines[0].text)
				}
			}
			if diff := diffStrings(tt.want, got); diff != "" {
				t.Errorf("fences (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMarkdownPositions: a flag in a console block inside a list item is
// reported at its column in the document, past the prompt and indentation.
func TestMarkdownPositions(t *testing.T) {
	doc := "# t\n\n- x\n\n  ```console\n  $ vllm serve m \\\n      --tp 8\n  output --no\n  ```\n"
	invs, _, ds := ParseMarkdown("d.md", []byte(doc))
	if len(ds) > 0 || len(invs) != 1 {
		t.Fatalf("invocations %d, diagnostics %v", len(invs), ds)
	}
	if got := argv(invs); len(got) != 1 || got[0] != "m --tp 8" {
		t.Fatalf("argv %q", got)
	}
	a := invs[0].Args[1]
	if a.Pos != (Pos{Line: 7, Col: 7}) {
		t.Errorf("--tp at %v, want 7:7", a.Pos)
	}
	if m := invs[0].Args[0].Pos; m != (Pos{Line: 6, Col: 16}) {
		t.Errorf("model at %v, want 6:16", m)
	}
}

// TestMarkdownCodeLines: fenced and indented code blocks are code; prose,
// a table row and the fence lines are not (QA session 37: a README's table
// row about `# vlaunch:vllm-version=X` was read as a directive).
func TestMarkdownCodeLines(t *testing.T) {
	doc := strings.Join([]string{
		"# Title", // 1
		"| flag | `# vlaunch:vllm-version=X` comment |", // 2 table row: prose
		"",                                    // 3
		"```bash",                             // 4 fence line
		"# vlaunch:vllm-version=0.11.0",       // 5 code
		"```",                                 // 6 fence line
		"text",                                // 7
		"    not code: a paragraph continues", // 8 lazy continuation, no blank before
		"",                                    // 9
		"    # vlaunch:vllm-version=0.10.1",   // 10 indented block
		"",                                    // 11 blank inside it
		"\tvllm serve m",                      // 12 still the block (tab)
		"after",                               // 13
		"1. step",                             // 14
		"   ~~~~sh",                           // 15 fence in a list item
		"   vllm serve m",                     // 16 code
		"   ~~~~",                             // 17
	}, "\n")
	got := MarkdownCodeLines([]byte(doc))
	want := map[int]bool{5: true, 10: true, 12: true, 16: true}
	for n := 1; n <= 17; n++ {
		if got[n] != want[n] {
			t.Errorf("line %d: code %v, want %v", n, got[n], want[n])
		}
	}
}
