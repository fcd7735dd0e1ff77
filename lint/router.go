package lint

import (
	"fmt"
	"net"
	"net/url"
	"path"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
	"mvdan.cc/sh/v3/syntax"
)

// Two programs are installed as `vllm-router`, and lint reads each by its
// own command line:
//
//   - vllm-project/router (Rust, @03e9af5c src/main.rs, the one generate
//     writes): --worker-urls URL... (num_args 0.., up to the next flag),
//     --host (default 127.0.0.1), --port (default 30000), and a Prometheus
//     listener it always binds, --prometheus-port (default 29000,
//     vllm.RouterMetricsSource); --service-discovery is a switch (workers
//     found in Kubernetes, no URLs); --intra-node-data-parallel-size N makes
//     each URL N DP-aware workers of one internal-LB server;
//   - vLLM production-stack's router (vllm-project/production-stack,
//     src/vllm_router, docs/source/user_manual/router/cmd.rst):
//     --service-discovery static|k8s, --static-backends URL,URL,...,
//     --routing-logic, --host (default 0.0.0.0), --port (default 8001), its
//     metrics on the same port. A command with --static-backends,
//     --static-models, --routing-logic or `--service-discovery static|k8s`
//     is this one: no 29000 listener is assumed and its workers are
//     --static-backends.
const srcPStackRouter = "vllm-project/production-stack docs/source/user_manual/router/cmd.rst (--host default 0.0.0.0, --port default 8001, " +
	"--service-discovery static|k8s, --static-backends comma-separated URLs, --routing-logic)"

// pstackRouterPort is production-stack's router's --port default.
const pstackRouterPort = "8001"

// routerCmd is one `vllm-router` command of the files.
type routerCmd struct {
	sc   *launch.Script
	cmd  *syntax.Word
	args []*syntax.Word
	// pstack: production-stack's router (srcPStackRouter), not
	// vllm-project/router.
	pstack bool
	// port and metrics are the ports it binds (metrics.text "" for none).
	port, metrics routerPort
	// listen is its --host ("" for the default).
	listen string
	// workers are its worker URLs (--worker-urls or --static-backends);
	// discovery says it finds them itself (Kubernetes service discovery).
	workers   []routerWorker
	discovery bool
	// host is where it runs: hostName is a node's name ("" unknown),
	// addr its address ("" unknown).
	hostName, addr string
}

// routerWorker is one worker URL of a router command.
type routerWorker struct {
	text       string
	host, port string
	at         *syntax.Word
}

// routerCmds reads every `vllm-router` command of the files, placed on its
// host (routerPlace).
func (p *pass) routerCmds() []*routerCmd {
	var out []*routerCmd
	p.eachRouterCall(func(sc *launch.Script, cmd *syntax.Word, args []*syntax.Word) {
		out = append(out, p.readRouter(sc, cmd, args))
	})
	return out
}

// eachRouterCall calls f with every `vllm-router` command of the files
// (routerCall), its program word and its arguments, in file order.
func (p *pass) eachRouterCall(f func(sc *launch.Script, cmd *syntax.Word, args []*syntax.Word)) {
	for _, sc := range p.Scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			call, ok := n.(*syntax.CallExpr)
			if !ok {
				return true
			}
			cmd, args, ok := routerCall(call)
			if !ok {
				return true
			}
			f(sc, cmd, args)
			return false
		})
	}
}

// readRouter reads one router command's ports, listen address and workers.
func (p *pass) readRouter(sc *launch.Script, cmd *syntax.Word, args []*syntax.Word) *routerCmd {
	r := &routerCmd{sc: sc, cmd: cmd, args: args}
	for i, w := range args {
		lit := wordText(w)
		switch name, _, _ := strings.Cut(lit, "="); name {
		case "--static-backends", "--static-models", "--routing-logic":
			r.pstack = true
		case "--service-discovery":
			r.discovery = true
			if next := wordText(args[min(i+1, len(args)-1)]); i+1 < len(args) && (next == "static" || next == "k8s") {
				r.pstack, r.discovery = true, next == "k8s"
			}
		}
	}
	if r.pstack {
		r.port = routerFlag(args, "--port", pstackRouterPort, cmd)
	} else {
		r.port = routerFlag(args, "--port", fmt.Sprint(vllm.RouterDefaultPort), cmd)
		r.metrics = routerFlag(args, "--prometheus-port", fmt.Sprint(vllm.RouterMetricsPort), cmd)
	}
	r.listen = routerFlag(args, "--host", "", cmd).text
	r.workers = readWorkers(args, r.pstack)
	r.hostName, r.addr = p.routerPlace(r)
	return r
}

