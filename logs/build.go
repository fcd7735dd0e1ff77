package logs

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// group is the processes of one engine, before they become an Engine.
type group struct {
	attempt, dp int // dp -1: unknown
	// origin is the pod, host or service of the engine when one capture
	// interleaves several servers (instances); "" otherwise.
	origin string
	// file is the input the engine's processes came from when the files
	// hold different servers (fileServers); -1 otherwise.
	file      int
	members   []*proc
	frontends []*proc
	// sharedFronts: the front-ends are also other engines' (several
	// engines of one start-up), so they speak for none on engine or
	// worker figures (candidates).
	sharedFronts bool
}

func (g *group) id() string {
	id := "dp?"
	if g.dp >= 0 {
		id = "dp" + strconv.Itoa(g.dp)
	}
	if g.origin != "" {
		id = g.origin + "/" + id
	}
	if g.attempt > 1 {
		id += "#" + strconv.Itoa(g.attempt)
	}
	return id
}

// report turns the analysis into a Report.
func (a *analyzer) report() *Report {
	rep := &Report{Engines: []Engine{}, Failures: []Failure{}, Comparison: []Comparison{}, Warnings: a.warnings}
	for _, f := range a.files {
		rep.Files = append(rep.Files, File{Name: f.name, Lines: f.lines, Gzip: f.gz, Formats: f.formats.names(),
			LongLines: f.cutLines, Truncated: f.cut, Restarts: f.restarts()})
		rep.Serving = rep.Serving || f.anyServing()
		if f.vllmLines == 0 {
			rep.notVLLM = append(rep.notVLLM, f.name)
			rep.Notes = append(rep.Notes, f.name+": no vLLM log line (no `INFO mm-dd hh:mm:ss [file.py:N]` header, no message vlaunch recognises): is it a vLLM log?")
		}
	}
	groups, engineOf := a.groups()
	for _, g := range groups {
		rep.Engines = append(rep.Engines, a.engine(g))
	}
	dpBounds(rep.Engines, groups)
	rep.Notes = append(rep.Notes, twinNotes(groups)...)
	rep.Notes = append(rep.Notes, notMemoryNotes(rep.Engines)...)
	rep.Notes = append(rep.Notes, a.sharedPIDNotes()...)
	rep.Notes = append(rep.Notes, a.unattributedNotes(groups)...)
	rep.Notes = append(rep.Notes, a.argsNotes()...)
	if !rep.Serving {
		rep.Serving = headlessReady(rep.Engines, a)
	}
	rep.Failures = a.failures(groups, engineOf, rep.Serving)
	ppKVCheckFailures(rep)
	if a.overrun > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("more than %d processes: %d lines were attributed to one overflow process", maxProcs, a.overrun))
	}
	if a.fails.dropped > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d further failures not listed (limit %d)", a.fails.dropped, maxFailures))
	}
	return rep
}

