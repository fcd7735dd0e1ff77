package launch

import "testing"

// TestSbatchNodes: the node count of a batch script's #SBATCH directives,
// read only before its first command, the last one winning; a range or a
// directive after a command gives none.
func TestSbatchNodes(t *testing.T) {
	tests := []struct {
		name, script, want string
	}{
		{"short", "#!/bin/bash\n#SBATCH -N 4\nsrun x\n", "4"},
		{"short joined", "#SBATCH -N3\n", "3"},
		{"long", "#SBATCH --job-name=a --nodes=2 # two nodes\n", "2"},
		{"long spaced", "#SBATCH --nodes 5\n", "5"},
		{"last wins", "#SBATCH -N 2\n# note\n\n#SBATCH --nodes=6\n", "6"},
		{"range", "#SBATCH -N 2-4\n", ""},
		{"after a command", "echo hi\n#SBATCH -N 4\n", ""},
		{"none", "#!/bin/bash\nvllm serve m\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, _, ok := sbatchNodes([]byte(tt.script))
			if ok != (tt.want != "") || n != tt.want {
				t.Errorf("sbatchNodes = %q, %v; want %q", n, ok, tt.want)
			}
		})
	}
}

// TestPositionalAll: "$@" in a function called with literal arguments is
// one word per argument, $# their count; in a script linted alone $@ is
// unknown and named as written.
func TestPositionalAll(t *testing.T) {
	invs, _, _ := ParseShell("f.sh", []byte("run() { vllm serve \"$@\" --max-num-seqs $#; }\nrun m --tensor-parallel-size 2\n"))
	if got := argv(invs); len(got) != 1 || got[0] != "m --tensor-parallel-size 2 --max-num-seqs 3" {
		t.Errorf("argv %q", got)
	}
	invs, _, _ = ParseShell("s.sh", []byte("N=$@\nvllm serve m -pp $N\n"))
	if len(invs) != 1 || len(invs[0].Args) < 3 || invs[0].Args[2].Known || invs[0].Args[2].Unresolved[0] != "$@" {
		t.Fatalf("want -pp unresolved as $@, got %+v", invs)
	}
}
