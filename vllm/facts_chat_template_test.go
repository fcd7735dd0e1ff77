package vllm

import (
	"strings"
	"testing"
)

func TestChatTemplateParse(t *testing.T) {
	for _, c := range []struct {
		version        string
		kwargs, format Presence
		perRequest     bool
	}{
		{"0.6.3", Absent, Absent, false},
		{"0.8.2", Absent, Maybe, false}, // detection parsed per request on main then; no release read
		{"0.9.2", Absent, Maybe, false},
		{"0.10.2", Absent, Absent, false},
		{"0.11.0", Present, Absent, true}, // read at the v0.11.0 tag
		{"0.11.1", Absent, Absent, false},
		{"0.15.1", Absent, Absent, false},
	} {
		r, _, err := ResolveString(c.version)
		if err != nil {
			t.Fatal(err)
		}
		p := r.ChatTemplateParse("qwen3")
		if p.KwargsVars != c.kwargs || p.ContentFormat != c.format || p.PerRequest() != c.perRequest {
			t.Errorf("%s: ChatTemplateParse = kwargs %v, content format %v, per request %v; want %v, %v, %v",
				c.version, p.KwargsVars, p.ContentFormat, p.PerRequest(), c.kwargs, c.format, c.perRequest)
		}
		for _, cite := range []string{"b8b302cde434", "#25794", "#26227", "#20065"} {
			if !strings.Contains(p.Source, cite) {
				t.Errorf("%s: source lacks %s", c.version, cite)
			}
		}
		// gpt-oss goes through harmony: no chat template to parse.
		if h := r.ChatTemplateParse("gpt_oss"); !h.Harmony || h.KwargsVars != Absent || h.ContentFormat != Absent || h.PerRequest() {
			t.Errorf("%s: gpt-oss ChatTemplateParse = %+v, want harmony and no parse", c.version, h)
		}
	}
}
