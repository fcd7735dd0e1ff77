package preflight

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
)

// Check is one named host check. Its id, title and documentation are its
// entry in the diag/codes catalog.
type Check struct {
	// Code is the check's diagnostic code (PFxxx).
	Code diag.Code
	// ID is stable across releases; --only/--skip and tests use it. It is
	// the code's name in the catalog.
	ID string
	// Title says in a few words what the check looks at.
	Title string
	// field is the spec field the check compares the host with, where its
	// findings point; "{node}" stands for this node's index.
	field string
	run   func(ctx context.Context, e *env) Result
	// perPool marks a check of what one P/D pool runs on the node (its
	// GPUs, ports, side channel): on a node both pools share it runs once
	// per pool (Options.Roles), and on any node of a P/D spec its result
	// names the pool.
	perPool bool
}

// checks is every check in report order.
var checks = fromCatalog([]Check{
	{Code: codes.PFGPUCount, field: "hardware.nodes[{node}].gpus", run: checkGPUCount, perPool: true},
	{Code: codes.PFGPUModel, field: "hardware.gpu", run: checkGPUModel},
	{Code: codes.PFGPUMemory, field: "hardware.gpu", run: checkGPUMemory},
	{Code: codes.PFGPUDriver, field: "hardware.nodes[{node}]", run: checkGPUDriver},
	{Code: codes.PFGPUProcesses, field: "hardware.nodes[{node}]", run: checkGPUProcesses, perPool: true},
	{Code: codes.PFGPUFabric, field: "hardware.network.nvlink_domain", run: checkGPUFabric},
	{Code: codes.PFGPUIMEXChannel, field: "hardware.network.nvlink_domain", run: checkIMEXChannel},
	{Code: codes.PFNetInterface, field: "hardware.nodes[{node}].interface", run: checkNetInterface},
	{Code: codes.PFNetAddress, field: "hardware.nodes[{node}].address", run: checkNetAddress},
	{Code: codes.PFNetRoute, field: "hardware.nodes[{node}].interface", run: checkNetRoute},
	{Code: codes.PFNetPrimaryLoopback, field: "hardware.nodes[0].address", run: checkPrimaryLoopback},
	{Code: codes.PFPortsFree, field: "vllm.port", run: checkPortsFree, perPool: true},
	{Code: codes.PFPortsNixl, field: "disaggregation", run: checkNixlPorts, perPool: true},
	{Code: codes.PFRDMADevices, field: "hardware.nodes[{node}].rdma_devices", run: checkRDMADevices},
	{Code: codes.PFRDMAPortState, field: "hardware.network.inter_node.kind", run: checkRDMAPortState},
	{Code: codes.PFRDMAGID, field: "hardware.network.inter_node.gid_index", run: checkRDMAGID},
	{Code: codes.PFRDMANICVendor, field: "hardware.nodes[{node}].rdma_devices", run: checkNICVendor},
	{Code: codes.PFRDMADriverOptions, field: "vllm.all2all_backend", run: checkDriverOptions},
	{Code: codes.PFRDMAGDRCopy, field: "vllm.all2all_backend", run: checkGDRCopy},
	{Code: codes.PFRDMAMemlock, field: "hardware.nodes[{node}]", run: checkMemlock},
	{Code: codes.PFHostShm, field: "hardware.nodes[{node}]", run: checkShm},
	{Code: codes.PFHostMemory, field: "hardware.nodes[{node}]", run: checkHostMemory},
	{Code: codes.PFHostDisk, field: "model.path", run: checkHostDisk},
	{Code: codes.PFModelPath, field: "model.path", run: checkModelPath},
	{Code: codes.PFModelConfig, field: "model", run: checkModelConfig},
	{Code: codes.PFModelSize, field: "model", run: checkModelSize},
	{Code: codes.PFSWVLLMVersion, field: "vllm.version", run: checkVLLMVersion},
	{Code: codes.PFSWBackendPackages, field: "vllm.all2all_backend", run: checkBackendPackages},
	{Code: codes.PFSWNixl, field: "disaggregation.connector", run: checkNixlPackage},
	{Code: codes.PFSWRouter, field: "disaggregation.router", run: checkRouterProgram},
})

// fromCatalog fills each check's id and title from its catalog entry.
func fromCatalog(cs []Check) []Check {
	for i := range cs {
		e, _ := codes.Lookup(string(cs[i].Code))
		cs[i].ID, cs[i].Title = e.Name, e.Summary
	}
	return cs
}

// fieldFor is the spec path a check's finding on node idx points at.
func (c Check) fieldFor(idx int) string {
	return strings.ReplaceAll(c.field, "{node}", strconv.Itoa(idx))
}

// pathFor is where c's finding on e's node points: fieldFor, except that
// a pool check of a P/D pool points into the pool's own block — its GPU
// share at the node's entry in the pool's nodes when the pool shares the
// node (where the split is decided), its side channel at the pool.
// ("{node}" paths stay in the pool's view's numbering: the caller maps
// them to the whole spec.)
func (c Check) pathFor(e *env) string {
	if c.perPool && e.opts.Role != nil {
		pool := "disaggregation." + e.opts.Role.Name
		switch c.Code {
		case codes.PFGPUCount:
			if e.share().Shared {
				return fmt.Sprintf("%s.nodes[%d]", pool, e.idx) // the view lists the pool's nodes in its order
			}
		case codes.PFPortsNixl:
			return pool
		}
	}
	if c.Code == codes.PFSWRouter && e.r != nil && e.r.PD == nil && e.r.Router != nil {
		return "router" // a colocated deployment's top-level router (generator/extlb.go)
	}
	return c.fieldFor(e.idx)
}

// Checks returns every check in report order.
func Checks() []Check { return append([]Check(nil), checks...) }

// IDs returns every check id in report order.
func IDs() []string {
	ids := make([]string, len(checks))
	for i, c := range checks {
		ids[i] = c.ID
	}
	return ids
}

// groups returns the id prefixes ("gpu", "net", ...) that select a group.
func groups() []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range checks {
		g, _, _ := strings.Cut(c.ID, ".")
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// Select returns the checks that only and skip leave, in report order. Each
// entry is a check id or a group name; an unknown entry is an error (the
// caller's exit 2), so a typo never silently runs everything.
func Select(only, skip []string) ([]Check, error) {
	if err := knownSelectors(append(append([]string(nil), only...), skip...)); err != nil {
		return nil, err
	}
	var out []Check
	for _, c := range checks {
		if (len(only) == 0 || matches(c.ID, only)) && !matches(c.ID, skip) {
			out = append(out, c)
		}
	}
	return out, nil
}

func matches(id string, sel []string) bool {
	for _, s := range sel {
		if s == id || strings.HasPrefix(id, s+".") {
			return true
		}
	}
	return false
}

func knownSelectors(sel []string) error {
	known := map[string]bool{}
	for _, id := range append(IDs(), groups()...) {
		known[id] = true
	}
	all := append(IDs(), groups()...)
	var bad []string
	for _, s := range sel {
		if known[s] {
			continue
		}
		msg := fmt.Sprintf("%q", s)
		if sug := catalog.Suggest(s, all); len(sug) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(sug, ", "))
		}
		bad = append(bad, msg)
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("unknown check id %s; known: %s; groups: %s", strings.Join(bad, ", "),
		strings.Join(IDs(), ", "), strings.Join(groups(), ", "))
}
