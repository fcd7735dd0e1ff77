package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOverrides: known names are read, and a wrong directory content is
// refused with the file named, not ignored.
func TestOverrides(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files map[string]string
		want  string // error substring; "" = ok
	}{
		{"ok", map[string]string{"hosts.tmpl": "h", "bare/node.sh.tmpl": "n", ".git/x": "", ".swp": ""}, ""},
		{"unknown", map[string]string{"hostz.tmpl": "h"}, `"hostz.tmpl" is not a template`},
		{"misplaced", map[string]string{"lws.yaml.tmpl": "h"}, "did you mean kubernetes/lws.yaml.tmpl?"},
		{"empty", map[string]string{"hosts.tmpl": " \n"}, "empty template"},
		{"huge", map[string]string{"hosts.tmpl": strings.Repeat("x", MaxOverrideBytes+1)}, "over the 1 MiB limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range tt.files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			over, err := Overrides(dir)
			if tt.want == "" {
				if err != nil || len(over) != 2 || string(over["hosts.tmpl"]) != "h" {
					t.Fatalf("got %v, %v", over, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("want error containing %q, got %v", tt.want, err)
			}
		})
	}
	if _, err := Overrides(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing directory passed")
	}
}
