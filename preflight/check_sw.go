package preflight

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
)

// containerSkip skips software checks when vLLM runs inside an image: what
// is installed on the host does not matter then.
func (e *env) containerSkip() (Result, bool) {
	if k := e.d.Runtime.Kind; k == "docker" || k == "kubernetes" {
		return skip(fmt.Sprintf("runtime %s: vLLM and its packages come from image %s", k, orUnknown(e.d.Runtime.Image))), true
	}
	return Result{}, false
}

// vllmCommand is how the bundle invokes vLLM (runtime.vllm_binary, which
// may carry a launcher prefix such as "uv run vllm").
func (e *env) vllmCommand() []string {
	if f := strings.Fields(e.d.Runtime.VLLMBinary); len(f) > 0 {
		return f
	}
	return []string{"vllm"}
}

// python is the interpreter next to the vllm entry point when the binary
// is a path (a virtualenv's bin/), else python3 from PATH.
func (e *env) python() string {
	cmd := e.vllmCommand()
	bin := cmd[len(cmd)-1]
	if strings.Contains(bin, "/") {
		return path.Join(path.Dir(bin), "python3")
	}
	return "python3"
}

func checkVLLMVersion(ctx context.Context, e *env) Result {
	if r, ok := e.containerSkip(); ok {
		return r
	}
	want := e.d.VLLM.Version
	if want == "" {
		return skip("the spec has no vllm.version")
	}
	got, how, err := e.installedVLLM(ctx)
	if err != nil {
		return fail(err.Error(), want, "install vLLM "+want+" (`pip install vllm=="+want+"`) or point runtime.vllm_binary at it")
	}
	found := got + " (" + how + ")"
	switch versionMatch(got, want) {
	case Pass:
		return pass(found, want)
	case Warn:
		return warn(found, want, "same minor release, different patch: flags match, but install "+want+" to run what was planned")
	}
	return fail(found, want, "flags and defaults differ between vLLM versions: install "+want+" or set vllm.version to "+baseVersion(got)+" and regenerate")
}

// installedVLLM asks the vllm entry point, then Python, for the version.
func (e *env) installedVLLM(ctx context.Context) (version, how string, err error) {
	cmd := e.vllmCommand()
	out, err := e.run(ctx, cmd[0], append(cmd[1:], "--version")...)
	if err == nil {
		if v := lastLine(string(out)); v != "" {
			return v, strings.Join(cmd, " ") + " --version", nil
		}
	}
	if ctx.Err() != nil {
		return "", "", ctx.Err()
	}
	py := e.python()
	out, perr := e.run(ctx, py, "-c", pyImport("vllm")+"; print(vllm.__version__)")
	if perr == nil {
		return lastLine(string(out)), py + " -c 'import vllm'", nil
	}
	if errors.Is(err, ErrNotFound) && errors.Is(perr, ErrNotFound) {
		return "", "", fmt.Errorf("neither %s nor %s is installed", cmd[0], py)
	}
	return "", "", fmt.Errorf("vLLM not importable: %v", perr)
}

// versionMatch compares "0.11.0+cu128" with "0.11.0": same release passes,
// same major.minor warns, anything else fails.
func versionMatch(got, want string) Status {
	g, w := baseVersion(got), baseVersion(want)
	if g == w {
		return Pass
	}
	if minor(g) == minor(w) {
		return Warn
	}
	return Fail
}

// baseVersion drops a local "+cu128" suffix and a leading "v".
func baseVersion(v string) string {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	v, _, _ = strings.Cut(v, "+")
	return v
}

func minor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// pyImport imports mod without the current directory on sys.path: python -c
// puts it first, and a directory named like the module (a source checkout)
// would shadow the installed package. (-P does this too, but only from 3.11.)
func pyImport(mod string) string {
	return "import sys; sys.path = [p for p in sys.path if p not in ('', '.')]; import " + mod
}

// backendModule is a Python module a backend imports; optional ones only
// make vLLM fall back to slower kernels.
type backendModule struct {
	Name     string
	Optional bool
}

func checkBackendPackages(ctx context.Context, e *env) Result {
	if !e.deepEP() {
		return skip(fmt.Sprintf("all2all backend %s needs no extra packages", e.backend()))
	}
	if r, ok := e.containerSkip(); ok {
		return r
	}
	mods := []backendModule{{"deep_ep", false}, {"deep_gemm", true}}
	want := "deep_ep imports (deep_gemm recommended)"
	py := e.python()
	var missing, optional, ok []string
	for _, m := range mods {
		_, err := e.run(ctx, py, "-c", pyImport(m.Name))
		switch {
		case err == nil:
			ok = append(ok, m.Name)
		case m.Optional:
			optional = append(optional, m.Name+": "+err.Error())
		default:
			missing = append(missing, m.Name+": "+err.Error())
		}
	}
	if len(missing) > 0 {
		return fail(strings.Join(append(missing, optional...), "; "), want,
			"build DeepEP and NVSHMEM with vLLM's tools/ep_kernels/install_python_libraries.sh in the same environment as vLLM")
	}
	if len(optional) > 0 {
		return warn(strings.Join(optional, "; "), want, "install DeepGEMM (tools/ep_kernels) for the FP8 grouped GEMMs; vLLM falls back to slower kernels without it")
	}
	return pass(strings.Join(ok, ", ")+" import", want)
}
