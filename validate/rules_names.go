package validate

import (
	"strings"

	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/vllm"
)

// checkNames: names and paths that become file names or appear in launch
// scripts.
func checkNames(c *checker) {
	m := c.d.Model
	if n := c.d.Metadata.Name; !fileSafe(n) {
		c.errorf(CodeUnsafeName, p("metadata", "name"), "use letters, digits, '.', '_' and '-' (the name becomes a directory name)",
			"metadata.name %q is not safe as a file name", n)
	}
	word(c, m.ServedName, p("model", "served_name"), "served_name")
	word(c, m.Path, p("model", "path"), "model path")
	if hasLineBreakOrNUL(m.Config) {
		c.errorf(CodeUnsafeName, p("model", "config"), "", "model config path contains a NUL or a line break")
	}
}

// checkRuntimeNames: images, paths, sizes and Kubernetes object names.
func checkRuntimeNames(c *checker) {
	r := c.d.Runtime
	if _, written := spec.NodeAt(c.d.Root, p("runtime", "image"), false); written {
		// The default image is derived from vllm.version, which has its own check.
		word(c, r.Image, p("runtime", "image"), "image")
	}
	word(c, r.VLLMBinary, p("runtime", "vllm_binary"), "vllm_binary")
	word(c, r.Docker.ModelMount, p("runtime", "docker", "model_mount"), "model_mount")
	word(c, r.Docker.CacheDir, p("runtime", "docker", "cache_dir"), "cache_dir")
	word(c, r.Kubernetes.RDMAResource, p("runtime", "kubernetes", "rdma_resource"), "rdma_resource")
	size(c, r.Docker.ShmSize, p("runtime", "docker", "shm_size"))
	size(c, r.Kubernetes.ShmSize, p("runtime", "kubernetes", "shm_size"))
	k8sName(c, r.Kubernetes.Namespace, p("runtime", "kubernetes", "namespace"), dnsLabelRE.MatchString)
	k8sName(c, r.Kubernetes.ModelPVC, p("runtime", "kubernetes", "model_pvc"), dnsSubdomain)
	k8sName(c, r.Kubernetes.ServiceAccount, p("runtime", "kubernetes", "service_account"), dnsSubdomain)
}

func word(c *checker, v string, path []string, what string) {
	if v == "" || wordOK(v) {
		return
	}
	c.errorf(CodeUnsafeName, path, "use letters, digits and . _ / : @ + = , - (no spaces, quotes or shell characters; not starting with '-')",
		"%s %q is not safe in a shell command", what, vllm.MaskSecrets(v))
}

func size(c *checker, v string, path []string) {
	if v != "" && !shmRE.MatchString(v) {
		c.errorf(CodeUnsafeName, path, "e.g. 64g (Docker) or 64Gi (Kubernetes)", "%q is not a size", v)
	}
}

func dnsSubdomain(s string) bool { return len(s) <= 253 && dnsSubdomainRE.MatchString(s) }

func k8sName(c *checker, v string, path []string, valid func(string) bool) {
	if v == "" || valid(v) {
		return
	}
	c.errorf(CodeUnsafeName, path, "lower-case letters, digits and '-' (RFC 1123)",
		"%q is not a valid Kubernetes name", strings.TrimSpace(v))
}
