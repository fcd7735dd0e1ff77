package launch

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestScalarPositions: every byte of a scalar's value maps to the line and
// column it was read from, whatever folding YAML applied. The word "FLAG"
// in each value must be found where it is written ("FLAG" marks the spot
// in the source: the test finds its line and column by searching).
func TestScalarPositions(t *testing.T) {
	cases := map[string]string{
		"plain one line":  "k: a FLAG b\n",
		"double one line": "k: \"a FLAG b\"\n",
		"single quote":    "k: 'it''s a FLAG'\n",
		"double folded": "k: \"sh -c; python3 -m x --port 9050\n" +
			"    --model /m FLAG 2\"\n",
		"double folded, trailing blanks": "k: \"a   \n    b   \n\n    FLAG\"\n",
		"double escaped break":           "k: \"abc\\\n    def FLAG\"\n",
		"double escapes":                 "k: \"\\t\\u00e9\\x41\\\"q\\\" FLAG\"\n",
		"plain folded":                   "k: a b\n  c d\n  FLAG\n",
		"single folded":                  "k: 'a\n  b ''c''\n  FLAG'\n",
		"in a flow list":                 "k: [\"a\n    b\", \"c FLAG\"]\n",
		"literal block":                  "k: |\n  line one\n    FLAG two\n",
		"folded block":                   "k: >\n  word word\n  more FLAG\n",
		"folded block, blank line":       "k: >\n  a\n\n  b FLAG\n",
		"literal after blank line":       "k: |\n\n  x\n  FLAG\n",
		"tagged":                         "k: !!str \"a\n  FLAG\"\n",
		"crlf":                           "k: \"a\r\n  FLAG\"\r\n",
		"non-ASCII before":               "é: \"é\n  FLAG\"\n",
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			n := firstScalarWith(t, doc, "FLAG")
			src := newFileSource("t.yaml", []byte(doc), true)
			v := scalarValue(src, n)
			i := strings.Index(v.Text, "FLAG")
			if got, want := v.PosAt(i), sourcePos(doc, "FLAG"); got != want {
				t.Errorf("FLAG at %v, want %v (value %q)", got, want, v.Text)
			}
		})
	}
}

// TestScalarPositionsFallback: a value the source does not read as (here a
// node edited after parsing) falls back to coarse positions, never to
// columns past the end of the line.
func TestScalarPositionsFallback(t *testing.T) {
	doc := "k: \"a\n  b\"\n"
	n := firstScalarWith(t, doc, "a b")
	n.Value = "a b c d e f g h"
	v := scalarValue(newFileSource("t.yaml", []byte(doc), true), n)
	for i := range v.Text {
		if p := v.PosAt(i); p != (Pos{Line: 1, Col: 4}) {
			t.Fatalf("byte %d at %v, want the scalar's start 1:4", i, p)
		}
	}
}

// TestLWSFoldedCommand is vLLM's LWS doc manifest shape: a long `sh -c`
// command in a double-quoted scalar folded over two lines. The flag on the
// second line is reported there, not at column 216 of the first.
func TestLWSFoldedCommand(t *testing.T) {
	doc := `kind: Pod
spec:
  containers:
    - name: vllm-leader
      image: vllm/vllm-openai:latest
      command:
        - sh
        - -c
        - "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh leader --ray_cluster_size=2;
          python3 -m vllm.entrypoints.openai.api_server --port 9050 --model /m --tensor-parallel-size 8 --pipeline_parallel_size 2"
`
	invs, _, ds := ParseManifest("lws.yaml", []byte(doc))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	for _, inv := range invs {
		if inv.Kind != KindServe {
			continue
		}
		for _, a := range inv.Args {
			if a.Text == "--tensor-parallel-size" {
				if want := sourcePos(doc, "--tensor-parallel-size"); a.Pos != want {
					t.Errorf("--tensor-parallel-size at %v, want %v", a.Pos, want)
				}
				return
			}
		}
	}
	t.Fatalf("no server with --tensor-parallel-size: %v", argv(invs))
}

// firstScalarWith finds the first scalar node whose value contains s.
func firstScalarWith(t *testing.T, doc, s string) *yaml.Node {
	t.Helper()
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(doc), &root); err != nil {
		t.Fatal(err)
	}
	var found *yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if found != nil {
			return
		}
		if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, s) {
			found = n
			return
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&root)
	if found == nil {
		t.Fatalf("no scalar with %q in %q", s, doc)
	}
	return found
}

// sourcePos is the byte-based line and column of the first s in doc.
func sourcePos(doc, s string) Pos {
	i := strings.Index(doc, s)
	line := strings.Count(doc[:i], "\n") + 1
	return Pos{Line: line, Col: i - strings.LastIndex(doc[:i], "\n")}
}
