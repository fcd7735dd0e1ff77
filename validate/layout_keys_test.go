package validate

import (
	"os"
	"strings"
	"testing"
)

// TestLayoutMessageNamesSpecKeys: the layout product's message and hint
// name the replica count as the spec writes it — `instances` in a P/D
// pool, `replicas` in a colocated spec (QA38 #4).
func TestLayoutMessageNamesSpecKeys(t *testing.T) {
	src, err := os.ReadFile("testdata/pd-instances-layout.yaml")
	if err != nil {
		t.Fatal(err)
	}
	ds := mustBytes(t, "pd.yaml", string(src))
	var found bool
	for _, d := range ds {
		if d.Code != CodeLayout {
			continue
		}
		found = true
		text := d.Message + " " + d.Hint
		if strings.Contains(text, "replicas") || !strings.Contains(d.Message, "prefill pool: instances x tensor x pipeline x data = 2 x 8 x 1 x 1 = 16 GPUs") ||
			!strings.Contains(d.Hint, "instances x tensor x pipeline = 16") || d.Path != "disaggregation.prefill.parallelism.data" {
			t.Errorf("P/D layout finding names other keys: %s %s: %s (hint: %s)", d.Code, d.Path, d.Message, d.Hint)
		}
	}
	if !found {
		t.Fatalf("no %s finding:\n%s", CodeLayout, render(ds))
	}
	col := mustBytes(t, "colocated.yaml", edit(t, readBase(t), "data: 16", "data: 16\n  replicas: 3"))
	found = false
	for _, d := range col {
		if d.Code == CodeLayout {
			found = true
			if !strings.HasPrefix(d.Message, "replicas x tensor x pipeline x data = 3 x") {
				t.Errorf("colocated layout finding: %s", d.Message)
			}
		}
	}
	if !found {
		t.Fatalf("colocated: no %s finding:\n%s", CodeLayout, render(col))
	}
}
