package launch

import "testing"

// runArgs parses script as run.sh runs it with args (ParseRunBy) and
// returns the argv of its servers.
func runArgs(t *testing.T, script string, args ...string) []string {
	t.Helper()
	run := &Invocation{Kind: KindScriptRun, File: "run.sh", Args: []Value{knownValue("./s.sh", Pos{Line: 1, Col: 1})}}
	for i, a := range args {
		run.Args = append(run.Args, knownValue(a, Pos{Line: 1, Col: 10 + i}))
	}
	return argv(ParseRunBy("s.sh", []byte(script), run, ""))
}

// TestRunByArguments: a script another input runs sees the runner's
// arguments as $1..$@ (QA41 D5), shift drops them, and an option loop
// that shifts (walked once, run once per argument) leaves them unknown, as
// for a script linted alone, and `set --` replaces them (qa45a F3).
func TestRunByArguments(t *testing.T) {
	tests := []struct {
		name, script string
		args         []string
		want         string
	}{
		{"$1 and $@", "N=$1\nvllm serve m -pp $N \"$@\"\n", []string{"4", "--enforce-eager"}, "m -pp 4 4 --enforce-eager"},
		{"no arguments keep $1 unknown", "vllm serve m -pp $1\n", nil, "m -pp $1"},
		{"shift", "ROLE=$1\nshift\nvllm serve m \"$@\"\n", []string{"prefill", "--port", "8100"}, "m --port 8100"},
		{"shift 2", "shift 2\nvllm serve m $1\n", []string{"a", "b", "--enforce-eager"}, "m --enforce-eager"},
		{"option loop", "TP=1\nwhile [ $# -gt 0 ]; do\n  case $1 in\n    --tp) TP=$2; shift 2;;\n    *) shift;;\n  esac\ndone\nvllm serve m -tp $TP\n",
			[]string{"--pp", "2", "--tp", "8"}, "m -tp $TP"},
		{"set --", "set -- a\nvllm serve m $1\n", []string{"--enforce-eager"}, "m a"},
		{"set -- unknown words", "set -- $X\nvllm serve m $1\n", []string{"--enforce-eager"}, "m $X"},
		{"set -e keeps them", "set -euo pipefail\nvllm serve m $1\n", []string{"--enforce-eager"}, "m --enforce-eager"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runArgs(t, tt.script, tt.args...)
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("argv %q, want %q", got, tt.want)
			}
		})
	}
}
