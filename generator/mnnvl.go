package generator

import "github.com/vlaunch/vlaunch/spec"

// Multi-node NVLink (hardware.network.nvlink_domain): the environment an
// engine spanning the trays of a GB200/GB300 NVL72 rack needs, and on
// Kubernetes the IMEX channel its pods must hold.

// mnnvl reports whether one replica's engine spans nodes of a multi-node
// NVLink domain: only then does NVLink between nodes matter to it.
func (p *Plan) mnnvl(d *spec.Deployment) bool {
	return d.Hardware.Network.NVLinkDomain != nil && p.multiNode()
}

// mnnvlEnv is what the release needs to use the domain's NVLink between
// nodes (vllm.Release.MNNVLEnv: NCCL's cuMem and MNNVL switches, DeepEP
// low-latency's MNNVL switch), leaving out what the spec's vllm.env sets
// itself (the user's value wins and is exported once).
func mnnvlEnv(p *Plan, d *spec.Deployment) []EnvVar {
	if !p.mnnvl(d) {
		return nil
	}
	var out []EnvVar
	for _, e := range p.Release.MNNVLEnv(p.All2All) {
		if _, own := d.VLLM.Env[e.Name]; own {
			continue
		}
		out = append(out, EnvVar{Name: e.Name, Value: e.Value, Why: "multi-node NVLink: " + e.Why})
	}
	if _, own := d.VLLM.Env[imexChannelsEnv]; p.Runtime == "docker" && !own {
		out = append(out, EnvVar{Name: imexChannelsEnv, Value: "0", Why: "multi-node NVLink: the NVIDIA container runtime creates IMEX channel 0 in the container (/dev/nvidia-caps-imex-channels/channel0)"})
	}
	return out
}

// imexChannelsEnv asks the NVIDIA container runtime's legacy hook for IMEX
// channels in the container: libnvidia-container passes it on as
// nvidia-container-cli --imex-channel and creates
// /dev/nvidia-caps-imex-channels/channelN there (NVIDIA/nvidia-container-toolkit
// issue #797, "containers ... that do not have the NVIDIA_IMEX_CHANNELS
// environment variable set", 1.17.x). A runtime in CDI mode ignores it and
// needs the channel in its CDI spec instead; preflight's gpu.imex_channel
// (PF107) run in the container tells.
const imexChannelsEnv = "NVIDIA_IMEX_CHANNELS"

// ComputeDomainPlan is the NVIDIA DRA driver's ComputeDomain
// (resource.nvidia.com/v1beta1, github.com/NVIDIA/k8s-dra-driver-gpu) a
// multi-node NVLink deployment needs on Kubernetes: the driver runs an
// IMEX daemon on every node a pod of the domain lands on and injects an
// IMEX channel (/dev/nvidia-caps-imex-channels/channelN) into each pod
// that claims one, without which CUDA cannot map another tray's memory
// and NCCL falls back to the NICs. The driver creates a
// ResourceClaimTemplate named ClaimTemplate; every pod claims a channel
// from it (demo/specs/imex/channel-injection.yaml in the driver's
// repository at 22407113).
type ComputeDomainPlan struct {
	Name, ClaimTemplate string
	// NumNodes is every pod of every group (one per node). The driver
	// deprecates it and recommends 0 with its default feature gate
	// (IMEXDaemonsWithDNSNames, where it only sets the status), but
	// without that gate it must be the node count: the true count works
	// in both modes.
	NumNodes int
}

// computeDomainClaim is the name the pods give their IMEX-channel claim.
const computeDomainClaim = "compute-domain-channel"

// computeDomain is the ComputeDomain of the LeaderWorkerSet's pods, nil
// when the deployment does not span nodes of an NVLink domain.
func computeDomain(p *Plan, d *spec.Deployment, kp *KubePlan) *ComputeDomainPlan {
	if !p.mnnvl(d) {
		return nil
	}
	name := k8sName(p.K8sName + "-compute-domain")
	return &ComputeDomainPlan{Name: name, ClaimTemplate: k8sName(p.K8sName + "-imex-channel"), NumNodes: kp.Replicas * kp.Size}
}

// ClaimName is the pods' claim on the IMEX channel (the template's
// resourceClaims entry and the container's resources.claims).
func (c *ComputeDomainPlan) ClaimName() string { return computeDomainClaim }
