package preflight

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// AMD GPUs are listed by amd-smi (ROCm 6.0 and later), or by rocm-smi,
// its deprecated predecessor, on hosts without it. The JSON layouts below
// are amd-smi's own (ROCm/amdsmi, amdsmi_cli/amdsmi_commands.py and
// amdsmi_helpers.py, tags rocm-6.1.0 to rocm-6.2.x and master at
// 0ceca28f): every command prints a JSON list with one object per GPU,
// keyed "gpu" (its index); amd-smi of ROCm 7 wraps that list as
// {"gpu_data": [...]} (readers of both exist, e.g. AMD's own test
// harnesses), so both are read. A value with a unit is {"value": N,
// "unit": "MB"} in JSON (amdsmi_helpers.unit_format), "N MB" in the text
// form; both are read.
var (
	// amdStaticArgs: "asic" holds "market_name", the product name
	// (amdsmi_get_gpu_asic_info): "AMD Instinct MI300X OAM", "AMD
	// Instinct MI300X VF", "AMD Instinct Mi325X VF", "AMD Instinct
	// MI350X" on real hosts.
	amdStaticArgs = []string{"static", "--asic", "--json"}
	// amdMemArgs: "mem_usage" holds "total_vram" and "used_vram" in MB,
	// amdsmi_get_gpu_memory_total/usage(VRAM) // (1024*1024): MiB, the
	// figure rocm-smi prints in bytes ("VRAM Total Memory (B):
	// 205822885888" = 196288 MiB on an MI300X).
	amdMemArgs = []string{"metric", "--mem-usage", "--json"}
	// amdProcArgs: "process_list" holds {"process_info": {"name", "pid",
	// "memory_usage": {"vram_mem": {"value": N, "unit": "B"}}, ...}}, or
	// {"process_info": "No running processes detected"} on an idle GPU.
	amdProcArgs = []string{"process", "--json"}
	// rocmSMIArgs: {"card0": {"VRAM Total Memory (B)": "...", "VRAM
	// Total Used Memory (B)": "...", "Card Series": "...", ...}}; older
	// rocm-smi spells it "Card series".
	rocmSMIArgs = []string{"--showproductname", "--showmeminfo", "vram", "--json"}
)

const (
	amdToolFix      = "run on a GPU node with the amdgpu driver loaded; `amd-smi list` (ROCm 6+) or `rocm-smi` must work, and the user needs the render and video groups"
	amdProcessesFix = "stop the processes (`amd-smi process` lists them; memory used with no process listed belongs to another container) — vLLM sizes its KV cache from total memory and fails or OOMs"
)

// errNoAMDTooling is a clear fail, not a crash, where neither tool exists.
var errNoAMDTooling = errors.New("no AMD GPU tooling: neither amd-smi nor rocm-smi is on PATH")

// amdKey names an AMD GPU by its index where NVIDIA's are named by uuid:
// amd-smi's process list names a process's GPU by index alone.
func amdKey(i int) string { return "amd-smi GPU " + strconv.Itoa(i) }

// amdGPUs lists the node's AMD GPUs: amd-smi's static and metric answers
// joined by GPU index, or rocm-smi's when amd-smi is not installed.
func (e *env) amdGPUs(ctx context.Context) (gpuQuery, error) {
	out, err := e.run(ctx, "amd-smi", amdStaticArgs...)
	if errors.Is(err, ErrNotFound) {
		return e.rocmSMIGPUs(ctx)
	}
	if err != nil {
		return gpuQuery{}, fmt.Errorf("amd-smi static failed: %v", err)
	}
	gs, err := parseAMDStatic(out)
	if err != nil {
		return gpuQuery{}, err
	}
	mout, err := e.run(ctx, "amd-smi", amdMemArgs...)
	if err != nil {
		return gpuQuery{}, fmt.Errorf("amd-smi metric --mem-usage failed: %v", err)
	}
	mem, err := parseAMDMem(mout)
	if err != nil {
		return gpuQuery{}, err
	}
	for i := range gs {
		m, ok := mem[gs[i].Index]
		gs[i].MemMiB, gs[i].UsedMiB, gs[i].MemUnknown = m.total, m.used, !ok || !m.totalOK
	}
	return gpuQuery{GPUs: gs, FromSMI: true, Tool: "amd-smi"}, nil
}

func (e *env) rocmSMIGPUs(ctx context.Context) (gpuQuery, error) {
	out, err := e.run(ctx, "rocm-smi", rocmSMIArgs...)
	if errors.Is(err, ErrNotFound) {
		return gpuQuery{}, errNoAMDTooling
	}
	if err != nil {
		return gpuQuery{}, fmt.Errorf("rocm-smi failed: %v", err)
	}
	gs, err := parseROCmSMI(out)
	return gpuQuery{GPUs: gs, FromSMI: true, Tool: "rocm-smi"}, err
}

