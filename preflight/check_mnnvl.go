package preflight

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strings"
)

// Multi-node NVLink (hardware.network.nvlink_domain): a node whose engine
// spans the trays of an NVLink domain needs its GPUs registered with the
// NVLink fabric and an IMEX channel, or NCCL and CUDA cannot reach the
// other trays' memory over NVLink.

// imexChannelDir is where the driver's IMEX channel devices appear (on
// Kubernetes NVIDIA's DRA driver injects one into a pod that claims it:
// its demo/specs/imex/channel-injection.yaml lists this directory).
const imexChannelDir = "/dev/nvidia-caps-imex-channels"

// mnnvlSkip skips the MNNVL checks where they do not apply: no NVLink
// domain in the spec, or no engine that spans nodes.
func (e *env) mnnvlSkip() (Result, bool) {
	if e.r == nil || e.r.Network.NVLinkDomainGPUs == 0 {
		return skip("the spec declares no multi-node NVLink domain (hardware.network.nvlink_domain)"), true
	}
	if !e.r.Layout.MultiNode() {
		return skip("no engine spans nodes: NVLink between trays is not used"), true
	}
	return Result{}, false
}

// gpuFabric is one GPU's Fabric block of `nvidia-smi -q`.
type gpuFabric struct {
	GPU                              string
	State, Status, Clique, ClusterID string
	// Health is the Health block's Summary ("Healthy", "Unhealthy",
	// "Limited Capacity", "Not Supported": NVML's healthSummary of
	// nvmlGpuFabricInfo_v3_t); "" where the driver prints none.
	Health string
}

// smiGPURE starts a GPU's block of `nvidia-smi -q` ("GPU 00000000:18:00.0").
var smiGPURE = regexp.MustCompile(`^GPU [0-9A-Fa-f]+:[0-9A-Fa-f]+:[0-9A-Fa-f]+\.[0-9A-Fa-f]+\s*$`)

// parseFabric reads every GPU's Fabric block of `nvidia-smi -q`: its
// State (Completed once the GPU registered with the fabric manager),
// Status (Success), CliqueId and ClusterUUID ("N/A" on parts without a
// multi-node fabric). The layout is nvidia-smi's indented "Key : Value"
// text, as NVIDIA's topograph parses it (pkg/providers: parseClusterID
// reads CliqueId and ClusterUUID from `nvidia-smi -q`).
func parseFabric(out []byte) []gpuFabric {
	var gpus []gpuFabric
	var cur *gpuFabric
	fabricIndent := -1
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), maxOutputBytes)
	for sc.Scan() {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		switch {
		case smiGPURE.MatchString(line):
			gpus = append(gpus, gpuFabric{GPU: strings.TrimPrefix(trimmed, "GPU ")})
			cur, fabricIndent = &gpus[len(gpus)-1], -1
			continue
		case cur == nil:
			continue
		case trimmed == "Fabric":
			fabricIndent = indent
			continue
		case fabricIndent >= 0 && indent <= fabricIndent:
			fabricIndent = -1
		}
		if fabricIndent < 0 {
			continue
		}
		k, v, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "State":
			cur.State = v
		case "Status":
			cur.Status = v
		case "CliqueId":
			cur.Clique = v
		case "ClusterUUID":
			cur.ClusterID = v
		case "Summary":
			cur.Health = v
		}
	}
	return gpus
}

