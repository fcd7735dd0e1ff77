package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vlaunch/vlaunch/schemas"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// modulePath is the path users `go install`; README's Install section
// names it, and TestGoInstall installs it the way they do.
const modulePath = "github.com/vlaunch/vlaunch"

// README's Install lines, which TestGoInstall runs (readmeRelease with the
// arguments as the shell passes them: releaseArgs).
const (
	readmeInstall = "go install " + modulePath + "/cmd/vlaunch@latest"
	readmeRelease = `go build -ldflags "-X main.version=v1.2.3" -o vlaunch ./cmd/vlaunch`
)

var releaseArgs = []string{"build", "-ldflags", "-X main.version=v1.2.3", "-o", "vlaunch", "./cmd/vlaunch"}

// TestReadmeInstallLines: README shows the commands TestGoInstall runs, and
// the editor modeline `vlaunch init` writes.
func TestReadmeInstallLines(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{readmeInstall, readmeRelease, modelinePrefix + schemas.DeploymentID} {
		if !bytes.Contains(readme, []byte("\n"+line+"\n")) {
			t.Errorf("README.md has no line %q", line)
		}
	}
	if got := strings.Join(append([]string{"go"}, releaseArgs...), " "); got != strings.ReplaceAll(readmeRelease, `"`, "") {
		t.Errorf("releaseArgs %q are not README's %q", got, readmeRelease)
	}
}

// TestGoInstall runs README's install command, `go install
// github.com/vlaunch/vlaunch/cmd/vlaunch@latest`, verbatim, against a module
// proxy that serves this checkout (the files a commit of it would hold) as
// the latest version, a pseudo-version as for an untagged commit, into a
// fresh GOPATH and GOBIN; then the installed binary must print that version
// (`--version`: the module version Go records, the only provenance of an
// installed binary) and write and validate an embedded example. So the module
// path, the module zip (every embedded file inside it, no nested module in
// it), go.sum and the version read-out are checked as users meet them.
// It also builds a release binary as README does, with -ldflags.
//
// The dependencies come from this machine's module cache first (a module
// cache's download directory is a proxy layout) and then the Go module
// proxy; the build cache is the shared one. The install compiles every
// package afresh (from a new module cache directory): 30 to 45 s on two
// cores, so it runs when VLAUNCH_TEST_INSTALL=1, which .ci/run sets; in CI
// (CI=true) without it, or without a go command, it fails rather than skip.
func TestGoInstall(t *testing.T) {
	if os.Getenv("VLAUNCH_TEST_INSTALL") != "1" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but VLAUNCH_TEST_INSTALL is not 1: README's go install goes untested (.ci/run sets it)")
		}
		t.Skip("go install from a module proxy of this checkout (30 to 45 s): set VLAUNCH_TEST_INSTALL=1")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to run `go install` with: %v", err)
	}
	root := moduleRoot(t, goCmd)
	tmp := t.TempDir()
	proxy := filepath.Join(tmp, "proxy")
	version := pseudoVersion(t, root)
	serveModule(t, root, proxy, version)

	hostCache := goEnv(t, goCmd, "GOMODCACHE")
	gopath := filepath.Join(tmp, "gopath")
	gobin := filepath.Join(tmp, "bin")
	env := append(os.Environ(),
		"GOENV=off", // no go env file of this machine's settings
		"GOPATH="+gopath,
		"GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"),
		"GOBIN="+gobin,
		"GOCACHE="+goEnv(t, goCmd, "GOCACHE"),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(hostCache, "cache", "download"))+",https://proxy.golang.org",
		// The checksum database cannot know this build of the module:
		// only ours skips it; the dependencies are checked against the
		// module's go.sum as for every user.
		"GONOSUMDB="+modulePath,
		"GOPRIVATE=", "GONOPROXY=", "GOINSECURE=",
		"GOFLAGS=", // no -mod, -count or -buildvcs of the test run
		"GOTOOLCHAIN=local",
		"GOWORK=off",
	)

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	work := filepath.Join(tmp, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	goRun(ctx, t, work, env, goCmd, strings.Fields(readmeInstall)[1:]...)
	t.Logf("%s took %s", readmeInstall, time.Since(start).Round(time.Millisecond))

	bin := filepath.Join(gobin, "vlaunch")
	if out := goRun(ctx, t, work, env, bin, "--version"); out != "vlaunch version "+version+"\n" {
		t.Errorf("installed vlaunch --version printed %q, want the module version %s", out, version)
	}
	goRun(ctx, t, work, env, bin, "init", "--example", "qwen3-30b-a3b-1xh100", "--out-file", "spec.yaml")
	goRun(ctx, t, work, env, bin, "validate", "spec.yaml")

	// README's release build, in the checkout, its -o pointed at the test's
	// directory: the -ldflags version wins over the build's own.
	start = time.Now()
	args := slices.Clone(releaseArgs)
	release := filepath.Join(tmp, "release", "vlaunch")
	args[slices.Index(args, "-o")+1] = release
	goRun(ctx, t, root, env, goCmd, args...)
	t.Logf("%s took %s", readmeRelease, time.Since(start).Round(time.Millisecond))
	if out := goRun(ctx, t, work, env, release, "--version"); out != "vlaunch version v1.2.3\n" {
		t.Errorf("%s: --version printed %q, want v1.2.3", readmeRelease, out)
	}
}

