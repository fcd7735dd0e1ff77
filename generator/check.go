package generator

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// Diagnostic codes.
const (
	CodeUnsafeValue = "GEN001" // a name, address or path that cannot be used safely
	CodeLayout      = "GEN002" // the layout does not fit the nodes
	CodeVersion     = "GEN003" // version not in the table, or unparsable
	CodeAll2All     = "GEN004" // all-to-all backend choice or fallback
	CodeSecret      = "GEN005" // a secret in vllm.env
	CodeExtraArg    = "GEN006" // extra_args the release does not know
	CodeTemplate    = "GEN007" // template parse/execute error
	CodeIdleGPUs    = "GEN008" // GPUs left unused by the layout
	CodeRuntime     = "GEN009" // runtime-specific restriction
	CodeNoInterface = "GEN010" // multi-node without a socket interface
)

// Patterns for values that end up in file names, labels, comments, YAML keys
// or unquoted shell positions. Everything else is quoted.
var (
	nodeNameRE  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$`)
	hostRE      = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$`)
	ifaceRE     = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.:@-]{0,31}$`)
	envKeyRE    = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,127}$`)
	secretKeyRE = regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|ACCESS_KEY|PRIVATE_KEY)`)
)

// checkInputs rejects values that could break out of the generated files.
// Paths, served names, env values and extra args may hold anything except
// NUL and (for single-line fields) control characters: they are quoted.
func checkInputs(d *spec.Deployment) diag.Diagnostics {
	var ds diag.Diagnostics
	bad := func(path, msg, hint string) {
		ds = append(ds, gdiag(d, CodeUnsafeValue, diag.Error, path, msg, hint))
	}
	if !nodeNameRE.MatchString(d.Metadata.Name) {
		bad("metadata.name", fmt.Sprintf("name %q is unusable in file names and labels", d.Metadata.Name),
			"use letters, digits, '.', '_' and '-' (at most 63)")
	}
	for i, n := range d.Hardware.Nodes {
		p := fmt.Sprintf("hardware.nodes[%d]", i)
		if !nodeNameRE.MatchString(n.Name) {
			bad(p+".name", fmt.Sprintf("node name %q is unusable", n.Name), "use letters, digits, '.', '_' and '-'")
		}
		if !hostRE.MatchString(n.Address) {
			bad(p+".address", fmt.Sprintf("address %q is not an IP address or host name", n.Address), "")
		}
		if n.Interface != "" && !ifaceRE.MatchString(n.Interface) {
			bad(p+".interface", fmt.Sprintf("interface %q is not a network interface name", n.Interface), "")
		}
		for j, dev := range n.RDMADevices {
			if !ifaceRE.MatchString(dev) {
				bad(fmt.Sprintf("%s.rdma_devices[%d]", p, j), fmt.Sprintf("RDMA device %q is not a device name", dev), "e.g. mlx5_0")
			}
		}
	}
	for path, v := range map[string]string{"model.path": d.Model.Path, "model.served_name": d.Model.ServedName,
		"model.name": d.Model.Name, "runtime.image": d.Runtime.Image, "runtime.vllm_binary": d.Runtime.VLLMBinary,
		"runtime.docker.model_mount": d.Runtime.Docker.ModelMount, "runtime.docker.cache_dir": d.Runtime.Docker.CacheDir,
		"runtime.docker.shm_size": d.Runtime.Docker.ShmSize, "runtime.kubernetes.namespace": d.Runtime.Kubernetes.Namespace,
		"runtime.kubernetes.model_pvc": d.Runtime.Kubernetes.ModelPVC, "runtime.kubernetes.rdma_resource": d.Runtime.Kubernetes.RDMAResource,
		"runtime.kubernetes.service_account": d.Runtime.Kubernetes.ServiceAccount, "runtime.kubernetes.shm_size": d.Runtime.Kubernetes.ShmSize} {
		if hasControl(v) {
			bad(path, fmt.Sprintf("%s contains control characters (newline, tab or NUL)", path), "")
		}
	}
	ds = append(ds, checkEnv(d)...)
	for i, a := range d.VLLM.ExtraArgs {
		if strings.ContainsRune(a, 0) {
			bad(fmt.Sprintf("vllm.extra_args[%d]", i), "extra argument contains a NUL byte", "")
		}
	}
	return ds
}

// checkEnv refuses invalid variable names and secrets: scripts read secrets
// from the environment they are started in, so they never land on disk.
func checkEnv(d *spec.Deployment) diag.Diagnostics {
	var ds diag.Diagnostics
	for _, k := range sortedKeys(d.VLLM.Env) {
		p := "vllm.env." + k
		switch {
		case !envKeyRE.MatchString(k):
			ds = append(ds, gdiag(d, CodeUnsafeValue, diag.Error, p, fmt.Sprintf("%q is not a valid environment variable name", k), ""))
		case secretKeyRE.MatchString(k):
			ds = append(ds, gdiag(d, CodeSecret, diag.Error, p, fmt.Sprintf("%s looks like a secret; vlaunch never writes secrets into launch files", k),
				"remove it from the spec and export it on each node (the scripts pass HF_TOKEN through when it is set)"))
		case strings.ContainsRune(d.VLLM.Env[k], 0):
			ds = append(ds, gdiag(d, CodeUnsafeValue, diag.Error, p, "value contains a NUL byte", ""))
		}
	}
	return ds
}

// k8sName turns a (validated) deployment name into a DNS-1035 label short
// enough to take the "-api" suffix: lower case, '.' and '_' become '-'.
func k8sName(name string) string {
	n := strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r == '.' || r == '_':
			return '-'
		}
		return r
	}, name)
	if len(n) > 58 {
		n = n[:58]
	}
	n = strings.Trim(n, "-")
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		n = "v" + n
	}
	return n
}

func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f {
			return true
		}
	}
	return false
}

// gdiag builds a diagnostic positioned at the spec field when known.
func gdiag(d *spec.Deployment, code string, sev diag.Severity, path, msg, hint string) diag.Diagnostic {
	dd := diag.Diagnostic{Code: code, Severity: sev, File: d.File, Path: path, Message: msg, Hint: hint}
	if path != "" {
		dd.Line, dd.Col = d.Pos(splitPath(path)...)
	}
	return dd
}

// splitPath turns "hardware.nodes[1].name" into segments for spec.Pos.
func splitPath(p string) []string {
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	return strings.Split(p, ".")
}
