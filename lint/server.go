package lint

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// server is a serve invocation with its argv parsed for its release.
type server struct {
	Inv *launch.Invocation
	Rel vllm.Release
	// Stated is false when nothing names the release (Rel is the newest).
	Stated bool
	// Model is the served model (positional or --model), nil when absent.
	Model *launch.Value
	p     parsed
	// kv is the parsed --kv-transfer-config (KV), read once.
	kv *kvTransfer
}

// Flags returns every option in order.
func (s *server) Flags() []*cliFlag { return s.p.flags }

// Flag returns the last occurrence of a canonical flag (argparse: last wins).
func (s *server) Flag(name string) *cliFlag {
	for i := len(s.p.flags) - 1; i >= 0; i-- {
		if s.p.flags[i].Name == name && !s.p.flags[i].OtherRelease {
			return s.p.flags[i]
		}
	}
	return nil
}

// Has reports whether a switch is on (given and not negated).
func (s *server) Has(name string) bool {
	f := s.Flag(name)
	return f != nil && !f.Negated
}

// intArg is an integer setting: set says the flag was given, known that its
// value could be resolved.
type intArg struct {
	N          int
	Set, Known bool
	At         launch.Pos
}

// FromConfig reports a flag that is absent from the command line while a
// --config file (not linted), or an array the linter could not resolve
// (`"${COMMON_ARGS[@]}"` from a sourced file: any number of flags), may
// set it.
func (s *server) FromConfig(name string) bool {
	return s.Flag(name) == nil && (s.Flag("config") != nil || s.unresolvedArray())
}

// unresolvedArray reports an argument that is the expansion of an array
// the linter could not resolve.
func (s *server) unresolvedArray() bool {
	for _, a := range s.p.opaque {
		if arrayExpansion.MatchString(a.Text) {
			return true
		}
	}
	return false
}

// arrayExpansion matches ${NAME[@]} and ${NAME[*]}.
var arrayExpansion = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\[[@*]\]\}$`)

// Int reads an integer flag, with def when it is absent (unknown when a
// --config file may set it).
func (s *server) Int(name string, def int) intArg {
	f := s.Flag(name)
	if f == nil {
		return intArg{N: def, Known: !s.FromConfig(name)}
	}
	if f.Value == nil {
		return intArg{Set: true, At: f.At.Pos}
	}
	n, err := strconv.Atoi(strings.TrimSpace(f.Value.Text))
	return intArg{N: n, Set: true, Known: f.Value.Known && err == nil, At: f.Value.Pos}
}

// Str reads a string flag's value.
func (s *server) Str(name string) (launch.Value, bool) {
	f := s.Flag(name)
	if f == nil || f.Value == nil {
		return launch.Value{}, false
	}
	return *f.Value, true
}

// TP, PP and DP are the parallel sizes (1 when unset).
func (s *server) TP() intArg { return s.Int("tensor-parallel-size", 1) }

// PP is the pipeline-parallel size.
func (s *server) PP() intArg { return s.Int("pipeline-parallel-size", 1) }

// DP is the global data-parallel size.
func (s *server) DP() intArg { return s.Int("data-parallel-size", 1) }

// DPL is the local data-parallel size; unset means all of DP (mp backend).
func (s *server) DPL() intArg {
	a := s.Int("data-parallel-size-local", 0)
	if !a.Set && s.Flag("data-parallel-rank") != nil {
		// external LB: the process is one rank. vllm/engine/arg_utils.py
		// create_engine_config: "data_parallel_external_lb =
		// self.data_parallel_rank is not None ... data_parallel_size_local
		// = 1" (0.11 tree Yuran-7/vllm-0.11@2665d4910 lines 1232-1238; the
		// same in a later tree, search index file 7464787).
		return intArg{N: 1, Known: true}
	}
	if !a.Set {
		dp := s.DP()
		return intArg{N: dp.N, Known: dp.Known}
	}
	return a
}

// Headless reports --headless.
func (s *server) Headless() bool { return s.Has("headless") }

// StartRank is --data-parallel-start-rank (0 when unset).
func (s *server) StartRank() intArg { return s.Int("data-parallel-start-rank", 0) }

// EP reports --enable-expert-parallel.
func (s *server) EP() bool { return s.Has("enable-expert-parallel") }

// RayDP reports the Ray DP backend, which places ranks itself.
func (s *server) RayDP() bool {
	v, ok := s.Str("data-parallel-backend")
	return ok && v.Text == "ray"
}

// Backend returns the all-to-all backend the server runs and where it came
// from, by vLLM's precedence of flag, variable and release default
// (vllm.Release.All2AllSelected); set is false for the default.
func (s *server) Backend() (name string, at launch.Pos, set bool) {
	flag, hasFlag := s.Str("all2all-backend")
	env, hasEnv := s.Inv.LookupEnv(vllm.All2AllEnv)
	var flagText, envText string
	if hasFlag {
		flagText = flag.Text
	}
	if hasEnv {
		envText = env.Value.Text
	}
	name, via := s.Rel.All2AllSelected(flagText, envText)
	switch via {
	case vllm.ViaFlag:
		return name, flag.Pos, true
	case vllm.ViaEnv:
		return name, env.Value.Pos, true
	}
	return name, s.Inv.Pos, false
}

// MultiNodeDP reports whether this server is one node of a DP deployment
// spanning several nodes.
func (s *server) MultiNodeDP() bool {
	if s.RayDP() {
		return false
	}
	dp, dpl := s.DP(), s.Int("data-parallel-size-local", 0)
	if s.Headless() && s.Flag("nnodes") == nil && dp.N > 1 {
		return true
	}
	if dpl.Set && dpl.Known && dp.Known && dpl.N < dp.N {
		return true
	}
	if sr := s.StartRank(); sr.Set && (!sr.Known || sr.N > 0) {
		return true
	}
	if a, ok := s.Str("data-parallel-address"); ok && dp.N > 1 && !isLoopback(a.Text) {
		return true
	}
	return false
}

// NNodes returns --nnodes (1 when unset).
func (s *server) NNodes() intArg { return s.Int("nnodes", 1) }

// isLoopback reports addresses that only reach the local host.
func isLoopback(a string) bool {
	return a == "localhost" || strings.HasPrefix(a, "127.") || a == "::1" || a == "0.0.0.0"
}

// newServer parses a serve invocation for rel.
func newServer(inv *launch.Invocation, rel vllm.Release, stated bool) *server {
	s := &server{Inv: inv, Rel: rel, Stated: stated, p: parseArgs(inv.Args, rel, inv.Frontend)}
	if len(s.p.positional) > 0 {
		m := s.p.positional[0]
		// `vllm serve $MODEL \ # comment`: the unresolved first word is the
		// model, not the stray word after it.
		// Order by place in the argument list: a value's Pos is where it
		// was written, which for a variable is its assignment.
		if o := firstModelLike(s.p.opaque); o != nil && argIndex(inv.Args, *o) < argIndex(inv.Args, m) {
			m = *o
		}
		s.Model = &m
	} else if v, ok := s.Str("model"); ok {
		s.Model = &v
	}
	return s
}

