package generator

import (
	"github.com/vlaunch/vlaunch/spec"
	"github.com/vlaunch/vlaunch/validate"
)

// hfCache is where vLLM downloads hub models in the official image.
const hfCache = validate.HFCache

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

// kubeModelMount is how the pods get the model: the checkpoint's volume
// at model.path for a local model, else the hub cache's volume (if any).
// What is wrong with it (no volume for a local path, two sources, a
// relative path) is validate's to say (BundleRefusals' kubeModelVolume,
// which makePlan calls before the pods are planned), so validate reports
// for a kubernetes spec what generate refuses.
func kubeModelMount(p *Plan, d *spec.Deployment) KubeModel {
	k := d.Runtime.Kubernetes
	m := KubeModel{PVC: k.ModelPVC, HostPath: k.ModelHostPath, MountPath: hfCache, HostPathType: "DirectoryOrCreate"}
	if validate.LocalModel(p.Model) {
		m.MountPath, m.ReadOnly, m.HostPathType = p.Model, true, "Directory"
	}
	return m
}
