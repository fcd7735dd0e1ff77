package lint

import (
	"fmt"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/lint/launch"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkRepeatedEntrypoint reports `vllm serve` after a vllm/vllm-openai
// image, whose entrypoint already is `vllm serve` (VL304).
func checkRepeatedEntrypoint(p *pass) {
	for _, s := range p.Servers {
		c := s.Inv.Container
		if c != nil && c.ShellAfterImage != nil {
			entry := "`vllm serve`"
			if s.Rel.ImageEntrypointIsAPIServerModule() == vllm.Present {
				entry = "the API server (python3 -m vllm.entrypoints.openai.api_server)"
			}
			p.ReportAt(s.Inv, c.ShellAfterImage.Pos, "add --entrypoint "+c.ShellAfterImage.Text+" before the image (or pass only the server's arguments after it)",
				"the image's entrypoint is %s, so %q and its script become the server's arguments and the script never runs", entry, c.ShellAfterImage.Text)
			continue
		}
		if c == nil || c.RepeatedEntrypoint == nil {
			continue
		}
		if s.Rel.ImageEntrypointIsAPIServerModule() == vllm.Present {
			p.ReportAt(s.Inv, c.RepeatedEntrypoint.Pos, "pass only the server's arguments after the image (or set --entrypoint)",
				"the vLLM %s image's entrypoint already runs the API server (python3 -m vllm.entrypoints.openai.api_server); %q and what follows become arguments it does not accept", s.Rel, c.RepeatedEntrypoint.Text)
			continue
		}
		p.ReportAt(s.Inv, c.RepeatedEntrypoint.Pos, "pass only the serve arguments after the image (or set --entrypoint)", "the image's entrypoint already runs `vllm serve`; repeating it makes %q the model argument", c.RepeatedEntrypoint.Text)
	}
}

// checkDockerShm reports a container without host IPC or a shared-memory
// size: several worker processes (tensor or pipeline parallel, local DP
// engines) share tensors and vLLM's message queue through /dev/shm, and
// NCCL's shared-memory transport uses it, so Docker's 64 MiB is too little
// (VL305). A single-GPU server has no NCCL and one worker: vLLM's docs ask
// for --ipc=host or --shm-size all the same ("particularly for tensor
// parallel inference", docs/deployment/docker.md), so it is a note there
// (qa44a F9).
func checkDockerShm(p *pass) {
	const hint = "add --ipc=host or --shm-size=16g (compose: ipc: host or shm_size)"
	for _, s := range p.Servers {
		c := s.Inv.Container
		if c == nil || c.Runtime != "docker" || c.HostIPC || c.HasShm {
			continue
		}
		if singleProcessServer(s) {
			p.ReportAtSeverity(s.Inv, c.Pos, diag.Info, hint, "container without host IPC or a larger /dev/shm: a single-GPU server (TP × PP = 1, no DP) has no NCCL and one worker, but vLLM's docs still ask for --ipc=host or --shm-size; the 64 MiB default is too little once it runs several workers")
			continue
		}
		p.ReportAt(s.Inv, c.Pos, hint, "container without host IPC or a larger /dev/shm: the 64 MiB default breaks NCCL's shared-memory transport and the workers' shared-memory message queue (tensor/pipeline-parallel or DP workers)")
	}
}

// singleProcessServer reports a server known to run one GPU worker: TP,
// PP and DP all known and 1.
func singleProcessServer(s *server) bool {
	tp, pp, dp := s.TP(), s.PP(), s.DP()
	return tp.Known && pp.Known && dp.Known && tp.N*pp.N*dp.N == 1
}

// checkDockerNetwork reports multi-node containers without host networking (VL306).
func checkDockerNetwork(p *pass) {
	for _, g := range p.Groups {
		if !multiNode(g) {
			continue
		}
		for _, s := range g {
			c := s.Inv.Container
			if c != nil && c.Runtime == "docker" && !c.HostNetwork {
				p.ReportAt(s.Inv, c.Pos, "add --network host", "multi-node container without --network host: the DP/NCCL ports and addresses are not reachable from other nodes")
			}
		}
	}
}

// checkUndefinedRefs reports manifest references to variables nothing defines (VL307).
func checkUndefinedRefs(p *pass) {
	seen := map[string]bool{}
	for _, inv := range p.allInvocations() {
		for _, r := range inv.UndefinedRefs {
			key := fmt.Sprintf("%s:%d:%d:%s", inv.File, r.Pos.Line, r.Pos.Col, r.Text)
			if seen[key] {
				continue
			}
			seen[key] = true
			p.ReportAt(inv, r.Pos, "define it in the container's env (LeaderWorkerSet provides LWS_LEADER_ADDRESS, LWS_GROUP_SIZE, LWS_WORKER_INDEX)", "%s is not defined in the container's environment", r.Text)
		}
		checkParentOnlyRefs(p, inv, seen)
	}
}

// checkParentOnlyRefs reports a child shell's reference to a variable its
// parent assigned without exporting (launch.Invocation.ParentOnlyRefs): a
// child process inherits only the environment, so `bash -c '... $X ...'`
// (or `bash <<'EOF'`) expands X to nothing. A bash array
// cannot be exported at all ("Array variables may not (yet) be exported",
// bash(1), BUGS), an error; a scalar the caller's environment might already
// export (an assignment keeps the export attribute), a warning.
func checkParentOnlyRefs(p *pass, inv *launch.Invocation, seen map[string]bool) {
	for _, r := range inv.ParentOnlyRefs {
		key := fmt.Sprintf("%s:%d:%d:parent:%s", inv.File, r.Ref.Pos.Line, r.Ref.Pos.Col, r.Name)
		if seen[key] {
			continue
		}
		seen[key] = true
		if r.Array {
			p.ReportAt(inv, r.Ref.Pos, "pass the value into the child shell: export a scalar copy of the element, or expand it in the parent (a double-quoted script)",
				"%s is a bash array the parent script sets (line %d); arrays cannot be exported, so the child shell running this command sees it unset and expands it to nothing", r.Name, r.SetAt.Line)
			continue
		}
		p.ReportAtSeverity(inv, r.Ref.Pos, diag.Warning, "write `export "+r.Name+"=...` in the parent, or expand it there (a double-quoted script)",
			"%s is assigned but not exported by the parent script (line %d), so the child shell running this command sees it unset and expands it to nothing (unless the caller's environment already exports it)", r.Name, r.SetAt.Line)
	}
}

// checkHostOnlyEnv reports launch variables the host sets that the
// container never receives (VL308).
func checkHostOnlyEnv(p *pass) {
	for _, s := range p.Servers {
		for _, e := range s.Inv.HostOnlyEnv {
			hint := "pass it with -e " + e.Name + " (or --env-file)"
			if s.Inv.Container != nil && s.Inv.Container.Runtime == "apptainer" {
				hint = "pass it with --env " + e.Name + "=... (--cleanenv drops the host environment)"
			}
			p.ReportAt(s.Inv, e.Pos, hint, "%s is set on the host but not passed into the container", e.Name)
		}
	}
}

func (p *pass) allInvocations() []*launch.Invocation {
	out := append([]*launch.Invocation{}, p.Rays...)
	for _, s := range p.Servers {
		out = append(out, s.Inv)
	}
	return out
}
