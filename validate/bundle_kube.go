package validate

import (
	"strings"

	"github.com/vlaunch/vlaunch/diag"
	"github.com/vlaunch/vlaunch/diag/codes"
	"github.com/vlaunch/vlaunch/resolve"
	"github.com/vlaunch/vlaunch/spec"
)

// HFCache is where vLLM (huggingface_hub) downloads hub models in the
// official image, which runs as root: a Kubernetes bundle mounts the
// model volume there for a hub model.
const HFCache = "/root/.cache/huggingface"

// ModelArg is what `vllm serve` gets: the spec's path, else the catalog's
// Hugging Face repo, else the name as given.
func ModelArg(r *resolve.Deployment) string {
	if r.Spec.Model.Path != "" {
		return r.Spec.Model.Path
	}
	if r.Model != nil && r.Model.HFRepo != "" {
		return r.Model.HFRepo
	}
	return r.Spec.Model.Name
}

// LocalModel reports whether the model argument is a path on the node
// rather than a Hugging Face repo id; relative paths count as local (vLLM
// loads an existing directory before trying the hub).
func LocalModel(m string) bool {
	return strings.HasPrefix(m, "/") || strings.HasPrefix(m, ".") || strings.HasPrefix(m, "~")
}

// kubeModelVolume is the one decision on how Kubernetes pods get the
// model (the generator mounts what it allows): a local path needs a volume
// holding it, without one the containers would start with no model, so
// that is an error listing the choices (GEN013, as are a relative path and
// two volume sources); a hub model with no volume for its cache is
// downloaded again at every start, a warning (GEN009). It is part of
// BundleRefusals for the kubernetes runtime, so validate reports for a
// kubernetes spec what generate refuses (newuser40 finding 10).
func kubeModelVolume(d *spec.Deployment, model string) diag.Diagnostics {
	k := d.Runtime.Kubernetes
	if k.ModelPVC != "" && k.ModelHostPath != "" {
		return diag.Diagnostics{bundleDiag(d, codes.GenModelVolume, diag.Error, "runtime.kubernetes.model_host_path",
			"runtime.kubernetes sets both model_pvc and model_host_path; the model comes from one volume", "keep one of them")}
	}
	volume := k.ModelPVC != "" || k.ModelHostPath != ""
	switch {
	case !LocalModel(model) && !volume:
		return diag.Diagnostics{bundleDiag(d, codes.GenRuntime, diag.Warning, "model",
			"the model "+model+" is downloaded from the Hugging Face hub into each pod's container filesystem at every start",
			"set runtime.kubernetes.model_pvc or model_host_path to keep the download (mounted at "+HFCache+")")}
	case !LocalModel(model):
		return nil
	case !strings.HasPrefix(model, "/"):
		return diag.Diagnostics{bundleDiag(d, codes.GenModelVolume, diag.Error, "model.path",
			"model.path "+model+" is relative; a pod has no such directory", "give the absolute path the volume is mounted at")}
	case !volume:
		return diag.Diagnostics{bundleDiag(d, codes.GenModelVolume, diag.Error, "model.path",
			"model.path "+model+" is a local path, but no volume gives the pods that directory: the containers would start without the model",
			"set runtime.kubernetes.model_pvc (a PVC holding the checkpoint, mounted at model.path), "+
				"runtime.kubernetes.model_host_path (the checkpoint's directory on every node), "+
				"or set model.path to a Hugging Face repo id so that vLLM downloads it")}
	}
	return nil
}