// TestModuleZipAcceptsCheckout is TestGoInstall's cheap half, run by every
// `go test`: Go's module zip must accept every file of the checkout, since
// one it refuses (a ':' in a name, a case-insensitive clash) makes the
// whole module impossible to `go install` or `go get`.
func TestModuleZipAcceptsCheckout(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to find the module with")
	}
	cf, err := modzip.CheckFiles(checkoutFiles(t, moduleRoot(t, goCmd)))
	if err != nil {
		t.Errorf("a module zip of this checkout is refused, so `go install %s/cmd/vlaunch@latest` would fail: %v", modulePath, err)
	}
	if len(cf.Valid) < 100 {
		t.Errorf("only %d files would be served: the checkout was not found", len(cf.Valid))
	}
}

// goRun runs a command in dir and returns its standard output; a failure
// ends the test with everything it printed.
func goRun(ctx context.Context, t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", filepath.Base(name), strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

func goEnv(t *testing.T, goCmd, key string) string {
	t.Helper()
	out, err := exec.Command(goCmd, "env", key).Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("go env %s: %q %v", key, out, err)
	}
	return strings.TrimSpace(string(out))
}

// moduleRoot is the directory of this module's go.mod.
func moduleRoot(t *testing.T, goCmd string) string {
	t.Helper()
	gomod := goEnv(t, goCmd, "GOMOD")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("module "+modulePath+"\n")) {
		t.Fatalf("%s does not declare module %s: README's install command would not find it", gomod, modulePath)
	}
	return filepath.Dir(gomod)
}

// pseudoVersion is the version Go gives an untagged commit, for the
// checkout's HEAD when git can tell it (a stand-in otherwise).
func pseudoVersion(t *testing.T, root string) string {
	t.Helper()
	rev, when := "000000000000", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	out, err := exec.Command("git", "-C", root, "log", "-1", "--format=%H %ct").Output()
	if f := strings.Fields(string(out)); err == nil && len(f) == 2 && len(f[0]) >= 12 {
		var sec int64
		if _, err := fmt.Sscan(f[1], &sec); err == nil {
			rev, when = f[0][:12], time.Unix(sec, 0).UTC()
		}
	}
	return module.PseudoVersion("v0", "", when, rev)
}

// serveModule writes a GOPROXY directory (the layout of `go help
// goproxy`) serving the module at root as version, also as @latest.
func serveModule(t *testing.T, root, dir, version string) {
	t.Helper()
	mod := module.Version{Path: modulePath, Version: version}
	vdir := filepath.Join(dir, filepath.FromSlash(modulePath), "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	if err := modzip.Create(&zbuf, mod, checkoutFiles(t, root)); err != nil {
		t.Fatalf("module zip: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": "2026-01-01T00:00:00Z"})
	for name, data := range map[string][]byte{
		"list":            nil, // no release tags: go asks for @latest
		version + ".info": info,
		version + ".mod":  gomod,
		version + ".zip":  zbuf.Bytes(),
		"../@latest":      info, // $module/@latest, beside @v
	} {
		if err := os.WriteFile(filepath.Join(vdir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := modzip.CheckZip(mod, filepath.Join(vdir, version+".zip")); err != nil {
		t.Fatalf("the module zip is not one Go accepts: %v", err)
	}
	t.Logf("module zip: %d KiB", zbuf.Len()>>10)
}

// checkoutFiles are the files a commit of the checkout would hold: those
// git tracks and the new ones it does not ignore, as they are on disk
// (edits included); modzip.Create leaves out what a module zip cannot hold
// (the nested module tools/aicdata). Outside a git checkout, every file.
func checkoutFiles(t *testing.T, root string) []modzip.File {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: git ls-files: %v", err)
		}
		t.Logf("not a git checkout (%v): zipping every file", err)
		var files []modzip.File
		_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				rel, _ := filepath.Rel(root, p)
				files = append(files, diskFile{root, filepath.ToSlash(rel)})
			}
			return nil
		})
		return files
	}
	var files []modzip.File
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p == "" {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link: not served
		}
		files = append(files, diskFile{root, p})
	}
	return files
}

// diskFile is a file of the checkout as modzip.Create reads it.
type diskFile struct{ root, slash string }

func (f diskFile) Path() string { return f.slash }
func (f diskFile) Lstat() (os.FileInfo, error) {
	return os.Lstat(filepath.Join(f.root, filepath.FromSlash(f.slash)))
}
func (f diskFile) Open() (io.ReadCloser, error) {
	return os.Open(filepath.Join(f.root, filepath.FromSlash(f.slash)))
}
