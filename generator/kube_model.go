package generator

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/spec"
)

// hfCache is where vLLM (huggingface_hub) downloads hub models in the
// official image, which runs as root.
const hfCache = "/root/.cache/huggingface"

// KubeModel is the volume that gives the pods their weights.
type KubeModel struct {
	// PVC or HostPath names the volume source; both empty = no volume.
	PVC, HostPath string
	// HostPathType is the hostPath check: Directory for a local model
	// (the pod must not start without it), DirectoryOrCreate for a cache.
	HostPathType string
	// MountPath is model.path for a local model, else the Hugging Face cache.
	MountPath string
	// ReadOnly is true for a local model; a cache must be writable.
	ReadOnly bool
}

// localModel reports whether the model argument is a path on the node
// rather than a Hugging Face repo id; relative paths count as local (vLLM
// loads an existing directory before trying the hub).
func localModel(m string) bool {
	return strings.HasPrefix(m, "/") || strings.HasPrefix(m, ".") || strings.HasPrefix(m, "~")
}

// kubeModelMount decides how the pods get the model. A local path needs a
// volume holding it: without one the containers would start with no model,
// so that is an error listing the choices (GEN013, as are a relative path
// and two volume sources); a hub model with no volume for its cache is
// downloaded again at every start, a warning (GEN009).
func kubeModelMount(p *Plan, d *spec.Deployment) (KubeModel, diag.Diagnostics) {
	k := d.Runtime.Kubernetes
	if k.ModelPVC != "" && k.ModelHostPath != "" {
		return KubeModel{}, diag.Diagnostics{gdiag(d, CodeModelVolume, diag.Error, "runtime.kubernetes.model_host_path",
			"runtime.kubernetes sets both model_pvc and model_host_path; the model comes from one volume", "keep one of them")}
	}
	m := KubeModel{PVC: k.ModelPVC, HostPath: k.ModelHostPath, MountPath: hfCache, HostPathType: "DirectoryOrCreate"}
	if !localModel(p.Model) {
		if m.PVC == "" && m.HostPath == "" {
			return m, diag.Diagnostics{gdiag(d, CodeRuntime, diag.Warning, "model",
				"the model "+p.Model+" is downloaded from the Hugging Face hub into each pod's container filesystem at every start",
				"set runtime.kubernetes.model_pvc or model_host_path to keep the download (mounted at "+hfCache+")")}
		}
		return m, nil
	}
	if !strings.HasPrefix(p.Model, "/") {
		return m, diag.Diagnostics{gdiag(d, CodeModelVolume, diag.Error, "model.path",
			"model.path "+p.Model+" is relative; a pod has no such directory", "give the absolute path the volume is mounted at")}
	}
	if m.PVC == "" && m.HostPath == "" {
		return m, diag.Diagnostics{gdiag(d, CodeModelVolume, diag.Error, "model.path",
			"model.path "+p.Model+" is a local path, but no volume gives the pods that directory: the containers would start without the model",
			"set runtime.kubernetes.model_pvc (a PVC holding the checkpoint, mounted at model.path), "+
				"runtime.kubernetes.model_host_path (the checkpoint's directory on every node), "+
				"or set model.path to a Hugging Face repo id so that vLLM downloads it")}
	}
	m.MountPath, m.ReadOnly, m.HostPathType = p.Model, true, "Directory"
	return m, nil
}