// readWorkers reads the worker URLs: vllm-project/router's --worker-urls
// URL... (every word up to the next flag) or production-stack's
// --static-backends URL,URL.
func readWorkers(args []*syntax.Word, pstack bool) []routerWorker {
	var out []routerWorker
	add := func(text string, at *syntax.Word) {
		for _, u := range strings.Split(text, ",") {
			if u = strings.TrimSpace(u); u != "" {
				out = append(out, newWorker(u, at))
			}
		}
	}
	flag := "--worker-urls"
	if pstack {
		flag = "--static-backends"
	}
	for i := 0; i < len(args); i++ {
		lit := wordText(args[i])
		if v, ok := strings.CutPrefix(lit, flag+"="); ok {
			add(v, args[i])
			continue
		}
		if lit != flag {
			continue
		}
		for j := i + 1; j < len(args); j++ {
			text := wordText(args[j])
			if strings.HasPrefix(text, "-") {
				break
			}
			add(text, args[j])
			if pstack {
				break // one comma-separated value
			}
		}
	}
	return out
}

// newWorker parses a worker URL; host and port stay "" when not literal.
func newWorker(text string, at *syntax.Word) routerWorker {
	w := routerWorker{text: text, at: at}
	if u, err := url.Parse(text); err == nil {
		w.host, w.port = u.Hostname(), u.Port()
		if w.port == "" && w.host != "" {
			w.port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
		}
	}
	return w
}

// routerPlace is the host a router command runs on: its file's
// `# vlaunch:host=NAME` (generate writes it on router.sh), else the row of
// its bundle's `hosts` table that names the file, else its --host when
// that is one address (a spec node's, or a row's). The address is the
// node's (spec or table), or --host itself.
func (p *pass) routerPlace(r *routerCmd) (name, addr string) {
	file := r.sc.Name()
	name = p.hosts[file]
	if name == "" {
		for _, row := range p.bundleHosts[path.Dir(file)] {
			if row.script == path.Base(file) {
				name, addr = row.node, row.address
			}
		}
	}
	if l := r.listen; name == "" && l != "" && !wildcardOrLoopback(l) {
		addr = l
	}
	if name != "" && addr == "" {
		addr = p.nodeAddress(name, path.Dir(file))
	}
	if name == "" && addr != "" {
		name = p.nodeNamed(addr, path.Dir(file))
	}
	return name, addr
}

// nodeAddress is the address of the node called name: the spec's, else
// the bundle table's in dir.
func (p *pass) nodeAddress(name, dir string) string {
	if p.Spec != nil {
		for _, n := range p.Spec.Hardware.Nodes {
			if n.Name == name && n.Address != "" {
				return n.Address
			}
		}
	}
	for _, row := range p.bundleHosts[dir] {
		if row.node == name {
			return row.address
		}
	}
	return ""
}

// nodeNamed is the name of the node at address addr (or called addr), ""
// when neither the spec nor the bundle table in dir has it.
func (p *pass) nodeNamed(addr, dir string) string {
	if p.Spec != nil {
		for _, n := range p.Spec.Hardware.Nodes {
			if n.Address == addr || n.Name == addr {
				return n.Name
			}
		}
	}
	for _, row := range p.bundleHosts[dir] {
		if row.address == addr || row.node == addr {
			return row.node
		}
	}
	return ""
}

