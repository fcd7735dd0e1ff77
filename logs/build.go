package logs

import (
	"fmt"
	"sort"
	"strconv"
)

// group is the processes of one engine, before they become an Engine.
type group struct {
	attempt, dp int // dp -1: unknown
	members     []*proc
	frontends   []*proc
}

func (g *group) id() string {
	id := "dp?"
	if g.dp >= 0 {
		id = "dp" + strconv.Itoa(g.dp)
	}
	if g.attempt > 1 {
		id += "#" + strconv.Itoa(g.attempt)
	}
	return id
}

// report turns the analysis into a Report.
func (a *analyzer) report() *Report {
	rep := &Report{Engines: []Engine{}, Failures: []Failure{}, Comparison: []Comparison{}}
	for _, f := range a.files {
		rep.Files = append(rep.Files, File{Name: f.name, Lines: f.lines, Gzip: f.gz, Formats: f.formats.names(),
			LongLines: f.cutLines, Truncated: f.cut, Restarts: f.attempt - 1})
		rep.Serving = rep.Serving || f.serving
		if f.vllmLines == 0 {
			rep.notVLLM = append(rep.notVLLM, f.name)
			rep.Notes = append(rep.Notes, f.name+": no vLLM log line (no `INFO mm-dd hh:mm:ss [file.py:N]` header, no message vlaunch recognises): is it a vLLM log?")
		}
	}
	groups, engineOf := a.groups()
	for _, g := range groups {
		rep.Engines = append(rep.Engines, a.engine(g))
	}
	if !rep.Serving {
		rep.Serving = headlessReady(rep.Engines, a)
	}
	rep.Failures = a.failures(groups, engineOf, rep.Serving)
	if a.overrun > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("more than %d processes: %d lines were attributed to one overflow process", maxProcs, a.overrun))
	}
	if a.fails.dropped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d further failures not listed (limit %d)", a.fails.dropped, maxFailures))
	}
	return rep
}

// headlessReady: a log with engines but no API server (the headless nodes
// of a multi-node deployment) is up when every engine finished starting.
func headlessReady(es []Engine, a *analyzer) bool {
	if len(es) == 0 {
		return false
	}
	for _, p := range a.order {
		if p.role == roleAPI {
			return false
		}
	}
	for _, e := range es {
		if !e.Ready {
			return false
		}
	}
	return true
}

// groups assigns every process to an engine: engine cores by their DP
// rank, workers by the DP rank they logged or the only engine of their
// file, unprefixed processes to the engine when the file has no engine
// core of its own (V0 and early V1 logs) and otherwise to the front-ends.
func (a *analyzer) groups() ([]*group, map[*proc]*group) {
	type fa struct{ file, attempt int }
	dps := map[fa]map[int]bool{}
	hasEngine := map[fa]bool{}
	for _, p := range a.order {
		k := fa{p.file, p.attempt}
		if dps[k] == nil {
			dps[k] = map[int]bool{}
		}
		if p.role == roleEngine {
			hasEngine[k] = true
		}
		if (p.role == roleEngine || p.role == roleWorker) && p.dp >= 0 {
			dps[k][p.dp] = true
		}
	}
	byKey := map[[2]int]*group{}
	engineOf := map[*proc]*group{}
	var out []*group
	get := func(attempt, dp int) *group {
		k := [2]int{attempt, dp}
		if g, ok := byKey[k]; ok {
			return g
		}
		g := &group{attempt: attempt, dp: dp}
		byKey[k] = g
		out = append(out, g)
		return g
	}
	var fronts []*proc
	for _, p := range a.order {
		k := fa{p.file, p.attempt}
		if p.role == roleAPI || p.role == roleMain && hasEngine[k] {
			fronts = append(fronts, p)
			continue
		}
		dp := p.dp
		if dp < 0 || p.role == roleMain {
			dp = soleDP(dps[k])
		}
		g := get(p.attempt, dp)
		g.members = append(g.members, p)
		engineOf[p] = g
	}
	if len(out) == 0 && len(fronts) > 0 {
		g := get(1, 0)
		engineOf[fronts[0]] = g
	}
	for _, g := range out {
		for _, p := range fronts {
			if p.attempt == g.attempt || len(a.files) > 1 {
				g.frontends = append(g.frontends, p)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].attempt != out[j].attempt {
			return out[i].attempt < out[j].attempt
		}
		return dpOrder(out[i].dp) < dpOrder(out[j].dp)
	})
	return out, engineOf
}

func dpOrder(dp int) int {
	if dp < 0 {
		return maxDP
	}
	return dp
}

// soleDP is the file's DP rank when it has exactly one (0 when it has
// none: an engine without data parallelism), -1 when it has several.
func soleDP(m map[int]bool) int {
	switch len(m) {
	case 0:
		return 0
	case 1:
		for dp := range m {
			return dp
		}
	}
	return -1
}
