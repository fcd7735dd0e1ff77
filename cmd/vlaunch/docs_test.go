package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/vlaunch/vlaunch/internal/golden"
	"gopkg.in/yaml.v3"
)

// runDocsCmd runs `vlaunch docs ARGS...` in-process and returns its exit
// code and stderr.
func runDocsCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"docs"}, args...), strings.NewReader(""), &out, &errb)
	return code, errb.String()
}

// readDir returns the files of dir by name.
func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

// TestMarkdownReferenceGolden regenerates the Markdown command reference
// and compares it with docs/commands: a help text changed without its
// reference (or the reverse) fails here; `go test ./cmd/vlaunch -run
// TestMarkdownReferenceGolden -update` rewrites the reference.
func TestMarkdownReferenceGolden(t *testing.T) {
	dir := t.TempDir()
	if code, stderr := runDocsCmd(t, "--markdown", dir); code != 0 {
		t.Fatalf("docs --markdown: exit %d\n%s", code, stderr)
	}
	golden.CheckDir(t, filepath.Join("..", "..", "docs", "commands"), readDir(t, dir))
}

// TestManPages generates the man pages into a temporary directory: every
// command a user can run has a page naming it, its synopsis and each of
// its flags; the pages carry no date unless SOURCE_DATE_EPOCH gives one,
// so two runs write the same bytes.
func TestManPages(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "")
	dir := t.TempDir()
	if code, stderr := runDocsCmd(t, "--man", dir); code != 0 {
		t.Fatalf("docs --man: exit %d\n%s", code, stderr)
	}
	pages := readDir(t, dir)
	var want []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		want = append(want, c)
		for _, k := range c.Commands() {
			if k.IsAvailableCommand() {
				walk(k)
			}
		}
	}
	root := newRoot(&streams{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &bytes.Buffer{}})
	root.InitDefaultCompletionCmd()
	walk(root)
	if len(pages) != len(want) {
		t.Errorf("%d man pages for %d commands", len(pages), len(want))
	}
	th := regexp.MustCompile(`(?m)^\.TH "([^"]*)" "1" "" "vlaunch [^"]*" "vlaunch manual"$`)
	for _, c := range want {
		name := strings.ReplaceAll(c.CommandPath(), " ", "-")
		page, ok := pages[name+".1"]
		if !ok {
			t.Errorf("no man page for %q (%s.1)", c.CommandPath(), name)
			continue
		}
		text := string(page)
		m := th.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("%s.1: no dateless .TH line:\n%.300s", name, text)
		} else if m[1] != strings.ToUpper(name) {
			t.Errorf("%s.1: title %q", name, m[1])
		}
		if !strings.Contains(text, ".SH NAME\n"+name+" - ") {
			t.Errorf("%s.1: NAME section does not name %s", name, name)
		}
		c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(text, `\fB--`+f.Name+`\fP`) {
				t.Errorf("%s.1: flag --%s is not documented", name, f.Name)
			}
		})
		if strings.Contains(text, "Auto generated") {
			t.Errorf("%s.1: carries cobra's dated auto-generated note", name)
		}
	}

	again := t.TempDir()
	if code, _ := runDocsCmd(t, "--man", again); code != 0 {
		t.Fatal("second run failed")
	}
	for name, data := range readDir(t, again) {
		if !bytes.Equal(data, pages[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}

	t.Setenv("SOURCE_DATE_EPOCH", "1764892800") // 2025-12-05
	dated := t.TempDir()
	if code, _ := runDocsCmd(t, "--man", dated); code != 0 {
		t.Fatal("SOURCE_DATE_EPOCH run failed")
	}
	if page := readDir(t, dated)["vlaunch-lint.1"]; !bytes.Contains(page, []byte(`.TH "VLAUNCH-LINT" "1" "Dec 2025" `)) {
		t.Errorf("SOURCE_DATE_EPOCH is not the pages' date:\n%.200s", page)
	}
	t.Setenv("SOURCE_DATE_EPOCH", "yesterday")
	if code, stderr := runDocsCmd(t, "--man", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "SOURCE_DATE_EPOCH") {
		t.Errorf("a bad SOURCE_DATE_EPOCH: exit %d, %q; want a usage error naming it", code, stderr)
	}
}

// TestDocsRefusesToClobber: an existing page is refused without --force
// and nothing at all is written then; --force overwrites vlaunch's pages
// and leaves the directory's other files alone.
func TestDocsRefusesToClobber(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "vlaunch-lint.1")
	other := filepath.Join(dir, "ls.1")
	for _, p := range []string{mine, other} {
		if err := os.WriteFile(p, []byte("mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md := filepath.Join(t.TempDir(), "md")
	code, stderr := runDocsCmd(t, "--man", dir, "--markdown", md)
	if code != exitUsage || !strings.Contains(stderr, "vlaunch-lint.1 exist") || !strings.Contains(stderr, "--force") {
		t.Fatalf("exit %d, stderr %q; want a refusal naming the page and --force", code, stderr)
	}
	if got := readDir(t, dir); len(got) != 2 || string(got["vlaunch-lint.1"]) != "mine\n" {
		t.Errorf("a refused run wrote pages: %v", keys(got))
	}
	if _, err := os.Stat(md); !os.IsNotExist(err) {
		t.Errorf("a refused run wrote the Markdown reference too")
	}
	if code, stderr := runDocsCmd(t, "--man", dir, "--force"); code != 0 {
		t.Fatalf("--force: exit %d %s", code, stderr)
	}
	if data, _ := os.ReadFile(mine); !bytes.HasPrefix(data, []byte(".nh\n.TH")) {
		t.Errorf("--force did not overwrite the page: %.40q", data)
	}
	if data, _ := os.ReadFile(other); string(data) != "mine\n" {
		t.Errorf("--force touched a file that is not a vlaunch page")
	}
	for _, e := range mustReadDir(t, dir) {
		if strings.Contains(e, "vlaunch-tmp") {
			t.Errorf("a temporary file is left: %s", e)
		}
	}

	if code, stderr := runDocsCmd(t); code != exitUsage || !strings.Contains(stderr, "--man DIR or --markdown DIR") {
		t.Errorf("no directory: exit %d, %q", code, stderr)
	}
	if code, stderr := runDocsCmd(t, "--man", other); code != exitUsage || !strings.Contains(stderr, "not a directory") {
		t.Errorf("a file as DIR: exit %d, %q", code, stderr)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func mustReadDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// TestCIRecipeCommands parses every vlaunch command line of the CI recipe
// (docs/ci/github-actions.yml) and of the pre-commit hooks
// (.pre-commit-hooks.yaml, which pre-commit runs with the files appended)
// with the real command tree: a command or flag renamed without them
// fails here.
func TestCIRecipeCommands(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci", "github-actions.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	var scripts []string
	for _, job := range wf.Jobs {
		for _, step := range job.Steps {
			scripts = append(scripts, step.Run)
		}
	}
	if data, err = os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml")); err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID    string `yaml:"id"`
		Entry string `yaml:"entry"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	for _, h := range hooks {
		scripts = append(scripts, h.Entry+" FILE")
	}
	invocation := regexp.MustCompile(`(?:^|[\s|;&(])vlaunch\s+([^|;&>\n]*)`)
	seen := map[string]int{}
	for _, script := range scripts {
		for _, m := range invocation.FindAllStringSubmatch(script, -1) {
			args := strings.Fields(strings.NewReplacer(`"`, "", `'`, "").Replace(m[1]))
			root := newRoot(&streams{in: strings.NewReader(""), out: &bytes.Buffer{}, err: &bytes.Buffer{}})
			c, rest, err := root.Find(args)
			if err != nil || c == root {
				t.Errorf("%q: no such vlaunch command (%v)", m[0], err)
				continue
			}
			if err := c.ParseFlags(rest); err != nil {
				t.Errorf("%q: %v", strings.TrimSpace(m[0]), err)
			}
			seen[c.Name()]++
		}
	}
	for _, want := range []string{"lint", "validate"} {
		if seen[want] != 2 {
			t.Errorf("want `vlaunch %s` in the recipe and a hook, found %v", want, seen)
		}
	}
}