// argsBundle matches the names scripts give a variable holding optional
// flags (SPEC_ARGS, EXTRA_ARGS, VLLM_OPTS, KV_FLAGS): expanded unquoted it
// is zero or more options, not the model.
var argsBundle = regexp.MustCompile(`(?i)(^|_)(ARGS?|OPTS|OPTIONS|FLAGS|PARAMS|EXTRA)(_|$)`)

// firstModelLike is the first unresolved word that may be the model: not
// a variable named as a bundle of flags (`vllm serve $SPEC_ARGS org/model`
// serves org/model), nil when there is none.
func firstModelLike(opaque []launch.Value) *launch.Value {
	for i, o := range opaque {
		bundle := len(o.Unresolved) > 0
		for _, n := range o.Unresolved {
			bundle = bundle && argsBundle.MatchString(n)
		}
		if !bundle {
			return &opaque[i]
		}
	}
	return nil
}

// argIndex is the place of v in args (len(args) when absent).
func argIndex(args []launch.Value, v launch.Value) int {
	for i, a := range args {
		if a.Pos == v.Pos && a.Text == v.Text {
			return i
		}
	}
	return len(args)
}

// onlyDefault turns the findings p reported from index n on into warnings
// (naming target, the address to set) when v is only the script's ${X:-d} default of caller variables
// (launch.Value.FromDefaults): the caller is expected to set X per node, so
// the loopback is what runs only when it does not. A fixed literal keeps
// the rule's severity.
func onlyDefault(p *pass, n int, v launch.Value, target string) {
	if len(v.FromDefaults) == 0 {
		return
	}
	for i := n; i < len(*p.out); i++ {
		d := &(*p.out)[i]
		d.Severity = diag.Warning
		d.Message += fmt.Sprintf(" (%s is only the default of %s: set it to %s on each node)",
			strings.TrimSpace(v.Text), strings.Join(v.FromDefaults, ", "), target)
	}
}
