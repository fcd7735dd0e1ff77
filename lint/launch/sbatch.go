package launch

import (
	"strconv"
	"strings"
)

// sbatchScope is the shell a Slurm batch script starts in: with
// `#SBATCH -N n` (or --nodes=n) Slurm runs it with SLURM_JOB_NUM_NODES and
// SLURM_NNODES set to n (sbatch(1), OUTPUT ENVIRONMENT VARIABLES: "Total
// number of nodes in the job's resource allocation"), so
// `./start_head.sh $SLURM_NNODES` passes n (QA41: an OLCF Frontier script
// passes it as the pipeline-parallel size). The variables are not marked
// exported: a job step that srun starts sees its own node count there, so
// a child shell gets nothing rather than the job's count. A range (-N 2-4)
// leaves the count to the scheduler: nothing is set.
func sbatchScope(src *source) *scope {
	sc := newScope()
	n, at, ok := sbatchNodes(src.data)
	if !ok {
		return sc
	}
	for _, name := range []string{"SLURM_NNODES", "SLURM_JOB_NUM_NODES"} {
		sc.vars[name] = &shVar{val: knownValue(n, at), inherited: true, setAt: at}
	}
	return sc
}

// sbatchNodes reads the node count of a batch script's #SBATCH directives:
// those before its first command (sbatch stops at the first line that is
// neither blank nor a comment); the last one wins, as options do.
func sbatchNodes(data []byte) (string, Pos, bool) {
	var n string
	var at Pos
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(strings.TrimRight(raw, "\r"))
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "#") {
			break
		}
		rest, ok := strings.CutPrefix(line, "#SBATCH")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		for j := 0; j < len(f); j++ {
			w := f[j]
			if strings.HasPrefix(w, "#") {
				break // a comment after the options
			}
			var v string
			switch {
			case w == "-N" || w == "--nodes":
				if j+1 < len(f) {
					j++
					v = f[j]
				}
			case strings.HasPrefix(w, "--nodes="):
				v = strings.TrimPrefix(w, "--nodes=")
			case strings.HasPrefix(w, "-N") && len(w) > 2:
				v = strings.TrimPrefix(w[2:], "=")
			default:
				continue
			}
			n, at = v, Pos{Line: i + 1, Col: strings.Index(raw, v) + 1}
		}
	}
	if k, err := strconv.Atoi(n); err != nil || k < 1 {
		return "", Pos{}, false
	}
	return n, at, true
}
