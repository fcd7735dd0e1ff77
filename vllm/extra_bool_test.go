package vllm

import "testing"

// The forms argparse takes for a boolean flag, the last one winning; and
// prefix caching's default by engine era under them.
func TestExtraArgBool(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "unset"},
		{[]string{"--enable-prefix-caching"}, "on"},
		{[]string{" --no-enable-prefix-caching "}, "off"},
		{[]string{"--enable-prefix-caching=False", "--enable-prefix-caching=true"}, "on"},
		{[]string{"--enable-prefix-caching", "--no-enable-prefix-caching"}, "off"},
		{[]string{"--enable-prefix-cachingx"}, "unset"},
	} {
		got := "unset"
		if b := ExtraArgBool(tc.args, "--enable-prefix-caching"); b != nil {
			got = map[bool]string{true: "on", false: "off"}[*b]
		}
		if got != tc.want {
			t.Errorf("%q: %s, want %s", tc.args, got, tc.want)
		}
	}
	v1, v0 := mustResolve(t, "0.11.0"), mustResolve(t, "0.6.3")
	if !v1.PrefixCaching(nil) || v1.PrefixCaching([]string{"--no-enable-prefix-caching"}) || v0.PrefixCaching(nil) || !v0.PrefixCaching([]string{"--enable-prefix-caching"}) {
		t.Error("prefix caching: want on by default in V1 only, the flag deciding over it")
	}
}

func mustResolve(t *testing.T, v string) Release {
	t.Helper()
	r, err := Resolve(mustVersion(v))
	if err != nil {
		t.Fatal(err)
	}
	return r
}
