package generator

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/templates"
	"github.com/vlaunch/vlaunch/vllm"
)

// PDPlan is a disaggregated deployment's bundle as data: one colocated
// Plan per pool (MakePlan of the pool's resolved deployment, with the
// connector's flag and variables added) and the router in front of them.
type PDPlan struct {
	Name string
	// Summary is Markdown placed under "Feasibility" in the top README
	// (`vlaunch check`'s verdicts of the two pools; "" when none).
	Summary string
	Runtime string
	Release vllm.Release
	// Connector is the kv_connector both pools run; Transport its backend.
	Connector, Transport string
	// Bundle is what vlaunch writes for the connector (vllm.PDBundleOf).
	Bundle vllm.PDBundle
	Router resolve.Router
	// RouterArgs is the router's command: router.sh on bare metal and
	// Docker, router.yaml on Kubernetes when the spec names an image (nil
	// otherwise: the README says how to run it).
	RouterArgs []Arg
	// RouterMetricsPort is the port router.sh gives vllm-router's
	// Prometheus metrics listener (--prometheus-port, on 127.0.0.1:
	// vllm.RouterMetricsPort); 0 without a vllm-router command.
	RouterMetricsPort int
	// K8sName and Namespace name the router's Deployment and Service.
	K8sName, Namespace string
	Roles              []PDRolePlan
	// SpecFile is the spec's base name, for commands in the README.
	SpecFile string
	// PortRule words the release's side-channel port formula.
	PortRule string
	// LLMD is llm-d's router (router kind llm-d, Kubernetes only; nil
	// otherwise): llm-d.yaml, the decode pods' sidecar, the pods' labels.
	LLMD *LLMDPlan
	// LLMDReadme is the README's llm-d section (pd/llmd-readme.md.tmpl).
	LLMDReadme string
	// SharedNodes are the nodes both pools run on (resolve.SharedNodes:
	// their GPUs split, prefill's instances first, resolve.NodeShare).
	SharedNodes []string
}

// PDRolePlan is one pool's part of the bundle, in the directory Name/.
type PDRolePlan struct {
	Name string
	Plan *Plan
	// KVRole and KVTransferConfig are what the pool's engines get.
	KVRole, KVTransferConfig string
	// Endpoints are the API URLs of the pool's instances (each instance's
	// first node: with DP's internal load balancing the router needs only
	// "the host/port of the head instances", vLLM's NIXL guide).
	Endpoints    []string
	SideChannels []resolve.SideChannel
	// BootstrapPorts are the instances' bootstrap server ports, in
	// Endpoints' order (MooncakeConnector's prefill pool; nil otherwise).
	BootstrapPorts []int
}

