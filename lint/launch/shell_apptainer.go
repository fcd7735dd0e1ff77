package launch

import "strings"

// apptainerValueOpts are apptainer/singularity exec options that take a value.
var apptainerValueOpts = map[string]bool{
	"bind": true, "B": true, "env": true, "env-file": true, "pwd": true, "home": true, "H": true,
	"overlay": true, "o": true, "mount": true, "network": true, "network-args": true, "security": true,
	"workdir": true, "W": true, "app": true, "hostname": true, "scratch": true, "S": true,
}

// apptainer follows `apptainer exec [opts] IMAGE CMD...` into the container.
// The host environment passes through unless --cleanenv or --containall;
// the current directory is bound and is the container's working directory
// unless --contain, --containall, --no-mount or --pwd (Apptainer user guide,
// "Bind Paths and Mounts": $PWD is a system-defined bind path), so
// `apptainer exec x.sif ./start.sh` runs the host's start.sh.
func (w *walker) apptainer(cc *cmdCtx, i int) {
	f := cc.fields
	c := &containerCtx{info: Container{Runtime: "apptainer", Pos: f[0].Pos, HostIPC: true, HostNetwork: true, HasShm: true}}
	clean, cwd := false, true
	for ; i < len(f) && strings.HasPrefix(f[i].Text, "-"); i++ {
		name, val, hasVal := strings.Cut(strings.TrimLeft(f[i].Text, "-"), "=")
		v := f[i].Slice(len(f[i].Text)-len(val), len(f[i].Text))
		if !hasVal && apptainerValueOpts[name] && i+1 < len(f) {
			i++
			v, hasVal = f[i], true
		}
		switch name {
		case "cleanenv", "e":
			clean = true
		case "containall", "C":
			clean, cwd = true, false
		case "contain", "c", "no-mount", "pwd":
			cwd = false
		case "env":
			c.env = append(c.env, w.dockerEnv(v))
		case "env-file":
			c.envOpen = true
		}
	}
	if i+1 >= len(f) {
		return
	}
	if !clean {
		c.env = append(append(w.exported(), cc.env...), c.env...)
	} else if !c.envOpen {
		c.hostOnly = w.hostOnly(cc, c.env)
	}
	c.sharesCwd = cwd
	// The image (a .sif file, a docker:// URI) names the release it holds
	// often enough to read it (imageVersion: "vllm0141rocm72.sif").
	c.image, c.version = f[i].Text, imageVersion(f[i].Text)
	ctx := w.ctx
	ctx.container = c
	inner := &walker{fe: w.fe, src: w.src, sc: containerScope(c.env), ctx: ctx}
	inner.command(&cmdCtx{stmt: cc.stmt, fields: f[i+1:]}, 0)
}
