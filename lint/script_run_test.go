package lint

import (
	"fmt"
	"strings"
	"testing"
)

// One large script run by many files is parsed again per runner only up to
// a budget; past it the script is linted once, as it stands.
func TestRunScriptsBudget(t *testing.T) {
	script := "#!/bin/bash\n" + strings.Repeat("# padding line of a long script\n", (256<<10)/32) + "vllm serve m --tensor-parallel-size 8\n"
	inputs := []Input{{Name: "start.sh", Data: []byte(script)}}
	const runners = 200 // 200 × 256 KiB > maxRunByBytes
	for i := 0; i < runners; i++ {
		inputs = append(inputs, Input{Name: fmt.Sprintf("node%d.sh", i), Data: []byte("bash start.sh\n")})
	}
	ps := &pass{}
	invs, _ := parseInputs(inputs, ps)
	if len(invs) != 1 {
		t.Fatalf("%d invocations, want the script's one server linted once", len(invs))
	}
	invs, _ = parseInputs(inputs[:3], &pass{}) // two runners: within the budget
	if len(invs) != 2 || !strings.Contains(invs[0].Node, "run by node0.sh") {
		t.Fatalf("two runners: %d invocations (%v), want one per runner", len(invs), invs)
	}
}
