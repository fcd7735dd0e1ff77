package launch

import (
	"strings"
	"testing"
)

// TestReadBuiltin: `read -r -d ” NAME <<EOF` keeps a launch command or an
// argument string in a variable run later; without -d ” read takes the
// first line, without -r it joins backslash-continued lines; a here-string
// works the same. Before, read was ignored and the launch was never found.
func TestReadBuiltin(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		want         string // the first server's arguments, space-joined; "" for none
	}{
		{"whole document run by bash -c",
			"A=(--port 8000 --max-model-len 4096)\nread -r -d '' CMD << END\nvllm serve m ${A[@]}\nEND\nscreen -dm bash -c \"${CMD}\"\n",
			"m --port 8000 --max-model-len 4096"},
		{"argument string expanded unquoted",
			"read -r -d '' ARGS <<'EOF'\n--tensor-parallel-size 8\n--max-model-len 32768\nEOF\nvllm serve m $ARGS\n",
			"m --tensor-parallel-size 8 --max-model-len 32768"},
		{"first line only without -d ''",
			"read -r ARGS <<'EOF'\n--tensor-parallel-size 8\n--max-model-len 32768\nEOF\nvllm serve m $ARGS\n",
			"m --tensor-parallel-size 8"},
		{"without -r a backslash-newline joins lines",
			"read ARGS <<'EOF'\n--tensor-parallel-size 8 \\\n--max-model-len 32768\nEOF\nvllm serve m $ARGS\n",
			"m --tensor-parallel-size 8 --max-model-len 32768"},
		{"here-string",
			"read -r ARGS <<< \"--tensor-parallel-size 2\"\nvllm serve m $ARGS\n",
			"m --tensor-parallel-size 2"},
		{"two names: unresolved",
			"read -r A B <<< \"--port 8000\"\nvllm serve m $A\n",
			"m $A"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			invs, _, _ := ParseShell("t.sh", []byte(tc.script))
			got := ""
			if len(invs) > 0 {
				var a []string
				for _, v := range invs[0].Args {
					a = append(a, v.Text)
				}
				got = strings.Join(a, " ")
			}
			if got != tc.want {
				t.Errorf("args %q, want %q", got, tc.want)
			}
		})
	}
}
