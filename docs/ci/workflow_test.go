// Package ci holds the CI recipes users copy (github-actions.yml) and the
// tests that keep them valid.
package ci

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// workflow is the recipe README.md documents.
const workflow = "github-actions.yml"

// lintWorkflow runs actionlint over a workflow's content, with shellcheck
// on its run: scripts when it is installed (required in CI, as for the
// generator's scripts).
func lintWorkflow(t *testing.T, content []byte) []*actionlint.Error {
	t.Helper()
	opts := &actionlint.LinterOptions{}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = sc
	} else if os.Getenv("CI") == "true" {
		t.Fatal("shellcheck is not installed; CI must check the workflow's scripts with it (.ci/run installs it)")
	} else {
		t.Log("shellcheck not installed: the workflow's run: scripts are not shellchecked")
	}
	l, err := actionlint.NewLinter(io.Discard, opts)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.Lint(workflow, content, nil)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// TestWorkflowPassesActionlint: the recipe has no actionlint finding.
func TestWorkflowPassesActionlint(t *testing.T) {
	data, err := os.ReadFile(workflow)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range lintWorkflow(t, data) {
		t.Errorf("%s:%d:%d: %s [%s]", workflow, e.Line, e.Column, e.Message, e.Kind)
	}
	// What the recipe is for: the SARIF upload pinned to a release, with
	// the permission it needs.
	for _, want := range []string{"vlaunch lint --output sarif", "github/codeql-action/upload-sarif@v4", "security-events: write", "vlaunch validate --only-specs"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %q", workflow, want)
		}
	}
}

// TestActionlintFindsMistakes shows the check above can fail: copies of the
// recipe with one mistake planted each get a finding of the expected kind.
func TestActionlintFindsMistakes(t *testing.T) {
	data, err := os.ReadFile(workflow)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to, kind string }{
		{"unknown permission scope", "security-events: write", "security-event: write", "permissions"},
		{"broken expression", "${{ !cancelled() }}", "${{ !cancelled( }}", "expression"},
		{"unknown action input", "go-version: stable", "go-versoin: stable", "action"},
		{"unquoted expansion in a script", `--output sarif "$DEPLOY_DIR"`, `--output sarif $DEPLOY_DIR`, "shellcheck"},
		{"outdated action", "actions/checkout@v5", "actions/checkout@v2", "action"},
		{"undefined step key", "runs-on: ubuntu-latest", "runs_on: ubuntu-latest", "syntax-check"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := exec.LookPath("shellcheck"); c.kind == "shellcheck" && err != nil && os.Getenv("CI") != "true" {
				t.Skip("shellcheck not installed")
			}
			bad := strings.Replace(string(data), c.from, c.to, 1)
			if bad == string(data) {
				t.Fatalf("%q is not in %s", c.from, workflow)
			}
			errs := lintWorkflow(t, []byte(bad))
			if len(errs) == 0 {
				t.Fatalf("actionlint found nothing in a copy with %s", c.name)
			}
			var kinds []string
			for _, e := range errs {
				if e.Kind == c.kind {
					return
				}
				kinds = append(kinds, e.Kind+": "+e.Message)
			}
			t.Errorf("no %s finding; got %v", c.kind, kinds)
		})
	}
}
