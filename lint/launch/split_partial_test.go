package launch

import (
	"strings"
	"testing"
)

// TestSplitPartlyUnresolved: an unquoted expansion whose value is partly
// unresolved (a placeholder, a $(...) of the caller) is still split on its
// resolved blanks, as the shell does; the unresolved part stays one field
// (it may split further at run time, which the linter cannot know). Before,
// the whole value stayed one word and every flag in it was lost.
func TestSplitPartlyUnresolved(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         []string // the server's arguments, "?" marking unknown ones
	}{
		{"placeholder in an args string",
			"ARGS=\"--model {MODEL_PATH}\n--data-parallel-size-local 4 --data-parallel-hybrid-lb\"\nvllm serve m $ARGS\n",
			[]string{"m", "--model", "?{MODEL_PATH}", "--data-parallel-size-local", "4", "--data-parallel-hybrid-lb"}},
		{"command substitution with blanks stays one field",
			"ARGS=\"--host $(hostname -I | awk '{print $1}') --port 8000\"\nvllm serve m $ARGS\n",
			[]string{"m", "--host", "?$(hostname -I | awk '{print $1}')", "--port", "8000"}},
		{"caller variable glued to text",
			"ARGS=\"--data-parallel-address ${HEAD}x --port 8000\"\nvllm serve m $ARGS\n",
			[]string{"m", "--data-parallel-address", "?$HEADx", "--port", "8000"}},
		{"quoted expansion is not split",
			"ARGS=\"--model {MODEL_PATH} --port 8000\"\nvllm serve m \"$ARGS\"\n",
			[]string{"m", "?--model {MODEL_PATH} --port 8000"}},
		{"an arm the linter cannot decide extends the string",
			"A=\"--port 8000 --max-model-len 4096\"\nif [ \"$ROLE\" = w ]; then\n  A+=\" --headless\"\nfi\nvllm serve m $A --seed 1\n",
			[]string{"m", "--port", "8000", "--max-model-len", "4096", "?$A", "--seed", "1"}},
		{"shared unresolved words are kept",
			"IP=$(hostname -I)\nA=\"--x 1 --data-parallel-address $IP --y 2\"\nif [ \"$R\" -gt 0 ]; then A+=\" --data-parallel-start-rank $R\"; fi\nvllm serve m $A\n",
			[]string{"m", "--x", "1", "--data-parallel-address", "?$(hostname -I)", "--y", "2", "?$A"}},
		{"arms differing inside a word share the words before it",
			"A=\"--x 1 --port 80\"\nif [ \"$R\" = b ]; then A=\"--x 1 --port 81\"; fi\nvllm serve m $A\n",
			[]string{"m", "--x", "1", "--port", "?$A"}},
		{"nothing shared: unresolved as before",
			"if [ \"$R\" = b ]; then A=\"--a\"; else A=\"--b\"; fi\nvllm serve m $A\n",
			[]string{"m", "?$A"}},
		{"literal quotes survive the expansion",
			"ARGS=\"--kv-transfer-config '{\\\"kv_role\\\":\\\"kv_both\\\"}' --model {M}\"\nvllm serve m $ARGS\n",
			[]string{"m", "--kv-transfer-config", `'{"kv_role":"kv_both"}'`, "--model", "?{M}"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			invs, _, _ := ParseShell("t.sh", []byte(tc.script))
			if len(invs) != 1 {
				t.Fatalf("%d invocations", len(invs))
			}
			var got []string
			for _, a := range invs[0].Args {
				s := a.Text
				if !a.Known {
					s = "?" + s
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("args\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
