// Package templates holds the text/templates the generator renders, embedded
// in the binary. `vlaunch generate --templates DIR` replaces any of them file
// by file: DIR/bare/node.sh.tmpl overrides bare/node.sh.tmpl, and so on.
//
// Every template receives a value with these fields:
//
//	.Plan  *generator.Plan      the whole bundle (layout, release, nodes, flags)
//	.Node  *generator.NodePlan  the node the file is for (nil for shared files)
//	.PD    *generator.PDPlan    a disaggregated bundle's pools and router, for
//	                            pd/*.tmpl (its top-level README and router.sh;
//	                            .Plan is then the prefill pool's); nil otherwise
//
// Functions: the sprig text functions without env/expandenv and without
// anything nondeterministic (dates, random values, UUIDs, key generation,
// DNS lookups), plus
//
//	shq STRING          quote one word for bash (mvdan.cc/sh/v3/syntax.Quote)
//	shwords ARGS        a command, one flag per line, each word quoted
//	script STEPS        steps as a bash body; the last one exec'd
//	yq STRING           a YAML double-quoted scalar
//	kq STRING           yq for command, args and env values: "$(" and "$$"
//	                    escaped so the kubelet passes them literally
//	oneline STRING      control characters replaced by spaces (for comments)
//	mounts PLAN         Docker -v arguments for the model and cache_dir
//	hfCache PLAN        the -v argument (shell text) mounting the host's
//	                    Hugging Face cache for a hub model ("" otherwise)
//	k8sQuantity SIZE    "64g" -> "64Gi"
//	portRange PORTS     "5600–5607", or "5600" for one port
//	rayPort, masterPort the Ray head and --master-port ports
//
// Missing map keys are errors (missingkey=error).
package templates

import (
	"embed"
	"io/fs"
	"sort"
)

// FS holds the default templates.
//
//go:embed *.tmpl bare/*.tmpl docker/*.tmpl kubernetes/*.tmpl pd/*.tmpl router/*.tmpl
var FS embed.FS

// Names lists the embedded template files (the names --templates DIR can
// override), sorted.
func Names() []string {
	var names []string
	_ = fs.WalkDir(FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			names = append(names, p)
		}
		return nil
	})
	sort.Strings(names)
	return names
}
