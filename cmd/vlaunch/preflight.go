package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/estimate"
	"github.com/vlaunch/vlaunch/preflight"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

func init() { subcommands = append(subcommands, newPreflightCmd) }

// preflightFlags are the command-line options of `vlaunch preflight`.
type preflightFlags struct {
	node       string
	pool       string
	only, skip []string
	output     string
	timeout    preflightTimeout
}

func newPreflightCmd(s *streams) *cobra.Command {
	f := &preflightFlags{timeout: preflightTimeout(preflight.DefaultTimeout)}
	c := &cobra.Command{
		Use:   "preflight SPEC --node NAME",
		Short: "Check this host before deployment (read-only: changes nothing, sends nothing)",
		Long: "Run on every node before starting the bundle. Checks GPUs, network identity, ports,\n" +
			"RDMA/DeepEP prerequisites, host resources, model files and software against the spec.\n" +
			"Exit 0 when nothing fails, 1 on any fail, 2 on unusable input. A check that could not read what it\n" +
			"needs (UNCHECKED: a container or sandbox hides /proc/modules) is not a fail: it exits 0 and the\n" +
			"summary counts it (\"N could not be checked\"); run preflight on the host itself to check it.\n\nChecks (--only/--skip take ids or groups):\n" +
			checkList(),
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error { return runPreflight(s, f, args[0]) },
	}
	c.Flags().StringVar(&f.node, "node", "", "the node this host plays (hardware.nodes[].name)")
	c.Flags().StringVar(&f.pool, "pool", "", "on a node both P/D pools share: check only this pool (prefill or decode), taking the other as possibly running")
	c.Flags().StringSliceVar(&f.only, "only", nil, "run only these check ids or groups (comma-separated, e.g. gpu,net.route)")
	c.Flags().StringSliceVar(&f.skip, "skip", nil, "skip these check ids or groups")
	c.Flags().StringVarP(&f.output, "output", "o", preflightFormats[0], "output format: text (the report), json (the report and its diagnostics), sarif or github (the warns and fails as diagnostics, for CI)")
	setFormats(c.Flags(), "output", preflightFormats)
	c.Flags().Var(&f.timeout, "timeout", "time limit for each check")
	return c
}

