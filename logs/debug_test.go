package logs

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestDebugDump(t *testing.T) {
	p := os.Getenv("LOGS_DEBUG")
	if p == "" {
		t.Skip()
	}
	rep, err := AnalyzeFiles(strings.Split(p, ","))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.MarshalIndent(rep, "", "  ")
	os.Stdout.Write(b)
}