// amdApps lists the processes holding memory on the GPUs: amd-smi's
// process list. rocm-smi's answer has no per-GPU process list, so there
// only the memory in use counts (gpuInUse).
func (e *env) amdApps(ctx context.Context, q gpuQuery) ([]gpuApp, error) {
	if q.Tool != "amd-smi" {
		return nil, nil
	}
	out, err := e.run(ctx, "amd-smi", amdProcArgs...)
	if err != nil {
		return nil, fmt.Errorf("amd-smi process failed: %v", err)
	}
	return parseAMDProcesses(out)
}

// amdEntries decodes amd-smi's JSON: a list of per-GPU objects, or that
// list under "gpu_data". Lines before the JSON (amd-smi prints warnings
// such as "WARNING: User is missing the following required groups") are
// skipped.
func amdEntries(out []byte) ([]map[string]json.RawMessage, error) {
	start, off := -1, 0
	for _, line := range bytes.SplitAfter(out, []byte("\n")) {
		if t := bytes.TrimSpace(line); len(t) > 0 && (t[0] == '[' || t[0] == '{') {
			start = off
			break
		}
		off += len(line)
	}
	if start < 0 {
		return nil, fmt.Errorf("amd-smi printed no JSON: %q", firstLine(out))
	}
	body := out[start:]
	var list []map[string]json.RawMessage
	if err := json.Unmarshal(body, &list); err == nil {
		return list, nil
	}
	var wrapped struct {
		GPUData []map[string]json.RawMessage `json:"gpu_data"`
	}
	if err := json.Unmarshal(body, &wrapped); err != nil || wrapped.GPUData == nil {
		return nil, fmt.Errorf("unexpected amd-smi JSON: %q", firstLine(body))
	}
	return wrapped.GPUData, nil
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if len(line) > 120 {
		line = line[:120] + "..."
	}
	return line
}

// amdIndex reads an entry's "gpu" index.
func amdIndex(ent map[string]json.RawMessage) (int, error) {
	var i int
	if err := json.Unmarshal(ent["gpu"], &i); err != nil || i < 0 {
		return 0, fmt.Errorf("amd-smi entry without a GPU index: %s", ent["gpu"])
	}
	return i, nil
}

// parseAMDStatic reads `amd-smi static --asic --json`: each GPU's index
// and asic.market_name.
func parseAMDStatic(out []byte) ([]gpuInfo, error) {
	ents, err := amdEntries(out)
	if err != nil {
		return nil, err
	}
	var gs []gpuInfo
	for _, ent := range ents {
		i, err := amdIndex(ent)
		if err != nil {
			return nil, err
		}
		var asic struct {
			MarketName any `json:"market_name"`
		}
		_ = json.Unmarshal(ent["asic"], &asic)
		name, _ := asic.MarketName.(string)
		if name == "" {
			name = "N/A"
		}
		gs = append(gs, gpuInfo{Index: i, UUID: amdKey(i), Name: strings.TrimSpace(name)})
	}
	sort.Slice(gs, func(a, b int) bool { return gs[a].Index < gs[b].Index })
	return gs, nil
}

type amdMem struct {
	total, used float64
	totalOK     bool
}

// parseAMDMem reads `amd-smi metric --mem-usage --json`: each GPU's
// mem_usage.total_vram and used_vram, in MiB.
func parseAMDMem(out []byte) (map[int]amdMem, error) {
	ents, err := amdEntries(out)
	if err != nil {
		return nil, err
	}
	mem := map[int]amdMem{}
	for _, ent := range ents {
		i, err := amdIndex(ent)
		if err != nil {
			return nil, err
		}
		var mu map[string]any
		_ = json.Unmarshal(ent["mem_usage"], &mu)
		total, tok := amdMiB(mu["total_vram"], "MB")
		used, _ := amdMiB(mu["used_vram"], "MB")
		mem[i] = amdMem{total: total, used: used, totalOK: tok}
	}
	return mem, nil
}

// amdMiB reads an amd-smi quantity in MiB: {"value": N, "unit": U}, "N U",
// or a bare N in defUnit. amd-smi's "MB" and "GB" are binary (its totals
// are bytes // (1024*1024)). "N/A" and anything unreadable are no value.
func amdMiB(v any, defUnit string) (float64, bool) {
	var num any
	unit := defUnit
	switch x := v.(type) {
	case map[string]any:
		num = x["value"]
		if u, ok := x["unit"].(string); ok {
			unit = u
		}
	case string:
		f := strings.Fields(x)
		if len(f) == 0 || len(f) > 2 {
			return 0, false
		}
		num = f[0]
		if len(f) == 2 {
			unit = f[1]
		}
	default:
		num = x
	}
	var n float64
	switch x := num.(type) {
	case float64:
		n = x
	case string:
		var err error
		if n, err = strconv.ParseFloat(x, 64); err != nil {
			return 0, false
		}
	default:
		return 0, false
	}
	scale, ok := map[string]float64{"B": 1.0 / (1 << 20), "KB": 1.0 / (1 << 10), "MB": 1, "GB": 1 << 10, "TB": 1 << 20}[strings.ToUpper(unit)]
	if !ok || n < 0 || n != n || n > 1e15 {
		return 0, false
	}
	return n * scale, true
}