func runPreflight(s *streams, f *preflightFlags, path string) error {
	format, err := parseFormat(f.output, preflightFormats)
	if err != nil {
		return err
	}
	d, err := preflightSpec(s, path, format)
	if err != nil {
		return err
	}
	opts := preflightOptions(d, f)
	if d.PD == nil && f.pool != "" {
		return usageErr("--pool %s: the spec is not disaggregated (no prefill and decode pools)", f.pool)
	}
	if d.PD != nil {
		if opts, err = poolOptions(d, f, opts); err != nil {
			return err
		}
		opts.RouterPort = routerPortHere(d, f.node)
	} else if rt := d.Router; rt != nil && rt.Node.Name == f.node && d.Spec.Runtime.Kind != "kubernetes" {
		opts.RouterPort = rt.Port // router.sh of a colocated deployment (generator/extlb.go)
		if rt.Node.GPUs == 0 {
			// A CPU-only host of the router alone, left out of the
			// engines' view of the spec (spec.Deployment.EngineView):
			// the router's checks only, its findings at its place in
			// hardware.nodes as written.
			if f.pool != "" {
				return usageErr("--pool %s: the spec is not disaggregated (no prefill and decode pools)", f.pool)
			}
			opts.RouterOnly, opts.SpecIndex = true, writtenNodeIndex(d.Spec, f.node)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := preflight.Run(ctx, opts)
	var ue *preflight.UsageError
	if errors.As(err, &ue) {
		return usageErr("%v", ue)
	} else if err != nil {
		return err
	}
	wholeSpecPaths(&rep, nodeIndexMaps(d, opts))
	if err := writePreflight(s, format, rep, d.Spec); err != nil {
		return err
	}
	if rep.Failed() {
		return findingsErr()
	}
	return nil
}

// writtenNodeIndex is the named node's index in hardware.nodes as the
// spec file writes it (its YAML document), which an engines' view of the
// spec renumbers; the node's place among the view's nodes without a
// document (a spec built in code).
func writtenNodeIndex(d *spec.Deployment, name string) int {
	if nodes, ok := spec.NodeAt(d.Root, []string{"hardware", "nodes"}, false); ok && nodes != nil {
		for i, n := range nodes.Content {
			if v, ok := spec.NodeAt(n, []string{"name"}, false); ok && v != nil && v.Value == name {
				return i
			}
		}
	}
	for i, n := range d.Hardware.Nodes {
		if n.Name == name {
			return i
		}
	}
	return len(d.Hardware.Nodes)
}

// routerPortHere is the P/D router's port when node runs it: router.sh
// binds disaggregation.router.port on disaggregation.router.node (bare
// metal and docker alike: the router runs on the host). On Kubernetes the
// vLLM router is a pod on the pod network, and llm-d's endpoint picker
// runs on no node of the spec (resolve.Disaggregated.PortProblems claims
// no node's port for either): 0.
func routerPortHere(d *resolve.Deployment, node string) int {
	rt := d.PD.Router
	if rt.Node.Name != node || rt.LLMD() || d.Spec.Runtime.Kind == "kubernetes" {
		return 0
	}
	return rt.Port
}

// preflightSpec loads, validates and resolves the spec (settleSpec, with
// `parallelism: auto` settled as check and generate settle it). A spec with
// errors is unusable here: preflight checks a host against the spec, so the
// spec itself must be right first (`vlaunch validate`).
func preflightSpec(s *streams, path string, format diag.Format) (*resolve.Deployment, error) {
	st, err := settleSpec(s, path, false, "", format, simPerf)
	if err != nil {
		return nil, usageErr("cannot use spec %s (fix it first: vlaunch validate %s)", path, path)
	}
	return st.r, nil
}

// poolOptions points preflight at the pool of a disaggregated spec that
// --node belongs to: the pool's own deployment (its nodes, layout, engine
// settings), so every colocated check applies to it, and its role for the
// NIXL checks. A node both pools name (resolve.SharedNodes) runs both
// pools' instances: Roles then lists both, so the pool checks (GPUs,
// ports, side channel) run for each pool and the host-wide ones once, with
// the weights of both pools' GPUs on the node. Without --node there is no
// pool to choose: a usage error naming them.
func poolOptions(d *resolve.Deployment, f *preflightFlags, opts preflight.Options) (preflight.Options, error) {
	var pools []string
	var here []*resolve.Role
	for i := range d.PD.Roles {
		r := &d.PD.Roles[i]
		var names []string
		for _, n := range r.Deployment.Spec.Hardware.Nodes {
			names = append(names, n.Name)
			if n.Name == f.node {
				here = append(here, r)
			}
		}
		pools = append(pools, r.Name+": "+strings.Join(names, ", "))
	}
	if len(here) > 0 {
		r := here[0]
		opts.Deployment, opts.Role, opts.Expect = r.Deployment, r, estimatorHooks(r.Deployment)
		for j, w := range d.Spec.Hardware.Nodes {
			if w.Name == f.node {
				opts.SpecIndex = j
			}
		}
		if len(here) > 1 {
			opts.Roles = here
			opts.Expect.NodeWeightBytes = sharedWeightBytes(here)
		}
		return withPool(opts, f.pool, here)
	}
	if f.node == "" {
		return opts, usageErr("a disaggregated spec: say which node this host is with --node (%s)", strings.Join(pools, "; "))
	}
	if routerPortHere(d, f.node) > 0 {
		// The router's node in neither pool runs router.sh alone: its
		// checks run against the whole spec (preflight.Options.RouterOnly).
		if f.pool != "" {
			return opts, usageErr("--pool %s: node %q runs the P/D router only, in no pool", f.pool, f.node)
		}
		opts.RouterOnly = true
		return opts, nil
	}
	return opts, usageErr("node %q is in no pool of the disaggregated spec (%s)", f.node, strings.Join(pools, "; "))
}

// withPool narrows a shared node's run to the pool --pool names (its
// checks, its weights; preflight.Options.Pool); on a node of one pool
// --pool must name that pool.
func withPool(opts preflight.Options, pool string, here []*resolve.Role) (preflight.Options, error) {
	if pool == "" {
		return opts, nil
	}
	var names []string
	for _, r := range here {
		names = append(names, r.Name)
		if r.Name != pool {
			continue
		}
		if len(here) > 1 {
			opts.Pool = pool
			opts.Expect.NodeWeightBytes = sharedWeightBytes([]*resolve.Role{r})
		}
		return opts, nil
	}
	if len(here) > 1 {
		return opts, usageErr("--pool %s: no such pool on this node (%s)", pool, strings.Join(names, ", "))
	}
	return opts, usageErr("--pool %s: node %q runs the %s pool only", pool, opts.Node, names[0])
}

// sharedWeightBytes is what the GPUs of a node both pools share load: each
// pool's heaviest per-GPU weights times the GPUs its share of the node
// gives it (resolve.NodeShare), summed.
func sharedWeightBytes(roles []*resolve.Role) func(string) (float64, bool) {
	return func(node string) (b float64, ok bool) {
		defer func() {
			if recover() != nil {
				b, ok = 0, false // fall back rather than fail the check
			}
		}()
		for _, r := range roles {
			in := estimate.FromResolved(r.Deployment)
			per, found := nodeWeightBytes(r.Deployment, &in, node)
			if !found {
				return 0, false
			}
			b += per
		}
		return b, true
	}
}

// nodeIndexMaps map each P/D pool's node paths (hardware.nodes[i] of the
// pool's own view, which preflight's checks name) to the node's place in
// the whole spec, where the finding must point, by pool name ("" for the
// host-wide checks: opts.Role's view); for a colocated spec the engine
// nodes' map out of the view that leaves a CPU-only router host out
// (engineViewIndexMap), nil otherwise. (The router host's own run needs
// none: its env carries its written index, Options.SpecIndex.)
func nodeIndexMaps(d *resolve.Deployment, opts preflight.Options) map[string]map[string]string {
	if opts.Role == nil && d.Spec != nil && !opts.RouterOnly {
		return engineViewIndexMap(d)
	}
	if opts.Role == nil || d.Spec == nil {
		return nil
	}
	whole := map[string]int{}
	for i, n := range d.Spec.Hardware.Nodes {
		whole[n.Name] = i
	}
	view := func(r *resolve.Deployment) map[string]string {
		out := map[string]string{}
		for i, n := range r.Spec.Hardware.Nodes {
			out[fmt.Sprintf("hardware.nodes[%d]", i)] = fmt.Sprintf("hardware.nodes[%d]", whole[n.Name])
		}
		return out
	}
	out := map[string]map[string]string{"": view(opts.Deployment), opts.Role.Name: view(opts.Deployment)}
	for _, r := range opts.Roles {
		out[r.Name] = view(r.Deployment)
	}
	return out
}

// engineViewIndexMap maps a colocated deployment's engine nodes from their
// place in the engines' view of the spec, which leaves a CPU-only router
// host out (spec.Deployment.EngineView), to their place in hardware.nodes
// as written; nil when the view is the spec itself.
func engineViewIndexMap(d *resolve.Deployment) map[string]map[string]string {
	if rt := d.Router; d.PD != nil || rt == nil || rt.Node.GPUs != 0 {
		return nil
	}
	out := map[string]string{}
	for i, n := range d.Spec.Hardware.Nodes {
		out[fmt.Sprintf("hardware.nodes[%d]", i)] = fmt.Sprintf("hardware.nodes[%d]", writtenNodeIndex(d.Spec, n.Name))
	}
	return map[string]map[string]string{"": out}
}

// wholeSpecPaths rewrites each result's path from its pool's view of the
// spec to the whole spec (nodeIndexMaps), so the report's paths and the
// diagnostics point where the user wrote the node.
func wholeSpecPaths(rep *preflight.Report, maps map[string]map[string]string) {
	for i := range rep.Results {
		res := &rep.Results[i]
		nodes, ok := maps[res.Pool]
		if !ok {
			nodes = maps[""]
		}
		for from, to := range nodes {
			if rest, ok := strings.CutPrefix(res.Path, from); ok && (rest == "" || rest[0] == '.') {
				res.Path = to + rest
				break
			}
		}
	}
}

// writePreflight prints the readable report, or for machines the warns
// and fails as diagnostics placed at the spec fields they concern.
func writePreflight(s *streams, format diag.Format, rep preflight.Report, d *spec.Deployment) error {
	if format == diag.FormatText {
		return preflight.WriteText(s.out, rep)
	}
	ds := rep.Findings()
	d.Locate(ds)
	if format == diag.FormatJSON {
		return preflight.WriteJSON(s.out, rep, ds)
	}
	return diag.Print(s.out, format, ds, nil, codes.RuleInfos("PF"))
}

func preflightOptions(r *resolve.Deployment, f *preflightFlags) preflight.Options {
	wd, _ := os.Getwd()
	return preflight.Options{
		Deployment: r, Node: f.node, Only: f.only, Skip: f.skip,
		Timeout: f.timeout.Duration(), Host: preflight.NewSystemHost(),
		WorkDir: wd, HFCacheDir: hfCacheDir(), Expect: estimatorHooks(r),
	}
}

// estimatorHooks feeds preflight the estimator's figures: what this node's
// GPUs hold. Checkpoint size has no estimator figure; preflight falls back
// to catalog counts. (The all2all backend comes from the deployment.)
func estimatorHooks(r *resolve.Deployment) preflight.Expectations {
	in := estimate.FromResolved(r)
	return preflight.Expectations{
		NodeWeightBytes: func(node string) (b float64, ok bool) {
			defer func() {
				if recover() != nil {
					b, ok = 0, false // fall back rather than fail the check
				}
			}()
			return nodeWeightBytes(r, &in, node)
		},
	}
}

// nodeWeightBytes is the heaviest stage's per-GPU weights times the GPUs of
// the node (the pool's share of a node both P/D pools use): the bytes its
// GPUs copy in from the checkpoint.
func nodeWeightBytes(r *resolve.Deployment, in *estimate.Input, node string) (float64, bool) {
	var perGPU float64
	for _, st := range estimate.Memory(in).Stages {
		perGPU = max(perGPU, st.WeightsGiB*estimate.GiB)
	}
	for i, n := range r.Nodes {
		if n.Name == node && perGPU > 0 {
			gpus := n.GPUs
			if i < len(r.Shares) && r.Shares[i].Shared {
				gpus = r.Shares[i].GPUs // the pool's share of a node both pools use
			}
			return perGPU * float64(gpus), true
		}
	}
	return 0, false
}

// checkList is the help text's table of check ids.
func checkList() string {
	var b strings.Builder
	for _, c := range preflight.Checks() {
		fmt.Fprintf(&b, "  %-22s %s\n", c.ID, c.Title)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// hfCacheDir follows huggingface_hub: HF_HUB_CACHE, else HF_HOME/hub, else
// ~/.cache/huggingface/hub.
func hfCacheDir() string {
	if v := os.Getenv("HF_HUB_CACHE"); v != "" {
		return v
	}
	if v := os.Getenv("HF_HOME"); v != "" {
		return filepath.Join(v, "hub")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".cache", "huggingface", "hub")
	}
	return ""
}

// preflightTimeout is a positive duration flag.
type preflightTimeout time.Duration

// String renders the limit for --help (pflag.Value).
func (t *preflightTimeout) String() string { return time.Duration(*t).String() }

// Type names the value kind in --help (pflag.Value).
func (t *preflightTimeout) Type() string { return "duration" }

// Set refuses zero and negative limits: a check must always end.
func (t *preflightTimeout) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if d <= 0 {
		return fmt.Errorf("must be positive, got %s", s)
	}
	*t = preflightTimeout(d)
	return nil
}

// Duration returns the value as a time.Duration.
func (t preflightTimeout) Duration() time.Duration { return time.Duration(t) }

// preflightFormats are preflight's report formats.
var preflightFormats = []string{"text", "json", "sarif", "github"}
