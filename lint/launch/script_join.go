package launch

import (
	"mvdan.cc/sh/v3/syntax"
)

// ScriptFile finds the input a run record (KindScriptRun) names: the path
// from the runner's directory (or as given), else the one input with the
// script's base name. "" when none is, or when it would be the runner.
func ScriptFile(files []string, run *Invocation) string {
	return matchInput(files, run.File, run.Args[0].Text)
}

// ParseRunBy parses a shell script as the run record run starts it: with
// the runner's environment inherited (so `--data-parallel-start-rank
// "$START_RANK"` resolves per runner; positions of that environment point
// into the runner's file), on the runner's host, and with its container,
// image, release and GPUs where the script says nothing of them; with the
// arguments the runner gives it as its positional parameters (`srun ...
// ./start_head.sh $SLURM_NNODES`: $1 and $@ are what the runner passes;
// a run with none keeps them unknown, as a script linted alone). node names
// the invocations ("" keeps the script's own names). Scripts the script
// runs in turn are not followed; syntax errors were reported by Parse.
func ParseRunBy(file string, data []byte, run *Invocation, node string) []*Invocation {
	fe := &frontEnd{file: file, funcs: map[string]*syntax.FuncDecl{}}
	env := inFile(run.Env, run.File)
	sc := containerScope(env)
	if len(run.Args) > 1 {
		for _, a := range run.Args[1:] {
			sc.args = append(sc.args, a.inFile(run.File))
		}
		sc.argsKnown = true
	}
	fe.parseAndWalk(shellSource(file, data), sc, walkCtx{host: run.Host})
	var out []*Invocation
	for _, inv := range fe.invs {
		if inv.Kind != KindScriptRun {
			out = append(out, inv.inContextOf(run))
		}
	}
	nameNodes(file, out)
	if node != "" {
		for _, inv := range out {
			inv.Node += " (run by " + node + ")"
		}
	}
	return out
}

// inContextOf gives inv the container, image, GPUs, platform and host of
// the run record r where inv has none of its own.
func (inv *Invocation) inContextOf(r *Invocation) *Invocation {
	if inv.Container == nil && r.Container != nil {
		inv.Container, inv.HostOnlyEnv = r.Container, r.HostOnlyEnv
	}
	if inv.Image == "" {
		inv.Image, inv.ImageVersion = r.Image, r.ImageVersion
	}
	if inv.GPUs == 0 {
		inv.GPUs, inv.GPUSource = r.GPUs, r.GPUSource
	}
	if inv.Platform == "" {
		inv.Platform = r.Platform
	}
	inv.EnvOpen = inv.EnvOpen || r.EnvOpen
	return inv
}

// inFile marks the positions of env as positions in file.
func inFile(env []EnvVar, file string) []EnvVar {
	out := make([]EnvVar, len(env))
	for i, e := range env {
		e.Pos.File = file
		e.Value = e.Value.inFile(file)
		out[i] = e
	}
	return out
}

// inFile is v with every position marked as one in file.
func (v Value) inFile(file string) Value {
	v.Pos.File = file
	if v.pos != nil {
		ps := make([]Pos, len(v.pos))
		for i, p := range v.pos {
			p.File = file
			ps[i] = p
		}
		v.pos = ps
	}
	return v
}
