package launch

import (
	"strings"
	"testing"
)

// TestShellValueGrowthIsCapped: a script that doubles a variable 40 times
// (2^40 bytes if expanded) must lint quickly, with the value marked
// unresolved instead of exhausting memory.
func TestShellValueGrowthIsCapped(t *testing.T) {
	script := "A=x\n" + strings.Repeat("A=$A$A\n", 40) + "vllm serve m --served-model-name $A\n"
	invs, _, _ := ParseShell("grow.sh", []byte(script))
	if len(invs) != 1 || len(invs[0].Args) < 3 {
		t.Fatalf("want one invocation with its arguments, got %v", len(invs))
	}
	name := invs[0].Args[2]
	if len(name.Text) > maxValueBytes || name.Known {
		t.Fatalf("value not capped: %d bytes, known=%v", len(name.Text), name.Known)
	}
	if !strings.Contains(strings.Join(name.Unresolved, " "), tooLong) {
		t.Errorf("unresolved should say the value was cut: %v", name.Unresolved)
	}
}

// TestShellArrayAppend: launchers often build the command in an array with
// ARR+=(...) and run it with exec "${ARR[@]}"; the appended flags must reach
// the invocation, and self-doubling appends stay bounded.
func TestShellArrayAppend(t *testing.T) {
	script := "CMD=(vllm serve m)\nCMD+=(--tensor-parallel-size 8)\nif true; then CMD+=(--port 9000); fi\nexec \"${CMD[@]}\"\n"
	invs, _, _ := ParseShell("arr.sh", []byte(script))
	if got := argv(invs); len(got) != 1 || got[0] != "m --tensor-parallel-size 8 --port 9000" {
		t.Fatalf("argv = %q", got)
	}
	grow := "A=(x)\n" + strings.Repeat("A+=(\"${A[@]}\")\n", 30) + "vllm serve m \"${A[@]}\"\n"
	invs, _, _ = ParseShell("grow.sh", []byte(grow))
	if len(invs) != 1 || len(invs[0].Args) > 2*maxArrayElems+2 {
		t.Fatalf("array growth not bounded: %d invocations", len(invs))
	}
}
