package launch

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// envNames lists the names of an invocation's environment, sorted.
func envNames(inv *Invocation) string {
	var names []string
	for _, e := range inv.Env {
		names = append(names, e.Name)
	}
	sort.Strings(names)
	return strings.Join(names, ",")
}

// TestMarkdownSessions: which variables a Markdown block's command sees
// (mdSessions). QA41: an export in one section of a recipe was read into
// another section's engine.
func TestMarkdownSessions(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string // envNames of each invocation, in order
	}{
		{"one section is one shell",
			"# Run\n```bash\nexport A=1\n```\nthen\n```bash\nvllm serve m\n```\n",
			[]string{"A"}},
		{"a later subsection is another machine",
			"# Doc\nper process:\n```bash\nexport A=1\n```\n## Elsewhere\n```bash\nvllm serve m\n```\n",
			[]string{""}},
		{"a sibling alternative does not see the other's exports",
			"## NVIDIA\n```bash\nexport A=1\nvllm serve m\n```\n## AMD\n```bash\nvllm serve m\n```\n",
			[]string{"A", ""}},
		{"an environment section is a step for its later siblings",
			"## P/D\n### Environment\n```bash\nexport A=1\n```\n```sh\nexport B=2\n```\n### Prefill\n```bash\nvllm serve m\n```\n### Decode\n#### Run\n```bash\nexport C=3\nvllm serve m\n```\n## Other setup\n```bash\nvllm serve m\n```\n",
			[]string{"A,B", "A,B,C", ""}},
		{"a section that also runs something carries nothing",
			"### Env\n```bash\nexport A=1\necho ready\n```\n### Run\n```bash\nvllm serve m\n```\n",
			[]string{""}},
		{"the latest environment section wins and includes the earlier",
			"### Env 1\n```bash\nexport A=1\n```\n### Env 2\n```bash\nexport B=2\n```\n### Run\n```bash\nvllm serve m\n```\n",
			[]string{"A,B"}},
		{"a helpers section's functions and variables carry to later sections",
			"## Helpers\n```bash\nexport A=1\nserve() {\n  B=2 vllm serve m --tensor-parallel-size $1\n}\n```\n## One node\n```bash\nserve 8\n```\n## Two nodes\n```bash\nserve 16\n```\n",
			[]string{"A,B", "A,B"}},
		{"a function of an alternative section is not another's",
			"## NVIDIA\n```bash\nserve() { A=1 vllm serve m; }\nserve\n```\n## AMD\n```bash\nserve\n```\n",
			[]string{"A"}},
		{"a setext heading starts a section",
			"Setup\n=====\n```bash\nexport A=1\necho go\n```\nOther machine\n-------------\n```bash\nvllm serve m\n```\n",
			[]string{""}},
		{"headings inside code blocks are not headings",
			"# Run\n```bash\nexport A=1\n# comment\n```\n```bash\nvllm serve m\n```\n",
			[]string{"A"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			invs, _, _ := ParseMarkdown("r.md", []byte(tt.doc))
			var got []string
			for _, inv := range invs {
				got = append(got, envNames(inv))
			}
			if diff := diffStrings(tt.want, got); diff != "" {
				t.Errorf("environments (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOutline: sections, their nesting and which section a line is in.
func TestOutline(t *testing.T) {
	doc := strings.Join([]string{
		"intro",          // 1: before any heading
		"# A",            // 2: section 0
		"## A.1",         // 3: section 1
		"```bash",        // 4
		"## not heading", // 5: code
		"```",            // 6
		"### A.1.a",      // 7: section 2
		"#nospace",       // 8: not a heading
		"    # indented", // 9: code (indented block)
		"## A.2",         // 10: section 3
		"x",              // 11
	}, "\n")
	o := Outline([]byte(doc))
	if len(o.secs) != 4 {
		t.Fatalf("sections %+v, want 4", o.secs)
	}
	for line, want := range map[int]int{1: -1, 2: -1, 3: 0, 5: 1, 8: 2, 11: 3} {
		if got := o.SectionAt(line); got != want {
			t.Errorf("SectionAt(%d) = %d, want %d", line, got, want)
		}
	}
	if !o.Within(2, 0) || o.Within(3, 1) || !o.Within(0, -1) {
		t.Errorf("Within: nesting wrong: %+v", o.secs)
	}
	if c := o.Common(2, 3); c != 0 {
		t.Errorf("Common(A.1.a, A.2) = %d, want 0 (A)", c)
	}
	if o.HeadingLine(3) != 10 || o.HeadingLine(-1) != 0 {
		t.Errorf("HeadingLine: %d %d", o.HeadingLine(3), o.HeadingLine(-1))
	}
}

// TestOutlineSetext: setext headings (=== level 1, --- level 2) are
// sections from their text's first line; a --- that is a thematic break,
// ends a list item or closes front matter is none.
func TestOutlineSetext(t *testing.T) {
	doc := strings.Join([]string{
		"---",              // 1: front matter
		"title: Recipe",    // 2
		"---",              // 3: closes it, no heading
		"Serving DeepSeek", // 4: section 0 (level 1)
		"================", // 5
		"",                 // 6
		"text",             // 7
		"",                 // 8
		"---",              // 9: thematic break (after a blank line)
		"- a list item",    // 10
		"---",              // 11: not an underline of a list item
		"Multi-node",       // 12: section 1 (level 2), two lines of text
		"with Ray",         // 13
		"----------",       // 14
		"    indented",     // 15: code
		"    ---",          // 16: code
		"## ATX",           // 17: section 2 (level 2)
		"A",                // 18: section 3 (level 1)
		"=",                // 19
	}, "\n")
	o := Outline([]byte(doc))
	var got []string
	for _, s := range o.secs {
		got = append(got, fmt.Sprintf("%d/%d/%d", s.line, s.level, s.parent))
	}
	want := []string{"4/1/-1", "12/2/0", "17/2/0", "18/1/-1"}
	if diff := diffStrings(want, got); diff != "" {
		t.Errorf("sections line/level/parent (-want +got):\n%s", diff)
	}
}

// TestMarkdownFunctionPositions: a command in a function defined in one
// block and called from another is reported at its place in the
// definition (it was reported at the caller's block, at an offset of the
// definition's block).
func TestMarkdownFunctionPositions(t *testing.T) {
	doc := "## Helpers\n```bash\nserve() {\n  vllm serve m --port 8000\n}\n```\n## Run\n```bash\nserve\n```\n"
	invs, _, _ := ParseMarkdown("r.md", []byte(doc))
	if len(invs) != 1 {
		t.Fatalf("invocations %d, want 1", len(invs))
	}
	if p := invs[0].Pos; p.Line != 4 || p.Col != 3 {
		t.Errorf("vllm serve at %d:%d, want 4:3 (inside the function)", p.Line, p.Col)
	}
}

// TestOutlineContentTabs: MkDocs content tabs (=== "Title") are sibling
// sections below the heading above them; the next heading ends them; a
// tab indented four spaces (nested in a tab, or in a list item) is a
// section one level deeper (lint43; it was read as code before), and a
// setext === underline is no tab.
func TestOutlineContentTabs(t *testing.T) {
	doc := strings.Join([]string{
		"## Deploy",        // 1: section 0
		"",                 // 2
		`=== "A3 series"`,  // 3: section 1 (tab)
		"",                 // 4
		`    === "nested"`, // 5: section 2, inside tab 1
		`=== "A2 series"`,  // 6: section 3 (tab)
		"## Verify",        // 7: section 4
		"Title",            // 8: section 5 (setext)
		"===",              // 9
	}, "\n")
	o := Outline([]byte(doc))
	var got []string
	for _, s := range o.secs {
		got = append(got, fmt.Sprintf("%d/%d/%d", s.line, s.level, s.parent))
	}
	want := []string{"1/2/-1", "3/7/0", "5/8/1", "6/7/0", "7/2/-1", "8/1/-1"}
	if diff := diffStrings(want, got); diff != "" {
		t.Errorf("sections line/level/parent (-want +got):\n%s", diff)
	}
}

// TestOutlineCaptions: a paragraph of one emphasised span is a caption
// (CaptionAt, up to the next heading); a sentence with two bold words, a
// caption-looking line that goes on into a paragraph, or one in a code
// block is not.
func TestOutlineCaptions(t *testing.T) {
	doc := strings.Join([]string{
		"## Deploy",               // 1
		"<u>High throughput:</u>", // 2: caption
		"```bash",                 // 3
		"**not a caption**",       // 4: code
		"```",                     // 5
		"**a** and **b**",         // 6: sentence
		"",                        // 7
		"**Prefill node:**",       // 8: caption
		"",                        // 9
		"__Goes on__",             // 10: paragraph goes on
		"into this line",          // 11
		"",                        // 12
		"<strong>Decode</strong>", // 13: caption, a heading next
		"## Verify",               // 14
		"text",                    // 15
	}, "\n")
	o := Outline([]byte(doc))
	for line, want := range map[int]int{3: 2, 4: 2, 7: 2, 9: 8, 11: 8, 12: 8, 15: 0} {
		if got := o.CaptionAt(line); got != want {
			t.Errorf("CaptionAt(%d) = %d, want %d", line, got, want)
		}
	}
	if fmt.Sprint(o.caps) != "[2 8 13]" {
		t.Errorf("captions %v, want [2 8 13]", o.caps)
	}
}

// TestListCaptions: a list item titling the code block right below it is
// a caption, also indented four spaces under another item; a sentence, an
// item with prose below it, or an item inside a fenced block is not.
func TestListCaptions(t *testing.T) {
	doc := strings.Join([]string{
		"3. Start the server on each node.", // 1: a sentence
		"",                                  // 2
		"    1. Prefill node",               // 3: caption
		"",                                  // 4
		"        ```shell",                  // 5
		"        - not an item",             // 6: in a fence
		"        ```",                       // 7
		"    2. Decode node",                // 8: caption (no blank line)
		"        ```shell",                  // 9
		"        ```",                       // 10
		"- Proxy",                           // 11: prose follows
		"  starts last",                     // 12
		"```bash",                           // 13
		"```",                               // 14
	}, "\n")
	o := Outline([]byte(doc))
	if fmt.Sprint(o.caps) != "[3 8]" {
		t.Errorf("captions %v, want [3 8]", o.caps)
	}
}

// TestFollowerSection: "Node 1" is a later node where the document counts
// nodes from 0, the first node where it counts from 1.
func TestFollowerSection(t *testing.T) {
	zero := Outline([]byte("## Deploy\n=== \"Node 0(Decode)\"\ntext\n=== \"Node 1(Decode)\"\ntext\n"))
	if zero.FollowerSection(3) || !zero.FollowerSection(5) {
		t.Errorf("0-based: FollowerSection(3)=%v (Node 0), (5)=%v (Node 1); want false, true", zero.FollowerSection(3), zero.FollowerSection(5))
	}
	one := Outline([]byte("## Deploy\n=== \"Decoder node 1\"\ntext\n=== \"Decoder node 2\"\ntext\n"))
	if one.FollowerSection(3) || one.FollowerSection(5) {
		t.Errorf("1-based: want no section read as a later node, got %v, %v", one.FollowerSection(3), one.FollowerSection(5))
	}
}
