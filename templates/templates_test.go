package templates

import (
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	got := strings.Join(Names(), " ")
	want := "README.md.tmpl bare/node.sh.tmpl docker/node.sh.tmpl hosts.tmpl kubernetes/lws.yaml.tmpl pd/README.md.tmpl pd/llmd-readme.md.tmpl pd/llmd.yaml.tmpl pd/router.sh.tmpl pd/router.yaml.tmpl router/README.md.tmpl router/router.sh.tmpl router/router.yaml.tmpl"
	if got != want {
		t.Errorf("Names() = %q, want %q", got, want)
	}
}