// generatePD writes the bundle of a disaggregated deployment: each pool's
// colocated bundle in a directory of its own (prefill/, decode/: every
// file a pool's README names is then where it says), and at the top the
// marker, a README with the start order and, on bare metal and Docker,
// router.sh.
func generatePD(r *resolve.Deployment, runtime string, opt Options) (*Bundle, diag.Diagnostics) {
	pp := &PDPlan{Name: r.Spec.Metadata.Name, Runtime: runtime, Release: r.Release, Connector: r.PD.Connector.Name,
		Transport: r.PD.Transport, Router: r.PD.Router, SpecFile: specFileName(r), PortRule: vllm.NixlSidePortRule(r.Release.Version),
		K8sName: k8sName(r.Spec.Metadata.Name + "-router"), SharedNodes: resolve.SharedNodes(r.Spec)}
	var ds diag.Diagnostics
	var files []File
	b, bds := pdBundleFor(r, runtime)
	if bds.HasErrors() {
		return nil, bds
	}
	pp.Bundle = b
	if pp.Router.LLMD() {
		if ds = llmdRuntime(r, runtime); ds.HasErrors() {
			return nil, ds
		}
	}
	if shared := resolve.SharedNodes(r.Spec); runtime == "kubernetes" && len(shared) > 0 {
		// validate refuses it for runtime.kind kubernetes (SPEC126); --runtime too.
		return nil, append(ds, gdiag(r.Spec, CodeRuntime, diag.Error, "disaggregation.decode.nodes",
			fmt.Sprintf("node %q is in both pools, which vlaunch does not deploy on Kubernetes: the pools' pods would need hostPID to reach each other's GPU memory over CUDA IPC (openucx/ucx#11513, vllm-project/vllm#55906), and the device plugin, not vlaunch, picks each pod's GPUs", shared[0]),
			"generate for bare or docker, or give each pool nodes of its own"))
	}
	if ds = append(ds, pdPortsOn(r, runtime)...); ds.HasErrors() {
		return nil, ds
	}
	for _, role := range r.PD.Roles {
		role.KVTransferConfig = connectorKVTransferConfig(b, r, role)
		p, pds := MakePlan(withKVTransfer(role), runtime)
		ds = appendPoolFindings(ds, role.Name, pds)
		if pds.HasErrors() {
			return nil, ds
		}
		if pp.Router.LLMD() {
			if pp.LLMD == nil {
				lp, err := makeLLMDPlan(pp.Router, r.Spec.Metadata.Name, p.K8s.Namespace, r.PD.Roles[0].Deployment.Spec.VLLM.Port)
				if err != nil {
					return nil, append(ds, diag.Diagnostic{Code: CodeTemplate, Severity: diag.Error, Message: err.Error()})
				}
				pp.LLMD = lp
			}
			addLLMDPool(p, role.Name, pp.LLMD)
		}
		if b.NIXLSideChannel {
			addPDEnv(p, r, role)
		} else {
			addBootstrapEnv(p, b, role)
		}
		nameScripts(p)
		rf, err := Render(p, opt.TemplatesDir)
		if err != nil {
			return nil, append(ds, diag.Diagnostic{Code: CodeTemplate, Severity: diag.Error, Message: err.Error()})
		}
		for _, f := range rf {
			if f.Path != MarkerFile {
				f.Path = role.Name + "/" + f.Path
				files = append(files, f)
			}
		}
		pp.Roles = append(pp.Roles, PDRolePlan{Name: role.Name, Plan: p, KVRole: role.KVRole, KVTransferConfig: role.KVTransferConfig,
			Endpoints: endpoints(p), SideChannels: role.SideChannels, BootstrapPorts: bootstrapPorts(b, p, role)})
	}
	pp.Summary = opt.Summary
	pp.Namespace = pp.Roles[0].Plan.K8s.Namespace // the pools' (the runtime's defaults applied)
	if writesVLLMRouter(pp, runtime) {
		pp.RouterMetricsPort = vllm.RouterMetricsPort
		pp.RouterArgs = routerArgs(pp)
	} else {
		ds = append(ds, noRouterNote(r, pp, runtime)...)
	}
	top, err := renderPD(pp, opt.TemplatesDir)
	if err != nil {
		return nil, append(ds, diag.Diagnostic{Code: CodeTemplate, Severity: diag.Error, Message: err.Error()})
	}
	files = append(files, top...)
	sortFiles(files)
	return &Bundle{Plan: pp.Roles[len(pp.Roles)-1].Plan, PD: pp, Files: files}, ds
}

func specFileName(r *resolve.Deployment) string {
	if r.Spec.File == "" {
		return "SPEC"
	}
	return filepath.Base(r.Spec.File)
}

// withKVTransfer is the pool's deployment with --kv-transfer-config after
// the spec's extra_args: argparse keeps a flag's last value, so the pool's
// connector and role win over one the user wrote there.
func withKVTransfer(role resolve.Role) *resolve.Deployment {
	d := *role.Deployment
	s := *d.Spec
	s.VLLM.ExtraArgs = append(append([]string(nil), s.VLLM.ExtraArgs...), "--kv-transfer-config", role.KVTransferConfig)
	d.Spec = &s
	return &d
}

// nameScripts names a pool's scripts after their nodes: a pool's first
// node is not the spec's node0, and decode/node2.sh says where it runs.
func nameScripts(p *Plan) {
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if n.ScriptName != "" {
			n.ScriptName = n.Unit() + ".sh" // one per instance when instances share the node
		}
		if n.ContainerScript != "" {
			n.ContainerScript = n.Unit() + ".container.sh"
		}
	}
}

