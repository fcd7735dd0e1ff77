package replay

import (
	"testing"

	"github.com/vlaunch/vlaunch/published"
	"github.com/vlaunch/vlaunch/vllm"
)

// A vLLM row's gather is the naive backend when the row names it, or names
// none on a release whose default it is (up to 0.10.x); a row without a
// release is replayed on the newest, whose default gathers with
// allgather_reducescatter.
func TestNaiveA2A(t *testing.T) {
	rel := func(v string) vllm.Release {
		r, _, err := vllm.ResolveString(v)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		all2all string
		rel     vllm.Release
		want    bool
	}{
		{"naive", vllm.Newest(), true},
		{"allgather_reducescatter", rel("0.10.1"), false},
		{"unknown", rel("0.10.1"), true},
		{"", rel("0.9.2"), true},
		{"unknown", rel("0.11.0"), false},
		{"unknown", vllm.Newest(), false},
	} {
		var r published.Row
		r.Features.All2All = c.all2all
		if got := naiveA2A(r, c.rel); got != c.want {
			t.Errorf("all2all %q on %s: naive %v, want %v", c.all2all, c.rel.Version, got, c.want)
		}
	}
}