// parseAMDProcesses reads `amd-smi process --json`: one app per process
// on a GPU. An idle GPU's list holds the string "No running processes
// detected" instead of a process.
func parseAMDProcesses(out []byte) ([]gpuApp, error) {
	ents, err := amdEntries(out)
	if err != nil {
		return nil, err
	}
	var apps []gpuApp
	for _, ent := range ents {
		i, err := amdIndex(ent)
		if err != nil {
			return nil, err
		}
		var list []map[string]any
		_ = json.Unmarshal(ent["process_list"], &list)
		for _, item := range list {
			p, ok := item["process_info"].(map[string]any)
			if !ok {
				if _, direct := item["pid"]; !direct {
					continue // "No running processes detected"
				}
				p = item
			}
			app := gpuApp{GPUUUID: amdKey(i), PID: jsonText(p["pid"]), Name: jsonText(p["name"]), UsedMiB: "N/A"}
			if mu, ok := p["memory_usage"].(map[string]any); ok {
				if mib, ok := amdMiB(mu["vram_mem"], "B"); ok {
					app.UsedMiB = strconv.FormatFloat(mib, 'f', 0, 64)
				}
			}
			apps = append(apps, app)
		}
	}
	return apps, nil
}

// jsonText renders a decoded JSON scalar as text ("N/A" when absent).
func jsonText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case nil:
		return "N/A"
	}
	return fmt.Sprint(v)
}

// rocmCardRE is rocm-smi's per-GPU key: "card0" is GPU 0.
var rocmCardRE = regexp.MustCompile(`^card([0-9]+)$`)

// parseROCmSMI reads `rocm-smi --showproductname --showmeminfo vram
// --json`: {"card0": {"VRAM Total Memory (B)": "205822885888", ...}}.
func parseROCmSMI(out []byte) ([]gpuInfo, error) {
	var doc map[string]map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(out), &doc); err != nil {
		return nil, fmt.Errorf("unexpected rocm-smi JSON: %q", firstLine(out))
	}
	var gs []gpuInfo
	for card, fields := range doc {
		m := rocmCardRE.FindStringSubmatch(card)
		if m == nil {
			continue // "system" and other non-GPU keys
		}
		i, _ := strconv.Atoi(m[1])
		get := func(keys ...string) string {
			for _, k := range keys {
				for fk, v := range fields {
					if strings.EqualFold(fk, k) {
						if s := strings.TrimSpace(jsonText(v)); s != "" && s != "N/A" {
							return s
						}
					}
				}
			}
			return ""
		}
		g := gpuInfo{Index: i, UUID: amdKey(i), Name: get("Card Series", "Device Name", "Card Model")}
		if g.Name == "" {
			g.Name = "N/A"
		}
		total, tok := amdMiB(get("VRAM Total Memory (B)"), "B")
		used, _ := amdMiB(get("VRAM Total Used Memory (B)"), "B")
		g.MemMiB, g.UsedMiB, g.MemUnknown = total, used, !tok
		gs = append(gs, g)
	}
	sort.Slice(gs, func(a, b int) bool { return gs[a].Index < gs[b].Index })
	return gs, nil
}

// amdModelRE finds AMD's Instinct model in a product name: "MI300X" in
// "AMD Instinct MI300X OAM", "AMD Instinct MI300X VF" (an SR-IOV virtual
// function), "AMD Instinct Mi325X VF" (amd-smi's own spelling on an
// MI325X VM), "Arcturus GL-XL [AMD Instinct MI100]" (old rocm-smi).
var amdModelRE = regexp.MustCompile(`(?i)\bMI[0-9]{2,3}[A-Z]?\b`)

// sameAMDModel compares AMD product names by their Instinct model: the
// tools append the form factor (" OAM") or " VF" to the catalog's name,
// and spell "Mi" for "MI". Without a model in either name, the names are
// compared as sameGPUName does.
func sameAMDModel(found, want string) bool {
	f, w := amdModelRE.FindString(found), amdModelRE.FindString(want)
	if f == "" || w == "" {
		return sameGPUName(found, want)
	}
	return strings.EqualFold(f, w)
}

// missingGPUFix is the fix for GPUs missing from the node's list.
func (e *env) missingGPUFix() string {
	if e.amd() {
		return "check `amd-smi list`; a missing GPU usually means a part the amdgpu driver failed to initialise (dmesg) or a wrong node entry in the spec"
	}
	return "check `nvidia-smi -L`; a missing GPU usually means a fallen-off-the-bus part (dmesg Xid 79) or a wrong node entry in the spec"
}

// listFix names the command that lists the node's GPUs.
func (e *env) listFix() string {
	if e.amd() {
		return "check `amd-smi list`"
	}
	return "check `nvidia-smi -L`"
}
