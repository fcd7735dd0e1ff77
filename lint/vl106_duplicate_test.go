package lint

import (
	"strings"
	"testing"

	"github.com/vlaunch/vlaunch/diag/codes"
)

// TestDuplicateFlagSaysWhereAndWhatWins: VL106 names the first two
// different uses (as written: an alias, the --flag=value form) with their
// positions and the value argparse keeps, the last use's even when a third
// follows; --middleware (action="append") may repeat, as --ignore-patterns
// could before 0.9.0 but not after (a repeat replaces it).
func TestDuplicateFlagSaysWhereAndWhatWins(t *testing.T) {
	for _, tt := range []struct {
		version, script string
		want            []string // substrings of the one VL106 message; nil: none
	}{
		{"0.19.0", "vllm serve m --max-num-seqs 1024 -tp 2 --max-num-seqs=8 --max-num-seqs 16\n",
			[]string{"--max-num-seqs given 3 times", "--max-num-seqs 1024 at line 1:14", "--max-num-seqs=8 at line 1:40",
				"vLLM runs with --max-num-seqs 16 (its last use, at line 1:57)"}},
		{"0.19.0", "vllm serve m -tp 2 --tensor-parallel-size 4\n",
			[]string{"--tensor-parallel-size given twice", "-tp 2 at line 1:14", "--tensor-parallel-size 4 at line 1:20", "vLLM runs with --tensor-parallel-size 4"}},
		{"0.19.0", "vllm serve m --middleware a.B --middleware c.D\n", nil},
		{"0.8.5", "vllm serve m --ignore-patterns a --ignore-patterns b\n", nil},
		{"0.9.0", "vllm serve m --ignore-patterns a --ignore-patterns b\n", []string{"vLLM runs with --ignore-patterns b"}},
	} {
		ds, err := Lint([]Input{{Name: "dup.sh", Data: []byte(tt.script)}}, Options{Version: tt.version})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			if d.Code == codes.VLDuplicateFlag {
				got = append(got, d.Message)
			}
		}
		if tt.want == nil {
			if len(got) > 0 {
				t.Errorf("%s %q: want no VL106, got %q", tt.version, tt.script, got)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%s %q: want one VL106, got %q", tt.version, tt.script, got)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got[0], w) {
				t.Errorf("%s %q: VL106 %q lacks %q", tt.version, tt.script, got[0], w)
			}
		}
	}
}
