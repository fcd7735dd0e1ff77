package launch

import (
	"strings"
	"testing"
)

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

// A script held in a variable from `$(cat <<EOF ... EOF)` and handed to a
// wrapper script's `bash -lc "$cmd"` (a Slurm submission) is read: its
// servers are found at their lines, and the wrapper is a script run.
func TestCatHeredocThroughWrapper(t *testing.T) {
	src := "MODEL=m\ncmd=$(cat <<EOF\nset -e\nvllm serve \"$MODEL\" --tensor-parallel-size 4 \\\n  --port 8001\nEOF\n)\nsbatch --nodes=2 scripts/base.sh bash -lc \"$cmd\"\n"
	invs, _, ds := ParseShell("submit.sh", []byte(src))
	if len(ds) != 0 {
		t.Fatalf("diagnostics %v", ds)
	}
	var serve, runs int
	for _, inv := range invs {
		switch inv.Kind {
		case KindServe:
			serve++
			if inv.Pos.Line != 4 || inv.Args[0].Text != "m" {
				t.Errorf("server at line %d with model %q, want line 4, model m", inv.Pos.Line, inv.Args[0].Text)
			}
		case KindScriptRun:
			runs++
			if inv.Args[0].Text != "scripts/base.sh" {
				t.Errorf("runs %q", inv.Args[0].Text)
			}
		}
	}
	if serve != 1 || runs != 1 {
		t.Fatalf("%d servers, %d script runs; want 1 and 1", serve, runs)
	}
	// A quoted delimiter keeps the body literal: "$MODEL" stays unresolved.
	quoted := strings.Replace(src, "<<EOF", "<<'EOF'", 1)
	invs, _, _ = ParseShell("submit.sh", []byte(quoted))
	for _, inv := range invs {
		if inv.Kind == KindServe && inv.Args[0].Known {
			t.Errorf("quoted heredoc: model %q resolved", inv.Args[0].Text)
		}
	}
}
