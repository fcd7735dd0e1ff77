package generator

import (
	"strings"
	"testing"
	"text/template"
)

// TestPortRange (QA #37 finding 6): the README's side-channel table writes
// one port alone and a run as first–last, through the template function the
// embedded PD README uses.
func TestPortRange(t *testing.T) {
	for _, c := range []struct {
		ports []int
		want  string
	}{
		{nil, ""},
		{[]int{5600}, "5600"},
		{[]int{5600, 5601}, "5600–5601"},
		{[]int{5600, 5601, 5602, 5603, 5604, 5605, 5606, 5607}, "5600–5607"},
	} {
		if got := portRange(c.ports); got != c.want {
			t.Errorf("%v: %q, want %q", c.ports, got, c.want)
		}
		var b strings.Builder
		tm := template.Must(template.New("t").Funcs(FuncMap()).Parse("{{portRange .}}"))
		if err := tm.Execute(&b, c.ports); err != nil || b.String() != c.want {
			t.Errorf("template %v: %q (%v), want %q", c.ports, b.String(), err, c.want)
		}
	}
}
