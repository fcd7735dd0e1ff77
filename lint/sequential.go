package lint

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/vlaunch/vlaunch/lint/launch"
)

// UseSequentialAlternatives makes foreground servers that one shell script
// starts one after another separate deployments (tagSequential). On since
// qa39: a notes file of alternative commands (qa/realin39
// qwen3-30b-dp-ep-notes.sh: five foreground `vllm serve` commands, two of
// them one two-node deployment) was linted as one deployment (VL202,
// VL205, VL206 between commands that never run together).
var UseSequentialAlternatives = true

// tagSequential splits a shell script's servers into the runs that can be
// up at the same time. The shell waits for a foreground command, and `vllm
// serve` runs until it is stopped, so a server started after a foreground
// server (not backgrounded with &, not in a detached container) never runs
// beside it: each is its own deployment, tagged "seq N" in its file (the
// first run keeps its tag). A
// server that states it is a later node of a multi-node deployment
// (--headless, a --data-parallel-start-rank, --data-parallel-rank or
// --node-rank above 0) is meant for another host, as in a per-node recipe,
// and stays with the run before it; servers in different branches of one
// if/case (launch.Exclusive) are one per node of one script and are not
// split. Manifests, Compose files and Markdown documents are not scripts
// run top to bottom and are left as they are.
func tagSequential(servers []*server, inputs []Input) {
	if !UseSequentialAlternatives {
		return
	}
	text := map[string][]string{}
	for _, in := range inputs {
		text[in.Name] = strings.Split(string(in.Data), "\n")
	}
	byFile := map[string][]*server{}
	var files []string
	for _, s := range servers {
		if !runTopToBottom(s.Inv) {
			continue
		}
		// One run of the script: a script several runners run (bash
		// start.sh on two nodes, launch.ParseRunBy) is one run per runner.
		run := s.Inv.File
		if i := strings.Index(s.Inv.Node, " (run by "); i >= 0 {
			run += s.Inv.Node[i:]
		}
		if _, ok := byFile[run]; !ok {
			files = append(files, run)
		}
		byFile[run] = append(byFile[run], s)
	}
	for _, f := range files {
		ss := byFile[f]
		seq := 0
		var blocking *server // the last foreground server
		tags := make([]int, len(ss))
		for i, s := range ss {
			if blocking != nil && !launch.Exclusive(blocking.Inv, s.Inv) && !laterNode(s) {
				seq++
				blocking = nil
			}
			tags[i] = seq
			if !s.Inv.Background && (s.Inv.Container == nil || !s.Inv.Container.Detached) && !awaitedLater(s, text[s.Inv.File]) {
				blocking = s
			}
		}
		if seq == 0 {
			continue // one run: nothing to split, tags stay as they were
		}
		// The first run keeps its tag, so it still groups with the other
		// files' servers (node1.sh beside node0.sh); later runs are apart.
		for i, s := range ss {
			if tags[i] > 0 {
				s.Inv.Deployment = strings.TrimSpace(s.Inv.Deployment + fmt.Sprintf(" seq %d", tags[i]))
			}
		}
	}
}

// awaitedLater reports a foreground server whose port the script polls
// afterwards (`wait_for_server 8100`, `until curl localhost:8100/health`):
// the author meant it to run in the background (a missing &), so what
// follows is meant to run beside it, as one deployment
// (corpus nixl-pd-space-after-backslash).
func awaitedLater(s *server, lines []string) bool {
	port := "8000" // vLLM's default --port
	if v, ok := s.Str("port"); ok {
		if !v.Known {
			return false
		}
		port = v.Text
	}
	for i := s.Inv.Pos.Line; i < len(lines); i++ {
		l := lines[i]
		if !strings.Contains(l, "curl") && !strings.Contains(l, "wait") && !strings.Contains(l, "health") {
			continue
		}
		for _, w := range strings.FieldsFunc(l, func(r rune) bool { return r < '0' || r > '9' }) {
			if w == port {
				return true
			}
		}
	}
	return false
}

// runTopToBottom reports an invocation of a shell script (not of a
// manifest, a Compose file or a Markdown document, whose commands are not
// run in order by one shell).
func runTopToBottom(inv *launch.Invocation) bool {
	switch strings.ToLower(filepath.Ext(inv.File)) {
	case ".yaml", ".yml", ".json", ".md", ".markdown", ".rst", ".txt", ".ipynb":
		return false
	}
	if c := inv.Container; c != nil && c.Runtime != "docker" && c.Runtime != "apptainer" {
		return false
	}
	return inv.Deployment == ""
}

// laterNode reports a server that says it is not the first node of a
// multi-node deployment.
func laterNode(s *server) bool {
	if s.Headless() {
		return true
	}
	for _, f := range []string{"data-parallel-start-rank", "data-parallel-rank", "node-rank"} {
		if v := s.Int(f, 0); v.Known && v.N > 0 {
			return true
		}
	}
	return false
}

// alternativeTo reports two servers of one script that tagSequential put
// in different runs: they never run at the same time.
func alternativeTo(a, b *server) bool {
	return a.Inv.File == b.Inv.File && a.Inv.Deployment != b.Inv.Deployment &&
		(strings.Contains(a.Inv.Deployment, "seq ") || strings.Contains(b.Inv.Deployment, "seq "))
}

// alternativeToAll reports a server that runs beside none of others.
func alternativeToAll(s *server, others []*server) bool {
	for _, o := range others {
		if !alternativeTo(s, o) {
			return false
		}
	}
	return len(others) > 0
}