// wildcardOrLoopback: a listen address or URL host that names no one host
// (0.0.0.0, ::) or the router's own (localhost, 127.x, ::1).
func wildcardOrLoopback(h string) bool {
	if h == "localhost" || h == "0.0.0.0" || h == "::" || h == "[::]" {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && (ip.IsLoopback() || ip.IsUnspecified())
}

// apiHost is where a server's API listens: its file's scope (hostScope),
// the node it runs on by name ("" unknown) and its address ("" unknown).
type apiHost struct {
	scope, name, addr, port string
	s                       *server
}

// apiHosts are the API servers of the files with the hosts they listen on
// (headless engines and wrappers' workers serve none; a port not known
// statically is left out).
func (p *pass) apiHosts() []apiHost {
	var out []apiHost
	for _, s := range p.Servers {
		if s.Headless() || s.Inv.Role != "" || s.Inv.Frontend != "" {
			continue
		}
		port := "8000"
		if v, ok := s.Str("port"); ok {
			if !v.Known {
				continue
			}
			port = v.Text
		}
		h := apiHost{scope: p.hostScope(s), port: port, s: s, addr: hostIP(s), name: p.hosts[s.Inv.File]}
		dir := path.Dir(s.Inv.File)
		if h.name == "" {
			for _, row := range p.bundleHosts[dir] {
				if row.script == path.Base(s.Inv.File) {
					h.name = row.node
				}
			}
		}
		if h.addr == "" && h.name != "" {
			h.addr = p.nodeAddress(h.name, dir)
		}
		if i := p.specNodeFor(s); i >= 0 && h.addr == "" {
			h.addr = p.Spec.Hardware.Nodes[i].Address
		}
		if h.name == "" && h.addr != "" {
			h.name = p.nodeNamed(h.addr, dir)
		}
		out = append(out, h)
	}
	return out
}

// sameHost: the router r runs where a listens — the same file, else the
// same node name or address.
func (r *routerCmd) sameHost(a apiHost) bool {
	switch {
	case a.s.Inv.File == r.sc.Name():
		return true // one script runs on one host
	case r.hostName != "" && a.name != "":
		return r.hostName == a.name
	case r.addr != "" && a.addr != "":
		return r.addr == a.addr
	}
	return false
}

// serves: worker URL w reaches a's API server — its port, and a host that
// is a's (by address or node name), or the router's own when the URL says
// localhost and a runs beside the router.
func (r *routerCmd) serves(w routerWorker, a apiHost) bool {
	if w.port != a.port {
		return false
	}
	if wildcardOrLoopback(w.host) {
		return r.sameHost(a)
	}
	return (a.addr != "" && w.host == a.addr) || (a.name != "" && w.host == a.name)
}

// knownHost: lint knows what runs on the URL's host — a server of the
// files listens there (by address or node name), or it is the router's
// own host (localhost) with servers beside it.
func (r *routerCmd) knownHost(w routerWorker, apis []apiHost) bool {
	for _, a := range apis {
		if wildcardOrLoopback(w.host) && r.sameHost(a) {
			return true
		}
		if (a.addr != "" && w.host == a.addr) || (a.name != "" && w.host == a.name) {
			return true
		}
	}
	return false
}

// checkRouterWorkers compares a router's worker URLs with the servers the
// files start (VL234): a URL on a host where the files start servers must
// be one of their API ports (else the router waits on a worker that never
// answers /health and sends its share of requests nowhere), and with
// every URL placed, each external-LB rank (--data-parallel-rank) the files
// start should be a worker of the router (else it gets no requests).
// URLs on hosts lint cannot place (a Service name, a hostname of no node)
// are not judged; a router that discovers its workers has no URLs.
func checkRouterWorkers(p *pass) {
	apis := p.apiHosts()
	for _, r := range p.routerCmds() {
		if r.discovery || len(r.workers) == 0 {
			continue
		}
		named := map[*server]bool{}
		placed := true
		for _, w := range r.workers {
			if w.host == "" || w.port == "" || !r.knownHost(w, apis) {
				placed = false
				continue
			}
			found := false
			for _, a := range apis {
				if r.serves(w, a) {
					named[a.s], found = true, true
				}
			}
			if !found {
				p.Report(r.sc.Name(), r.sc.Pos(w.at.Pos()), "list the address and --port of each rank's API server as a worker",
					"worker %s: no vllm serve in the files listens on port %s of that host (the router waits for its /health and counts it among its workers)", w.text, w.port)
			}
		}
		if !placed {
			continue
		}
		for _, a := range apis {
			if named[a.s] || !a.s.Int("data-parallel-rank", 0).Set {
				continue
			}
			p.ReportAtSeverity(a.s.Inv, a.s.Inv.Pos, diag.Warning, "add http://"+net.JoinHostPort(hostOr(a), a.port)+" to the router's workers",
				"the router (%s:%d) lists no worker URL of this DP rank (external load balancing: its own API server on port %s), so it gets no requests", r.sc.Name(), r.sc.Pos(r.cmd.Pos()).Line, a.port)
		}
	}
}

// hostOr is a's address, else its node name, else "HOST".
func hostOr(a apiHost) string {
	switch {
	case a.addr != "":
		return a.addr
	case a.name != "":
		return a.name
	}
	return "HOST"
}

// wordText is a shell word's text when it is written out (plain or
// quoted, literalWord), "" when it expands something.
func wordText(w *syntax.Word) string {
	t, _ := literalWord(w)
	return t
}

// hasRouter reports whether one of the scripts runs `vllm-router`.
func hasRouter(scripts []*launch.Script) bool {
	found := false
	for _, sc := range scripts {
		syntax.Walk(sc.File, func(n syntax.Node) bool {
			if call, ok := n.(*syntax.CallExpr); ok && !found {
				_, _, found = routerCall(call)
			}
			return !found
		})
	}
	return found
}
