package logs

import (
	"fmt"
	"strings"
	"testing"
)

// TestRelayedFailure: one failure logged by two layers — the worker's
// Python exception behind its "(Worker_… pid=…)" prefix and the native
// library's own unprefixed stderr lines — is one finding with the other
// layer's lines as its evidence (vllm#46509's DeepEP timeout under
// kubectl logs --prefix). Two ranks failing alike stay two findings, and
// an unprefixed line far from the worker's, or in another pod, is its own.
func TestRelayedFailure(t *testing.T) {
	const pod = "[pod/p-0/vllm] "
	worker := pod + "(Worker_DP7_EP7 pid=4757) RuntimeError: DeepEP error: timeout (dispatch CPU)\n"
	cxx := func(prefix string, thread int) string {
		return fmt.Sprintf("%sDeepEP timeout check failed: rank = 7, thread = %d, value = 0)\n", prefix, thread)
	}
	filler := func(n int) string {
		return strings.Repeat(pod+"(Worker_DP7_EP7 pid=4757) INFO 06-23 10:00:00 [gpu_model_runner.py:1] still here\n", n)
	}
	cases := []struct {
		name, log string
		// want is "CODE:rank[+relayed count]" per finding, in order.
		want string
	}{
		{"python then c++", worker + cxx(pod, 0) + cxx(pod, 1), "LOG141:Worker_DP7_EP7 pid=4757+1x2"},
		{"c++ then python", cxx(pod, 0) + cxx(pod, 1) + cxx(pod, 2) + worker, "LOG141:Worker_DP7_EP7 pid=4757+1x3"},
		{"two ranks stay two", worker + pod + "(Worker_DP6_EP6 pid=4756) RuntimeError: DeepEP error: timeout (dispatch CPU)\n",
			"LOG141:Worker_DP7_EP7 pid=4757 LOG141:Worker_DP6_EP6 pid=4756"},
		{"far apart stay two", worker + filler(relayWindow+5) + cxx(pod, 0), "LOG141:Worker_DP7_EP7 pid=4757 LOG141:main"},
		{"other pod stays two", worker + cxx("[pod/p-1/vllm] ", 0), "LOG141:Worker_DP7_EP7 pid=4757 LOG141:main"},
		{"unprefixed alone", cxx(pod, 0), "LOG141:main"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range failuresOf(t, c.log) {
				s := string(f.Code) + ":" + f.Rank
				for _, r := range f.Relayed {
					s += fmt.Sprintf("+%dx%d", len(f.Relayed), r.Count)
					if r.Rank != "main" || !strings.Contains(r.Text, "DeepEP timeout check failed") {
						t.Errorf("relay %+v", r)
					}
				}
				got = append(got, s)
			}
			if g := strings.Join(got, " "); g != c.want {
				t.Errorf("got %q, want %q", g, c.want)
			}
		})
	}
}
