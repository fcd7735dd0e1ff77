// Package examples embeds the example deployment specs so `vlaunch init`
// and the README's first command work without a checkout.
package examples

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Names lists the embedded examples without the .yaml suffix, sorted.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// Read returns the content of the named example (with or without .yaml).
func Read(name string) ([]byte, bool) {
	data, err := files.ReadFile(strings.TrimSuffix(name, ".yaml") + ".yaml")
	return data, err == nil
}
