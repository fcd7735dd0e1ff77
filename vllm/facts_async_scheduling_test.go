package vllm

import "testing"

func TestAsyncSchedulingDefault(t *testing.T) {
	on, off := true, false
	for _, c := range []struct {
		version  string
		explicit *bool
		pp       int
		spec     string
		want     bool
	}{
		{"0.13.0", nil, 1, "", false},
		{"0.14.0", nil, 1, "", true},
		{"0.22.1", nil, 1, "mtp", true},
		{"0.22.1", nil, 2, "", false},
		{"0.22.1", nil, 1, "ngram", false},
		{"0.22.1", &off, 1, "", false},
		{"0.11.0", &on, 1, "", true},
	} {
		r, _, err := ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.AsyncSchedulingFor(c.explicit, c.pp, c.spec); got != c.want {
			t.Errorf("%s explicit %v pp %d spec %q: %v, want %v", c.version, c.explicit, c.pp, c.spec, got, c.want)
		}
	}
}
