package lint

import (
	"net"
	"net/url"
	"path"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/spec"
	"mvdan.cc/sh/v3/syntax"
)

// routerURL is one --prefill or --decode URL of a `vllm-router` command.
type routerURL struct {
	role  string // spec.RolePrefill or spec.RoleDecode
	text  string
	at    launch.Pos
	file  string
	hostP string // "address:port", the host mapped to its spec node's address
	node  string // the spec node the host names ("" for none)
}

// poolEndpoint is an instance's API address: its primary's host and --port.
type poolEndpoint struct {
	role string
	s    *server
}

// checkSpecPDRouter compares the vLLM router's view of the pools with the
// spec and the engines the files start (VL409): each --prefill URL must
// name a node of the prefill pool and an engine of it listening there
// (--decode likewise), and the router should name every instance of a
// pool. vllm-project/router@03e9af5c:src/main.rs defines --prefill URL
// [BOOTSTRAP_PORT] and --decode URL, as the generator writes them
// (generator/pd.go, routerArgs). Hosts that are no spec node (a Service
// name, a load balancer) are not judged.
func checkSpecPDRouter(p *pass) {
	if p.pools == nil || len(p.Servers) == 0 || !pdRelease(p.Servers[0]) {
		return
	}
	urls := routerURLs(p)
	if len(urls) == 0 {
		return
	}
	nodeRole := map[string]string{}
	for _, pl := range p.pools {
		for _, i := range p.Spec.PoolNodeIndexes(pl.Role) {
			nodeRole[p.Spec.Hardware.Nodes[i].Name] = pl.Role
		}
	}
	// The endpoints the files start, per pool; a pool with an instance
	// whose address or port is unknown is incomplete.
	ends := map[string]poolEndpoint{}
	complete := map[string]bool{}
	for _, pl := range p.pools {
		complete[pl.Role] = len(pl.Servers) > 0
		for _, s := range pl.Servers {
			if !instanceHead(s) || s.Inv.Frontend != "" {
				continue
			}
			hp, ok := apiEndpoint(p, s)
			if !ok {
				complete[pl.Role] = false
				continue
			}
			ends[hp] = poolEndpoint{pl.Role, s}
		}
	}
	named := map[*server]bool{}
	for _, u := range urls {
		if u.node == "" {
			complete[spec.RolePrefill], complete[spec.RoleDecode] = false, false // a URL lint cannot place
			continue
		}
		other := map[string]string{spec.RolePrefill: spec.RoleDecode, spec.RoleDecode: spec.RolePrefill}[u.role]
		e, isEngine := ends[u.hostP]
		switch {
		case isEngine && e.role == u.role:
			named[e.s] = true
		case isEngine:
			p.Report(u.file, u.at, "give the router the "+u.role+" pool's engines after --"+u.role,
				"--%s %s is an engine of the %s pool (%s:%d): the router would send %s requests to it", u.role, u.text, other, e.s.Inv.File, e.s.Inv.Pos.Line, u.role)
		case nodeRole[u.node] != u.role:
			p.Report(u.file, u.at, "give the router the "+u.role+" pool's engines after --"+u.role,
				"--%s %s names %s, which is no node of the spec's %s pool", u.role, u.text, u.node, u.role)
		case complete[u.role]:
			p.Report(u.file, u.at, "give the router the address and --port of each "+u.role+" instance's API server",
				"--%s %s: no %s engine in the files listens there", u.role, u.text, u.role)
		}
	}
	for _, pl := range p.pools {
		if !complete[pl.Role] {
			continue
		}
		for _, s := range pl.Servers {
			if instanceHead(s) && s.Inv.Frontend == "" && !named[s] {
				hp, _ := apiEndpoint(p, s)
				p.ReportAtSeverity(s.Inv, s.Inv.Pos, diag.Warning, "add --"+pl.Role+" http://"+hp+" to the router",
					"the router (%s) names no URL of this %s instance (%s): it gets no requests", urls[0].file, pl.Role, hp)
			}
		}
	}
}

// apiEndpoint is a server's API "address:port": its VLLM_HOST_IP or host
// (a spec node's name mapped to its address) and --port (vLLM's default
// 8000).
func apiEndpoint(p *pass, s *server) (string, bool) {
	addr := hostIP(s)
	if addr == "" {
		if i := p.specNodeFor(s); i >= 0 {
			addr = p.Spec.Hardware.Nodes[i].Address
		}
	}
	if addr == "" {
		return "", false
	}
	port := "8000"
	if v, ok := s.Str("port"); ok {
		if !v.Known {
			return "", false
		}
		port = v.Text
	}
	return net.JoinHostPort(addr, port), true
}

// routerCall finds a `vllm-router` command among call's words (the
// program itself, or after a wrapper such as env or exec): the word naming
// it and its arguments.
func routerCall(call *syntax.CallExpr) (*syntax.Word, []*syntax.Word, bool) {
	for i, w := range call.Args {
		if path.Base(w.Lit()) == "vllm-router" {
			return w, call.Args[i+1:], true
		}
	}
	return nil, nil, false
}

// routerURLs reads the --prefill and --decode URLs of every `vllm-router`
// command in the files (--flag URL or --flag=URL).
func routerURLs(p *pass) []routerURL {
	var out []routerURL
	p.eachRouterCall(func(sc *launch.Script, _ *syntax.Word, args []*syntax.Word) {
		for i, w := range args {
			lit := w.Lit()
			for _, role := range []string{spec.RolePrefill, spec.RoleDecode} {
				flag := "--" + role
				var text string
				at := w
				switch {
				case lit == flag && i+1 < len(args):
					at = args[i+1]
					text = at.Lit()
				case strings.HasPrefix(lit, flag+"="):
					text = strings.TrimPrefix(lit, flag+"=")
				default:
					continue
				}
				if u := p.routerURL(role, text); u != nil {
					u.at, u.file = sc.Pos(at.Pos()), sc.Name()
					out = append(out, *u)
				}
			}
		}
	})
	return out
}

// routerURL parses one URL; nil when it has no literal host and port.
func (p *pass) routerURL(role, text string) *routerURL {
	u, err := url.Parse(text)
	if err != nil || u.Hostname() == "" || u.Port() == "" {
		return nil
	}
	r := &routerURL{role: role, text: text}
	host := u.Hostname()
	for _, n := range p.Spec.Hardware.Nodes {
		if host == n.Address || host == n.Name {
			r.node = n.Name
			if n.Address != "" {
				host = n.Address
			}
		}
	}
	r.hostP = net.JoinHostPort(host, u.Port())
	return r
}
