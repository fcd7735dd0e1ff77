package preflight

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/vlaunch/vlaunch/catalog"
)

// Check is one named host check.
type Check struct {
	// ID is stable across releases; --only/--skip and tests use it.
	ID string
	// Title says in a few words what the check looks at.
	Title string
	run   func(ctx context.Context, e *env) Result
}

// checks is every check in report order.
var checks = []Check{
	{"gpu.count", "GPUs visible on this node", checkGPUCount},
	{"gpu.model", "GPU model matches hardware.gpu", checkGPUModel},
	{"gpu.memory", "memory per GPU matches hardware.gpu", checkGPUMemory},
	{"gpu.driver", "NVIDIA driver version present", checkGPUDriver},
	{"gpu.processes", "no other process holds GPU memory", checkGPUProcesses},
	{"net.interface", "declared interface exists and is up", checkNetInterface},
	{"net.address", "declared address is on this host", checkNetAddress},
	{"net.route", "routes to peers leave through the declared interface", checkNetRoute},
	{"net.primary_loopback", "primary address is not loopback", checkPrimaryLoopback},
	{"ports.free", "ports the bundle binds are free", checkPortsFree},
	{"rdma.devices", "RDMA devices exist", checkRDMADevices},
	{"rdma.port_state", "RDMA ports are active", checkRDMAPortState},
	{"rdma.gid", "RoCE v2 GID at the configured index", checkRDMAGID},
	{"rdma.nic_vendor", "NICs can do GPU-initiated RDMA (mlx5)", checkNICVendor},
	{"rdma.driver_options", "NVIDIA driver options for IBGDA", checkDriverOptions},
	{"rdma.gdrcopy", "gdrcopy kernel module loaded", checkGDRCopy},
	{"rdma.memlock", "locked-memory limit is unlimited", checkMemlock},
	{"host.shm", "/dev/shm size", checkShm},
	{"host.memory", "host memory for loading this node's weights", checkHostMemory},
	{"host.disk", "free disk at the model path", checkHostDisk},
	{"model.path", "model directory exists", checkModelPath},
	{"model.config", "config.json matches the spec's model", checkModelConfig},
	{"model.size", "weight files are complete", checkModelSize},
	{"sw.vllm_version", "installed vLLM version", checkVLLMVersion},
	{"sw.backend_packages", "Python packages the all2all backend needs", checkBackendPackages},
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
