package launch

import "testing"

// TestBackgroundCompound: a command inside a subshell, group or pipeline
// the shell does not wait for runs in the background too.
func TestBackgroundCompound(t *testing.T) {
	cases := map[string]bool{
		"vllm serve m &":                       true,
		"vllm serve m":                         false,
		"( vllm serve m 2>&1 | sed s/x/y/ ) &": true,
		"vllm serve m 2>&1 | tee log &":        true,
		"{ vllm serve m; } &":                  true,
		"( vllm serve m )":                     false,
	}
	for script, want := range cases {
		invs, _, _ := Parse("t.sh", []byte(script+"\n"))
		if len(invs) != 1 {
			t.Fatalf("%q: %d invocations", script, len(invs))
		}
		if invs[0].Background != want {
			t.Errorf("%q: Background=%v, want %v", script, invs[0].Background, want)
		}
	}
}
