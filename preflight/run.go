package preflight

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vlaunch/vlaunch/resolve"
)

// UsageError is input the run cannot start from (exit code 2): no spec, an
// unknown node, an unknown check id.
type UsageError struct{ Err error }

// Error returns the underlying message.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying problem.
func (e *UsageError) Unwrap() error { return e.Err }

// Run executes the selected checks one after another, each under its own
// timeout, and returns the report. A *UsageError means nothing
// ran. A check that overruns its timeout or panics becomes a fail; the run
// itself always returns.
func Run(ctx context.Context, opts Options) (Report, error) {
	selected, err := Select(opts.Only, opts.Skip)
	if err != nil {
		return Report{}, &UsageError{err}
	}
	if len(opts.Roles) > 0 && opts.Role == nil {
		opts.Role, opts.Deployment = opts.Roles[0], opts.Roles[0].Deployment
	}
	if opts.Pool != "" {
		r, err := poolNamed(opts.Roles, opts.Pool)
		if err != nil {
			return Report{}, &UsageError{err}
		}
		opts.Role, opts.Deployment = r, r.Deployment
	}
	e, err := newEnv(opts)
	if err != nil {
		return Report{}, &UsageError{err}
	}
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	pools := []*env{e}
	if len(opts.Roles) > 1 && opts.Pool == "" {
		pools = nil
		for i, r := range opts.Roles {
			pe, err := e.forRole(r)
			if err != nil {
				return Report{}, &UsageError{err}
			}
			if i > 0 {
				pe.opts.RouterPort = 0 // the node's router is checked once, with the first pool's ports
			}
			pools = append(pools, pe)
		}
	}
	rep := Report{Node: e.node.Name}
	for _, c := range selected {
		if ctx.Err() != nil {
			break // interrupted: report what ran
		}
		envs := []*env{e}
		if c.perPool {
			envs = pools
		}
		for _, ce := range envs {
			var res Result
			if opts.RouterOnly && !routerChecks[c.Code] {
				res = routerOnlySkip(ce)
			} else {
				res = runOne(ctx, c, ce, timeout)
			}
			res.ID, res.Code = c.ID, c.Code
			if res.Path == "" { // a check may point at a narrower field than its own
				res.Path = c.pathFor(ce)
			}
			if c.perPool && ce.opts.Role != nil {
				res.Pool = ce.opts.Role.Name
			}
			rep.Results = append(rep.Results, res)
		}
	}
	return rep, nil
}

// runOne runs c in its own goroutine so that a check stuck in a system call
// the context cannot interrupt (a read on a hung NFS mount) still lets the
// run go on; the stuck goroutine is abandoned and dies with the process.
func runOne(parent context.Context, c Check, e *env, timeout time.Duration) Result {
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	done := make(chan Result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fail(fmt.Sprintf("internal error: %v", p), "", "report this as a vlaunch bug")
			}
		}()
		done <- c.run(ctx, e)
	}()
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		return fail("no answer within "+timeout.String(), "", "the host is slow or a mount hangs; rerun with a larger --timeout")
	}
}

// findNode returns the index of the named node or a usage error listing the names.
func findNode(nodes []specNode, name string) (int, error) {
	names := make([]string, len(nodes))
	for i, n := range nodes {
		if n.Name == name {
			return i, nil
		}
		names[i] = n.Name
	}
	if name == "" {
		return 0, fmt.Errorf("--node is required (one of: %s)", strings.Join(names, ", "))
	}
	return 0, fmt.Errorf("node %q is not in hardware.nodes (known: %s)", name, strings.Join(names, ", "))
}

// poolNamed is the pool of the shared node's Roles called name (`--pool`).
func poolNamed(roles []*resolve.Role, name string) (*resolve.Role, error) {
	var names []string
	for _, r := range roles {
		if r.Name == name {
			return r, nil
		}
		names = append(names, r.Name)
	}
	if len(roles) < 2 {
		return nil, fmt.Errorf("--pool %s: the node is not shared by both pools (only a node both pools name runs two)", name)
	}
	return nil, fmt.Errorf("--pool %s: no such pool on this node (%s)", name, strings.Join(names, ", "))
}