// dpBounds sets each engine's DP lower bound when the log states no DP
// size: a server whose engines include DP rank n has at least n+1 of
// them (DP ranks of one server, so per file when the files are separate
// servers, per origin when a capture interleaves several, per start-up).
func dpBounds(es []Engine, groups []*group) {
	type server struct {
		file, attempt int
		origin        string
	}
	keyOf := func(g *group) server {
		o := g.origin
		if o == "?" || strings.HasPrefix(o, "pid=") {
			o = "" // twin engine cores of one server (twinCores)
		}
		return server{g.file, g.attempt, o}
	}
	hi := map[server]int{}
	for _, g := range groups {
		if k := keyOf(g); g.dp > hi[k] {
			hi[k] = g.dp
		}
	}
	for i, g := range groups {
		if n := hi[keyOf(g)]; es[i].DP == nil && n >= 1 {
			es[i].DPAtLeast = intPtr(n + 1)
		}
	}
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
	type fa struct {
		file, attempt int
		origin        string
	}
	dps := map[fa]map[int]bool{}
	hasEngine, prefixed := map[fa]bool{}, map[fa]bool{}
	lastPrefixed := map[fa]int{} // the last line of a file's engine cores and workers
	for _, p := range a.order {
		k := fa{p.file, p.attempt, p.origin}
		if dps[k] == nil {
			dps[k] = map[int]bool{}
		}
		if p.role == roleEngine {
			hasEngine[k] = true
		}
		if p.role == roleEngine || p.role == roleWorker {
			prefixed[k] = true
			lastPrefixed[k] = max(lastPrefixed[k], p.last.no)
		}
		if (p.role == roleEngine || p.role == roleWorker) && p.dp >= 0 {
			dps[k][p.dp] = true
		}
	}
	// stray: an unprefixed process that logged nothing but progress bars
	// in a file whose engine cores or workers are prefixed is their
	// progress redrawn with "\r" past vLLM's prefix ("(Worker_DP0_EP0
	// pid=491) " then "Loading safetensors checkpoint shards:  99%
	// Completed | 161/163", DeepGEMM#301's log), not an engine of its own.
	stray := func(p *proc) bool {
		return p.role == roleMain && p.lines > 0 && p.bars == p.lines && prefixed[fa{p.file, p.attempt, p.origin}]
	}
	mainHead := func(p *proc) bool {
		return p.role == roleMain && !hasEngine[fa{p.file, p.attempt, p.origin}] && !stray(p)
	}
	split := a.instances(func(p *proc) bool {
		return p.role == roleEngine || mainHead(p)
	}, func(p *proc) int {
		if p.role == roleMain || p.dp < 0 {
			return soleDP(dps[fa{p.file, p.attempt, p.origin}])
		}
		return p.dp
	})
	// Two files that each hold the head of the same DP rank are two
	// servers — a P/D deployment's prefill and decode engines, one file
	// each — kept apart by file (fileServers).
	byFile := !split && (a.fileServers(func(p *proc) bool {
		return p.role == roleEngine || mainHead(p)
	}, func(p *proc) int {
		if p.role == roleMain || p.dp < 0 {
			return soleDP(dps[fa{p.file, p.attempt, p.origin}])
		}
		return p.dp
	}) || a.filesDiffer())
	twins := a.twinCores(func(p *proc) int {
		if p.dp < 0 {
			return soleDP(dps[fa{p.file, p.attempt, p.origin}])
		}
		return p.dp
	})
	type gk struct {
		attempt, dp int
		origin      string
		file        int
	}
	byKey := map[gk]*group{}
	engineOf := map[*proc]*group{}
	var out []*group
	get := func(attempt, dp int, origin string, file int) *group {
		k := gk{attempt, dp, origin, file}
		if g, ok := byKey[k]; ok {
			return g
		}
		g := &group{attempt: attempt, dp: dp, origin: origin, file: file}
		byKey[k] = g
		out = append(out, g)
		return g
	}
	var fronts []*proc
	for _, p := range a.order {
		if p.ambiguous {
			continue // a shared pid's unnamed lines: either process's (sharedPIDNotes)
		}
		k := fa{p.file, p.attempt, p.origin}
		// Stray progress bars after every prefixed line of a file of one
		// engine are that engine's (its CUDA-graph capture redrawn past
		// the prefix, vllm#29335's log): they show it got further than
		// its last prefixed line. Bars before that line are steps it
		// logged past since (newer releases capture graphs while
		// profiling, before "Available KV cache memory"), and with
		// several engines they could be any one's: the front-ends' then.
		own := stray(p) && !split && soleDP(dps[k]) >= 0 && p.last.no > lastPrefixed[k] &&
			!twins[twinSlot{p.file, p.attempt, p.origin, soleDP(dps[k])}]
		if p.role == roleAPI || p.role == roleMain && (hasEngine[k] || stray(p)) && !own {
			fronts = append(fronts, p)
			continue
		}
		dp := p.dp
		if dp < 0 || p.role == roleMain {
			dp = soleDP(dps[k])
		}
		inst := ""
		switch {
		case split:
			inst = p.origin
		case twins[twinSlot{p.file, p.attempt, p.origin, dp}]:
			// Two engine cores of one DP rank: each core is its own
			// engine; its workers cannot be told apart (twinCores).
			inst = "?"
			if p.role == roleEngine && p.pid > 0 {
				inst = "pid=" + strconv.Itoa(p.pid)
			}
		}
		file := -1
		if byFile {
			file = p.file
			if inst == "" {
				inst = a.fileLabel(p.file)
			}
		}
		g := get(p.attempt, dp, inst, file)
		g.members = append(g.members, p)
		engineOf[p] = g
	}
	if len(out) == 0 && len(fronts) > 0 {
		inst := ""
		if split {
			inst = fronts[0].origin
		}
		g := get(1, 0, inst, -1)
		engineOf[fronts[0]] = g
	}
	for _, g := range out {
		for _, p := range fronts {
			if split && p.origin != g.origin || g.file >= 0 && p.file != g.file {
				continue
			}
			if p.attempt == g.attempt || len(a.files) > 1 {
				g.frontends = append(g.frontends, p)
			}
		}
	}
	frontOf := map[*proc]int{}
	for _, g := range out {
		for _, p := range g.frontends {
			frontOf[p]++
		}
	}
	for _, g := range out {
		for _, p := range g.frontends {
			if frontOf[p] > 1 {
				g.sharedFronts = true
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		if out[i].origin != out[j].origin {
			return out[i].origin < out[j].origin
		}
		if out[i].attempt != out[j].attempt {
			return out[i].attempt < out[j].attempt
		}
		return dpOrder(out[i].dp) < dpOrder(out[j].dp)
	})
	return out, engineOf
}

// twinNotes says where two engine cores claimed one DP rank (twinCores).
func twinNotes(groups []*group) []string {
	type slot struct{ attempt, dp int }
	cores := map[slot][]string{}
	apart := map[slot]bool{}
	var order []slot
	for _, g := range groups {
		if g.origin == "?" {
			apart[slot{g.attempt, g.dp}] = true
		}
		if !strings.HasPrefix(g.origin, "pid=") {
			continue
		}
		s := slot{g.attempt, g.dp}
		if cores[s] == nil {
			order = append(order, s)
		}
		cores[s] = append(cores[s], g.id())
	}
	var out []string
	for _, s := range order {
		workers := ""
		if apart[s] {
			workers = fmt.Sprintf("; the other processes of that rank, which could be either's, are kept apart as ?/%s", (&group{dp: s.dp}).id())
		}
		out = append(out, fmt.Sprintf("engines %s are engine cores of the same DP rank in one start-up: two servers interleaved with no pod prefix (or a restart); each has its core's own figures%s: capture each server separately, or with kubectl logs --prefix",
			strings.Join(cores[s], " and "), workers))
	}
	return out
}

// twinSlot is one DP rank of one start-up attempt of one origin of a file.
type twinSlot struct {
	file, attempt int
	origin        string
	dp            int
}

// twinCores finds the DP ranks that two engine cores (different pids)
// claim within one start-up of one file and origin: two servers whose
// lines are interleaved with no pod prefix to tell them apart, or a
// restart vLLM's prefixed lines did not show. One DP rank has one engine
// core, so each core's own figures are its engine's; the workers of that
// rank could belong to either and are kept apart (engine "?/dpN") rather
// than mixed into one core's figures. The report says so (twinNote).
func (a *analyzer) twinCores(dpOf func(*proc) int) map[twinSlot]bool {
	first := map[twinSlot]int{}
	out := map[twinSlot]bool{}
	for _, p := range a.order {
		if p.role != roleEngine || p.pid <= 0 {
			continue
		}
		s := twinSlot{p.file, p.attempt, p.origin, dpOf(p)}
		if pid, ok := first[s]; ok && pid != p.pid {
			out[s] = true
		} else if !ok {
			first[s] = p.pid
		}
	}
	return out
}

// instances reports whether the capture interleaves several servers: two
// engine heads (engine cores, or the unprefixed process of a log without
// one) of the same attempt and DP rank come from different origins (pods,
// hosts, services). One DP rank has one engine core, so those are two
// servers, each with its own figures; a multi-node server's pods hold
// different DP ranks (or only workers) and stay one.
func (a *analyzer) instances(head func(*proc) bool, dpOf func(*proc) int) bool {
	type slot struct{ attempt, dp int }
	seen := map[slot]string{}
	for _, p := range a.order {
		if p.origin == "" || !head(p) {
			continue
		}
		s := slot{p.attempt, dpOf(p)}
		if o, ok := seen[s]; ok && o != p.origin {
			return true
		}
		seen[s] = p.origin
	}
	return false
}

// fileServers reports whether the input files hold different servers:
// two files each hold an engine head (an engine core, or the unprefixed
// process of a log without one) of the same attempt and DP rank. One DP
// rank of one server has one engine core, and a multi-node server's
// other nodes hold other DP ranks or only workers, so those are two
// servers — the prefill and the decode engine of a P/D deployment
// captured one file each — and each keeps its own figures rather than
// being merged into one engine.
func (a *analyzer) fileServers(head func(*proc) bool, dpOf func(*proc) int) bool {
	type slot struct {
		attempt, dp int
		origin      string
	}
	seen := map[slot]int{}
	for _, p := range a.order {
		if !head(p) {
			continue
		}
		s := slot{p.attempt, dpOf(p), p.origin}
		if f, ok := seen[s]; ok && f != p.file {
			return true
		}
		seen[s] = p.file
	}
	return false
}

// serverSig is what a file says of the server that wrote it, each ""
// when the file does not say (or says two things).
type serverSig map[string]string

// noDPName is a V1 worker's name with ranks but no DP rank.
// WorkerProc.setup_proc_title_and_log_prefix
// (vllm/v1/executor/multiproc_executor.py) appends "_DP{rank}" only when
// the DP group is larger than 1, as it does "_PP", "_PCP", "_TP", "_DCP"
// for theirs ("_EP" with expert parallelism): "Worker_TP0_DCP0_EP0" is a
// worker of a server without data parallelism.
var noDPName = regexp.MustCompile(`^Worker(?:_(?:TP|PP|PCP|DCP|EP)\d+)+$`)

// sig reads the signature of one file: whether its processes' names say
// the server is data-parallel ("EngineCore_DP3", "Worker_DP3_TP0") or not
// (a plain "EngineCore", which CoreEngineProcManager in
// vllm/v1/engine/utils.py names an engine without DP — name=
// f"EngineCore_DP{i}" if is_dp else "EngineCore" — or noDPName), the
// KV connector's kv_role, and the parallel sizes and port its arguments
// ask for.
func (a *analyzer) sig(fi int) serverSig {
	out := serverSig{}
	set := func(k, v string) {
		if v == "" {
			return
		}
		if o, ok := out[k]; ok && o != v {
			v = "?" // the file says two things: it tells nothing apart
		}
		out[k] = v
	}
	for _, p := range a.order {
		if p.file != fi {
			continue
		}
		switch {
		case p.role == roleEngine && p.name == "EngineCore", p.role == roleWorker && noDPName.MatchString(p.name):
			set("data-parallel", "no")
		case (p.role == roleEngine || p.role == roleWorker) && p.keyDP > 0:
			set("data-parallel", "yes")
		}
		if v := p.facts[fKVRole]; v.set {
			set("kv_role", v.str)
		}
		for _, k := range []string{"tensor_parallel_size", "pipeline_parallel_size", "data_parallel_size", "port"} {
			set(k, p.args[k])
		}
	}
	return out
}

// filesDiffer reports whether two input files come from different
// servers by what they say of them: one data-parallel and one not, or
// different kv_role, parallel sizes or port — a P/D deployment's prefill
// server (TP 16, no DP) and decode server (DP 4 × TP 4) captured one file
// each, whose DP ranks (0 and 3) do not collide (fileServers).
func (a *analyzer) filesDiffer() bool {
	if len(a.files) < 2 {
		return false
	}
	sigs := make([]serverSig, len(a.files))
	for i := range a.files {
		sigs[i] = a.sig(i)
	}
	for i := range sigs {
		for j := i + 1; j < len(sigs); j++ {
			for k, v := range sigs[i] {
				if w, ok := sigs[j][k]; ok && v != "?" && w != "?" && v != w {
					return true
				}
			}
		}
	}
	return false
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

// sharedPIDNotes says where two processes whose prefixes state different
// DP ranks used one pid (two nodes' containers, each with its engine core
// at the same pid, captured in one file): they are told apart by their
// prefix, and a line with that pid but no process name is attributed to
// neither.
func (a *analyzer) sharedPIDNotes() []string {
	var keys []string
	for k := range a.sharedPID {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		var names []string
		unnamed, pid := 0, 0
		for _, p := range a.sharedPID[k] {
			pid = p.pid
			if p.ambiguous {
				unnamed += p.lines
				continue
			}
			names = append(names, p.name)
		}
		sort.Strings(names)
		s := fmt.Sprintf("pid %d is used by %d processes (%s): separate nodes or containers captured together, told apart by their prefix's DP rank", pid, len(names), strings.Join(names, ", "))
		if unnamed > 0 {
			s += fmt.Sprintf("; %d line(s) with pid=%d and no process name cannot be attributed to either and are left out of the engines", unnamed, pid)
		}
		out = append(out, s)
	}
	return out
}

// unattributedNotes names the engine and worker figures that lines with
// no process prefix logged while several engines share those lines'
// process as their front-end: they could be any engine's, so no engine
// reports them (candidates), and the report says so.
func (a *analyzer) unattributedNotes(groups []*group) []string {
	seen := map[*proc]bool{}
	var out []string
	for _, g := range groups {
		if !g.sharedFronts {
			continue
		}
		for _, p := range g.frontends {
			if seen[p] || p.role != roleMain {
				continue
			}
			seen[p] = true
			var fs []string
			for k := range numFields {
				if sc := fieldInfos[k].scope; (sc == scopeEngine || sc == scopeWorker) && p.facts[k].set && !p.facts[k].derived {
					fs = append(fs, fmt.Sprintf("%s (%s:%d)", fieldInfos[k].name, a.files[p.file].name, p.facts[k].line))
				}
			}
			if len(fs) > 0 {
				out = append(out, "lines with no process prefix logged "+strings.Join(fs, ", ")+": several engines share those lines, so they are attributed to none")
			}
		}
	}
	return out
}

// argsNotes names the processes that logged two different argument sets
// in one start-up: neither is attached to an engine, as neither can be
// attributed.
func (a *analyzer) argsNotes() []string {
	var out []string
	for _, p := range a.order {
		if p.argsOther > 0 {
			f := a.files[p.file].name
			out = append(out, fmt.Sprintf("%s logged two different argument sets in one start-up (%s:%d and %s:%d): two servers' lines under one prefix; the arguments are ambiguous and attached to no engine", p.label, f, p.argsLine, f, p.argsOther))
		}
	}
	return out
}

// fileLabel names an input file in engine ids: the shortest suffix of its
// path (whole components) that no other input's path ends with, so
// A/node0.log and B/node0.log are told apart while lone files keep their
// base name. Inputs with the same name (two sources named alike) are
// numbered.
func (a *analyzer) fileLabel(fi int) string {
	split := func(name string) []string {
		return strings.Split(filepath.ToSlash(filepath.Clean(name)), "/")
	}
	own := split(a.files[fi].name)
	for n := 1; n <= len(own); n++ {
		suffix := strings.Join(own[len(own)-n:], "/")
		clash := false
		for j, f := range a.files {
			if j == fi {
				continue
			}
			other := split(f.name)
			if len(other) >= n && strings.Join(other[len(other)-n:], "/") == suffix {
				clash = true
				break
			}
		}
		if !clash {
			return suffix
		}
	}
	return own[len(own)-1] + "#" + strconv.Itoa(fi+1)
}