// writesVLLMRouter is the one decision on whether the P/D bundle carries
// the vLLM project's router: always on bare metal and docker, on
// Kubernetes only with disaggregation.router.image (the project publishes
// no image vlaunch could verify); llm-d's router is written apart.
func writesVLLMRouter(pp *PDPlan, runtime string) bool {
	return !pp.Router.LLMD() && (runtime != "kubernetes" || pp.Router.Image != "")
}

// noRouterNote says on generate's output, not only in the README, that a
// P/D bundle has no router (newuser40 finding 9): without one, no request
// reaches both pools. nil for llm-d, whose router the bundle carries.
func noRouterNote(r *resolve.Deployment, pp *PDPlan, runtime string) diag.Diagnostics {
	if pp.Router.LLMD() {
		return nil
	}
	ds := diag.Diagnostics{{Code: CodeRuntime, Severity: diag.Warning, File: r.Spec.File, Path: "disaggregation.router",
		Message: fmt.Sprintf("the %s bundle has no router, so no request is split between the pools until you run one (README.md, step 2): the vLLM project's router publishes no image vlaunch could verify", runtime),
		Hint:    "set disaggregation.router.image to a vllm-router image you built (router.yaml is then written), or disaggregation.router.kind: llm-d"}}
	r.Spec.Locate(ds)
	return ds
}

// appendPoolFindings adds a pool's findings, prefixed with the pool's
// name; one the other pool already made (same code, path and message) is
// said once, as "both pools: " (the prefix validate gives it too).
func appendPoolFindings(ds diag.Diagnostics, role string, pds diag.Diagnostics) diag.Diagnostics {
	for _, d := range rolePrefixed(role, pds) {
		i := slices.IndexFunc(ds, func(e diag.Diagnostic) bool {
			return e.Code == d.Code && e.Path == d.Path && unpooled(e.Message) == unpooled(d.Message)
		})
		switch {
		case i < 0:
			ds = append(ds, d)
		case ds[i].Message != d.Message:
			ds[i].Message = "both pools: " + unpooled(ds[i].Message)
		}
	}
	return ds
}

// unpooled is a finding's message without its pool prefix.
func unpooled(msg string) string {
	msg = strings.TrimPrefix(msg, "both pools: ")
	for _, role := range spec.Roles {
		msg = strings.TrimPrefix(msg, role+" pool: ")
	}
	return msg
}

// rolePrefixed names the pool in a pool's generator findings.
func rolePrefixed(role string, ds diag.Diagnostics) diag.Diagnostics {
	out := make(diag.Diagnostics, len(ds))
	for i, d := range ds {
		d.Message = role + " pool: " + d.Message
		out[i] = d
	}
	return out
}

// endpoints are the pool's instances' API URLs: on Kubernetes the pool's
// Service (lws.yaml's "<name>-api", over every group's leader).
func endpoints(p *Plan) []string {
	if p.Runtime == "kubernetes" {
		return []string{fmt.Sprintf("http://%s-api.%s.svc:%d", p.K8sName, p.K8s.Namespace, p.Port)}
	}
	heads := p.Primaries
	if len(heads) == 0 {
		heads = []*NodePlan{p.Primary}
	}
	var out []string
	for _, n := range heads {
		out = append(out, fmt.Sprintf("http://%s:%d", urlHost(n.Address), n.Port))
	}
	return out
}

// urlHost brackets an IPv6 address for a URL.
func urlHost(a string) string {
	if strings.Contains(a, ":") {
		return "[" + a + "]"
	}
	return a
}

