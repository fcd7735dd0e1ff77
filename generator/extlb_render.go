package generator

import "io/fs"

// readmeTemplate is the bundle README's template: a deployment behind its
// top-level router has its own (the ranks, their ports, the router, the
// start order), the others the common one.
func readmeTemplate(p *Plan) string {
	if p.Router != nil {
		return "router/README.md.tmpl"
	}
	return "README.md.tmpl"
}

// addRouterFiles adds the top-level router's file: router.sh (bare and
// docker: vllm-router on the router's node, on the host) or router.yaml
// (Kubernetes: a Deployment and Service, and a Service per LWS pod that
// the router addresses the pod's ranks through).
func addRouterFiles(p *Plan, add func(path, tmpl string, mode fs.FileMode, n *NodePlan) error) error {
	if p.Router == nil {
		return nil
	}
	path, tmpl, mode := "router.sh", "router/router.sh.tmpl", fs.FileMode(0o755)
	if p.Runtime == "kubernetes" {
		path, tmpl, mode = "router.yaml", "router/router.yaml.tmpl", 0o644
	}
	return add(path, tmpl, mode, nil)
}