// checkGPUFabric: every GPU of a node in a multi-node NVLink domain has
// finished registering with the NVLink fabric (State Completed, Status
// Success) and all of them sit in one NVLink partition (one ClusterUUID and
// CliqueId): a GPU still in progress, or failed, has no NVLink to the other
// trays, and NCCL falls back to the NICs or, with NCCL_MNNVL_ENABLE=1 as
// the bundle sets it, fails.
func checkGPUFabric(ctx context.Context, e *env) Result {
	if r, ok := e.mnnvlSkip(); ok {
		return r
	}
	want := "every GPU: Fabric State Completed, Status Success, one ClusterUUID and CliqueId (`nvidia-smi -q`)"
	out, err := e.run(ctx, "nvidia-smi", "-q")
	if errors.Is(err, ErrNotFound) {
		return fail("nvidia-smi is not installed", want, "install nvidia-smi (part of the NVIDIA driver utilities)")
	}
	if err != nil {
		return gpuFail(fmt.Errorf("nvidia-smi -q failed: %v", err), want)
	}
	gpus := parseFabric(out)
	if len(gpus) == 0 {
		return fail("no GPU listed by `nvidia-smi -q`", want, "check `nvidia-smi -L`")
	}
	var bad []string
	cliques := map[string]bool{}
	for _, g := range gpus {
		if g.State != "Completed" || g.Status != "Success" {
			bad = append(bad, fmt.Sprintf("GPU %s: State %s, Status %s", g.GPU, orNA(g.State), orNA(g.Status)))
			continue
		}
		cliques[g.ClusterID+" / clique "+g.Clique] = true
	}
	if len(bad) > 0 {
		return fail(strings.Join(bad, "; "), want,
			"a GPU not registered with the NVLink fabric has no NVLink to the other trays: check the NVLink switch trays' fabric manager (NMX) and the GPU's partition; \"N/A\" means a part without multi-node NVLink (hardware.gpu or nvlink_domain is wrong)")
	}
	if len(cliques) > 1 {
		return fail("GPUs in several NVLink partitions: "+strings.Join(sortedSet(cliques), "; "), want,
			"the node's GPUs must share one partition (ClusterUUID and CliqueId); check the NVLink partition configuration")
	}
	found := fmt.Sprintf("%d GPUs registered with the fabric, %s", len(gpus), sortedSet(cliques)[0])
	var sick []string
	for _, g := range gpus {
		switch g.Health {
		case "", "Healthy", "Not Supported", "N/A":
		default:
			sick = append(sick, fmt.Sprintf("GPU %s: Health Summary %s", g.GPU, g.Health))
		}
	}
	if len(sick) > 0 {
		// Registered, so NVLink works, but the fabric reports it degraded
		// (a real GB200 tray showed Completed/Success with Summary
		// Unhealthy: kubernetes-sigs/dra-driver-nvidia-gpu#626).
		return warn(found+"; "+strings.Join(sick, "; "), want,
			"the NVLink fabric reports the GPU unhealthy: check `nvidia-smi -q` (Fabric > Health: Bandwidth, Route Unhealthy) and the NVLink switch trays before relying on full NVLink bandwidth")
	}
	return pass(found, want)
}

// checkIMEXChannel: an IMEX channel exists for vLLM's processes. CUDA
// exports and imports memory across the trays of an NVLink domain (cuMem
// FABRIC handles, which NCCL's MNNVL needs) only through the IMEX daemon
// and a channel device; without one, multi-node NVLink is unavailable.
func checkIMEXChannel(_ context.Context, e *env) Result {
	if r, ok := e.mnnvlSkip(); ok {
		return r
	}
	want := "a channel device in " + imexChannelDir
	entries, err := fs.ReadDir(e.host.FS, fsPath(imexChannelDir))
	fix := "run the IMEX daemon (nvidia-imex) on every tray and create channel 0 (NVIDIA driver option NVreg_CreateImexChannel0=1); " +
		"on Kubernetes run this check in a pod that claims a channel from the bundle's ComputeDomain (NVIDIA's DRA driver injects it)"
	if err != nil {
		return fail(imexChannelDir+" does not exist", want, fix)
	}
	var channels []string
	for _, en := range entries {
		if strings.HasPrefix(en.Name(), "channel") {
			channels = append(channels, en.Name())
		}
	}
	if len(channels) == 0 {
		return fail(imexChannelDir+" holds no channel", want, fix)
	}
	sort.Strings(channels)
	return pass(strings.Join(channels, ", "), want)
}

func orNA(s string) string {
	if s == "" {
		return "missing"
	}
	return s
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