// routerArgs is the vLLM router's PD command: --vllm-pd-disaggregation with
// one --prefill and one --decode URL per instance, --host and --port, as
// vllm-project/router@a07dacb3:docs/model-routing/pd-disaggregation.md
// ("NIXL Connector Mode") writes it. vllm-project/router@03e9af5c:src/main.rs
// has these flags (--prefill URL takes an optional bootstrap port after it,
// which a following flag rules out; --kv-connector defaults to nixl), and
// --host defaults to 127.0.0.1, so 0.0.0.0 is written to be reachable.
// MooncakeConnector adds --kv-connector mooncake and each prefill URL's
// bootstrap port after it (the same main.rs; its router queries
// http://HOST:PORT/query, vllm.PDBundle.RouterKVConnector).
func routerArgs(pp *PDPlan) []Arg {
	args := []Arg{{Text: "vllm-router"}, {Text: "--vllm-pd-disaggregation"}}
	for _, role := range pp.Roles {
		for i, u := range role.Endpoints {
			args = append(args, Arg{Text: "--" + role.Name}, Arg{Text: u})
			if i < len(role.BootstrapPorts) {
				args = append(args, Arg{Text: itoa(role.BootstrapPorts[i])})
			}
		}
	}
	if k := pp.Bundle.RouterKVConnector; k != "" {
		args = append(args, Arg{Text: "--kv-connector"}, Arg{Text: k})
	}
	return append(args, routerListenArgs(pp.Router.Port, pp.RouterMetricsPort)...)
}

// routerListenArgs are vllm-router's listening flags, the P/D router's and
// a colocated deployment's alike: --host 0.0.0.0 (its default 127.0.0.1
// is unreachable from clients), --port, and the Prometheus metrics
// listener it always binds (vllm.RouterMetricsSource), written out so the
// bundle names every port the router's node binds (validate SPEC129,
// preflight PF301 and lint VL212 check it against the engines').
func routerListenArgs(port, metricsPort int) []Arg {
	return []Arg{{Text: "--host"}, {Text: "0.0.0.0"}, {Text: "--port"}, {Text: itoa(port)},
		{Text: "--prometheus-port"}, {Text: itoa(metricsPort)}}
}

// renderPD renders the disaggregated bundle's top-level files: the
// marker, README.md and, with a router command, router.sh.
func renderPD(pp *PDPlan, templatesDir string) ([]File, error) {
	l := loader{dir: templatesDir}
	if templatesDir != "" {
		over, err := templates.Overrides(templatesDir)
		if err != nil {
			return nil, fmt.Errorf("--templates: %w", err)
		}
		l.over = over
	}
	marker := markerFile(&Plan{Name: pp.Name, Release: pp.Release, Runtime: pp.Runtime})
	files := []File{marker}
	if pp.LLMD != nil {
		section, manifest, err := renderLLMD(l, pp)
		if err != nil {
			return nil, err
		}
		pp.LLMDReadme = string(section)
		files = append(files, File{Path: "llm-d.yaml", Mode: 0o644, Data: manifest})
	}
	readme, err := l.render("pd/README.md.tmpl", templateData{Plan: pp.Roles[0].Plan, PD: pp})
	if err != nil {
		return nil, err
	}
	files = append(files, File{Path: "README.md", Mode: 0o644, Data: readme})
	if pp.RouterArgs == nil {
		return files, nil
	}
	path, tmpl, mode := "router.sh", "pd/router.sh.tmpl", fs.FileMode(0o755)
	if pp.Runtime == "kubernetes" {
		path, tmpl, mode = "router.yaml", "pd/router.yaml.tmpl", 0o644
	}
	data, err := l.render(tmpl, templateData{Plan: pp.Roles[0].Plan, PD: pp})
	if err != nil {
		return nil, err
	}
	return append(files, File{Path: path, Mode: mode, Data: data}), nil
}

// pdPortsOn: validate checked the hosts' ports for the spec's runtime
// (SPEC129, resolve.PortProblems), and the runtime decides which ports
// share a port space (a pod of its own per instance smaller than a node on
// Kubernetes, the node's on bare metal and Docker); generating for another
// runtime (--runtime) checks them again for that one.
func pdPortsOn(r *resolve.Deployment, runtime string) diag.Diagnostics {
	if runtime == r.Spec.Runtime.Kind {
		return nil
	}
	var ds diag.Diagnostics
	for _, q := range r.PD.PortProblems(runtime) {
		ds = append(ds, gdiag(r.Spec, CodeRuntime, diag.Error, "vllm.port",
			fmt.Sprintf("on the %s runtime port %d on node %q is both %s and %s (the spec's runtime.kind %s keeps them apart)", runtime, q.Port, q.Node, q.Other, q.What, r.Spec.Runtime.Kind),
			"generate for the spec's runtime, or move the ports apart for "+runtime+" (vlaunch validate with runtime.kind: "+runtime+" names the field)"))
	}
	return ds
}
