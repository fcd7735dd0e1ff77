package launch

import (
	"path"
	"strings"
)

// mount is one host path bound into a container at ctr.
type mount struct{ host, ctr string }

// parseVolume reads `-v HOST:CTR[:opts]` (a bind mount; a named volume has
// no slash in its source and is no host path).
func parseVolume(spec string) (mount, bool) {
	parts := strings.Split(spec, ":")
	if len(parts) < 2 || !strings.ContainsAny(parts[0], "/.$~") {
		return mount{}, false
	}
	return mount{host: parts[0], ctr: parts[1]}, true
}

// parseMountOpt reads `--mount type=bind,source=H,target=C`.
func parseMountOpt(spec string) (mount, bool) {
	var m mount
	bind := false
	for _, kv := range strings.Split(spec, ",") {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "type":
			bind = v == "bind"
		case "source", "src":
			m.host = v
		case "target", "destination", "dst":
			m.ctr = v
		}
	}
	return m, bind && m.host != "" && m.ctr != ""
}

// hostPath translates a path inside the container to the host path bound
// there: an exact file mount or a directory mount that contains it; false
// when no mount covers it (a file of the image itself).
func (c *containerCtx) hostPath(p string) (string, bool) {
	if c.sharesCwd && !path.IsAbs(p) {
		return p, true
	}
	p = path.Clean(p)
	for i := len(c.mounts) - 1; i >= 0; i-- { // a later mount shadows an earlier one
		m := c.mounts[i]
		ctr := path.Clean(m.ctr)
		if p == ctr {
			return m.host, true
		}
		if rest, ok := strings.CutPrefix(p, strings.TrimSuffix(ctr, "/")+"/"); ok {
			return strings.TrimSuffix(m.host, "/") + "/" + rest, true
		}
	}
	return "", false
}

// isScriptPath reports a word that names a shell script run as a command
// (`./start.sh`, `/opt/start.bash`).
func isScriptPath(t string) bool {
	return strings.HasSuffix(t, ".sh") || strings.HasSuffix(t, ".bash")
}

// scriptRun records that the command runs the script file at p, with the
// environment and container it runs in (KindScriptRun), and the arguments
// it is given after the path (Args[1:], the script's $1, $2, ...). In a
// container the path is translated to the host file mounted there; a
// script of the image itself is not recorded (no input can be it).
func (w *walker) scriptRun(cc *cmdCtx, p Value, args []Value) {
	host := p.Text
	if c := w.ctx.container; c != nil {
		h, ok := c.hostPath(p.Text)
		if !ok {
			return
		}
		host = h
	}
	at := Value{Text: host, Known: p.Known, Pos: p.Pos, Unresolved: p.Unresolved}
	w.fe.invs = append(w.fe.invs, w.newInvocation(cc, KindScriptRun, p, "runs "+p.Text, append([]Value{at}, args...)))
}
