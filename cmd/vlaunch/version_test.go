package main

import (
	"runtime/debug"
	"testing"
)

func TestVersionFromBuildInfo(t *testing.T) {
	set := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: set("vcs.revision", "0123456789abcdef0123", "vcs.time", "2026-12-02T15:04:05Z", "vcs.modified", "true")},
			"devel 0123456789ab (2026-12-02T15:04:05Z, modified)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: set("vcs.revision", "abc")}, "devel abc"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "unknown (built without version control information)"},
	} {
		if got := fromBuildInfo(&c.info); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
	old := version
	defer func() { version = old }()
	version = "v9.9.9"
	if got := versionString(); got != "v9.9.9" {
		t.Errorf("-ldflags version: %q", got)
	}
}
