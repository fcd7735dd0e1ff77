package launch

import "testing"

func TestContainerHostPath(t *testing.T) {
	c := &containerCtx{}
	for _, spec := range []string{"$PWD/start.sh:/start.sh", "/srv/scripts:/opt/scripts:ro", "models:/models"} {
		if m, ok := parseVolume(spec); ok {
			c.mounts = append(c.mounts, m)
		}
	}
	if m, ok := parseMountOpt("type=bind,source=./run,target=/run,readonly"); ok {
		c.mounts = append(c.mounts, m)
	}
	for _, tc := range []struct{ in, want string }{
		{"/start.sh", "$PWD/start.sh"},
		{"/opt/scripts/node.sh", "/srv/scripts/node.sh"},
		{"/opt/scripts/../start.sh", ""}, // cleaned: /opt/start.sh, not mounted
		{"/run/a.sh", "./run/a.sh"},
		{"/models/x.sh", ""}, // a named volume is no host path
		{"/usr/bin/start.sh", ""},
	} {
		got, ok := c.hostPath(tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("hostPath(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
}

func TestScriptFile(t *testing.T) {
	files := []string{"deploy/node0.sh", "deploy/start.sh", "other/start.sh", "run/x.sh"}
	run := func(file, p string) *Invocation {
		return &Invocation{Kind: KindScriptRun, File: file, Args: []Value{{Text: p}}}
	}
	for _, tc := range []struct {
		run  *Invocation
		want string
	}{
		{run("deploy/node0.sh", "start.sh"), "deploy/start.sh"},   // next to the runner
		{run("deploy/node0.sh", "./start.sh"), "deploy/start.sh"}, // same
		{run("deploy/node0.sh", "$PWD/start.sh"), "deploy/start.sh"},
		{run("top.sh", "/opt/start.sh"), ""},     // two inputs named start.sh: ambiguous
		{run("top.sh", "/opt/x.sh"), "run/x.sh"}, // the one input of that name
		{run("run/x.sh", "x.sh"), ""},            // not the runner itself
	} {
		if got := ScriptFile(files, tc.run); got != tc.want {
			t.Errorf("ScriptFile(%s runs %s) = %q, want %q", tc.run.File, tc.run.Args[0].Text, got, tc.want)
		}
	}
}
