package launch

import "testing"

// TestFollowSourcedInput: `source` of another input, directly or through a
// function whose body sources its argument, walks that input in the
// sourcing shell: its exports resolve the command, the environment is not
// open, positions point into the sourced file, and what the sourced file
// starts itself is not the sourcing file's. An unresolved path opens the
// environment as before.
func TestFollowSourcedInput(t *testing.T) {
	inputs := map[string][]byte{
		"d/env.sh":    []byte("export MODEL=Qwen/Qwen3-8B\nexport TP=2\nvllm serve other-model\n"),
		"d/common.sh": []byte("load_env_file() {\n  local f=\"$1\"\n  source \"$f\"\n}\n"),
		"d/direct.sh": []byte("source ./env.sh\nvllm serve $MODEL -tp $TP\n"),
		"d/func.sh":   []byte("source d/common.sh\nload_env_file \"./env.sh\"\nvllm serve $MODEL -tp $TP\n"),
		"d/open.sh":   []byte("DIR=$(dirname \"$0\")\nsource \"$DIR/env.sh\"\nvllm serve $MODEL -tp $TP\n"),
	}
	lookup := InputLookup(inputs)
	for _, tt := range []struct {
		file string
		open bool
	}{{"d/direct.sh", false}, {"d/func.sh", false}, {"d/open.sh", true}} {
		invs, _, ds := ParseWith(tt.file, inputs[tt.file], lookup)
		if len(ds) > 0 || len(invs) != 1 {
			t.Fatalf("%s: %d invocations, %v", tt.file, len(invs), ds)
		}
		inv := invs[0]
		if inv.EnvOpen != tt.open {
			t.Errorf("%s: EnvOpen = %v, want %v", tt.file, inv.EnvOpen, tt.open)
		}
		if tt.open {
			if inv.Args[0].Known {
				t.Errorf("%s: model resolved through an unresolved path: %q", tt.file, inv.Args[0].Text)
			}
			continue
		}
		if a := inv.Args[0]; !a.Known || a.Text != "Qwen/Qwen3-8B" {
			t.Errorf("%s: model %q (known %v), want Qwen/Qwen3-8B", tt.file, a.Text, a.Known)
		}
		e, ok := inv.LookupEnv("TP")
		if !ok || e.Value.Text != "2" || e.Pos.File != "d/env.sh" || e.Pos.Line != 2 {
			t.Errorf("%s: TP = %+v (set %v), want 2 at d/env.sh:2", tt.file, e, ok)
		}
	}
	// switched off, a sourced file opens the environment
	FollowSourcedInputs = false
	defer func() { FollowSourcedInputs = true }()
	invs, _, _ := ParseWith("d/direct.sh", inputs["d/direct.sh"], lookup)
	if len(invs) != 1 || !invs[0].EnvOpen || invs[0].Args[0].Known {
		t.Errorf("switched off: want the environment open and the model unresolved")
	}
}

// TestExitArmNotMerged: an if arm that ends in `exit` does not reach the
// code after the if, so the other arm's assignments stand (kzwrime's
// load_env_file: `if [ -f "$f" ]; then source "$f"; else exit 1; fi`); an
// arm that goes on still makes a differing variable unknown.
func TestExitArmNotMerged(t *testing.T) {
	for _, tt := range []struct {
		src   string
		known bool
	}{
		{"if [ -f x ]; then\n  export FOO=1\nelse\n  echo no >&2\n  exit 1\nfi\nvllm serve $FOO\n", true},
		{"if [ -f x ]; then\n  export FOO=1\nelse\n  export FOO=2\nfi\nvllm serve $FOO\n", false},
		{"export FOO=1\nif [ -z \"$BAR\" ]; then\n  FOO=2\n  exit 1\nfi\nvllm serve $FOO\n", true},
	} {
		invs, _, _ := ParseShell("a.sh", []byte(tt.src))
		if len(invs) != 1 {
			t.Fatalf("%q: %d invocations", tt.src, len(invs))
		}
		if a := invs[0].Args[0]; a.Known != tt.known || (tt.known && a.Text != "1") {
			t.Errorf("%q: model %q known=%v, want known=%v (1)", tt.src, a.Text, a.Known, tt.known)
		}
	}
}
