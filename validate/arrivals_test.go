package validate

import (
	"strings"
	"testing"
)

// workload.arrival_burstiness: a positive gamma shape (the schema's
// exclusiveMinimum 0 and maximum 10,000), and only beside an arrival
// rate, each refusal a SPEC005 at the key's value: the key is the last
// line added after line 21 of the base spec (output_tokens), its value at
// column 23 ("  arrival_burstiness: " is 22 characters).
func TestArrivalBurstiness(t *testing.T) {
	for _, c := range []struct {
		name, workload string
		want           string // "" clean; else the message's text
	}{
		{"poisson by default", "  arrival_rate_per_s: 4\n", ""},
		{"smoother than poisson", "  arrival_rate_per_s: 4\n  arrival_burstiness: 100\n", ""},
		{"burstier than poisson", "  arrival_rate_per_s: 4\n  arrival_burstiness: 0.25\n", ""},
		{"without a rate", "  arrival_burstiness: 100\n", "without arrival_rate_per_s"},
		{"zero", "  arrival_rate_per_s: 4\n  arrival_burstiness: 0\n", "0"},
		{"negative", "  arrival_rate_per_s: 4\n  arrival_burstiness: -1\n", "-1"},
		{"above the limit", "  arrival_rate_per_s: 4\n  arrival_burstiness: 10001\n", "above the limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := edit(t, readBase(t), "  output_tokens: 1024\n", "  output_tokens: 1024\n"+c.workload)
			ds := mustBytes(t, c.name+".yaml", src)
			var found bool
			for _, d := range ds {
				if d.Path != "workload.arrival_burstiness" {
					if strings.Contains(d.Path, "arrival") {
						t.Errorf("finding at %s: %s", d.Path, d.Message)
					}
					continue
				}
				found = true
				if c.want == "" || d.Code != CodeValue || d.Line != 21+strings.Count(c.workload, "\n") || d.Col != 23 || !strings.Contains(d.Message, c.want) {
					t.Errorf("unexpected or misplaced finding:\n%s", render(ds))
				}
			}
			if c.want != "" && !found {
				t.Errorf("no finding at workload.arrival_burstiness; findings:\n%s", render(ds))
			}
		})
	}
}
